/**
 * Information notifications (what a user's action did) go through the pipeline's outbox like every other
 * notification (issue 19): shown once under the extension's name, retried when the call is rejected, not held by a
 * snooze, no buttons, and a click opens nothing.
 */
import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createNotificationAdapter, INFO, intentIdsOfNotification } from '@/lib/notify/browser';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import { createCalmStateStore, DEFAULT_NOTIFY } from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import { createNotificationRouting } from '@/lib/worker/notification-routing';
import { trackedStandIn } from './desktop-harness';
import { FakeDesktop, type WorkerBrowser } from './fake-desktop';

let db = 0;
/** A pipeline on `browser`; `sameStores` keeps the previous one's stores (a restarted worker). */
function pipelineOn(browser: WorkerBrowser, now: () => number, sameStores = false) {
  if (!sameStores) db++;
  const firefox = browser.desktop.kind === 'firefox';
  return createNotificationPipeline({
    adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox }),
    outbox: createOutbox(createStore(`info-outbox-${db}`, 'jobs')),
    state: createCalmStateStore(createStore(`info-calm-${db}`, 'calm')),
    settings: async () => DEFAULT_NOTIFY,
    intent: trackedStandIn,
    scheduleRelease: async () => {},
    now,
    retryTimer: () => {},
  });
}

describe('information notifications', () => {
  beforeEach(() => fakeBrowser.reset());

  it('shows the message under the extension name, once, with no button and an id that names no intent', async () => {
    const desktop = new FakeDesktop('chrome', () => 1_000);
    const calm = pipelineOn(desktop.worker(), () => 1_000);
    const id = await calm.inform('Tracking intent 0x1234…abcd.');
    await calm.resume();
    expect(id.startsWith(INFO)).toBe(true);
    expect(intentIdsOfNotification(id)).toEqual([]);
    expect(desktop.log.map((c) => ({ id: c.id, title: c.title, message: c.message, buttons: c.buttons }))).toEqual([
      { id, title: 'Svc Intent Tracker', message: 'Tracking intent 0x1234…abcd.', buttons: [] },
    ]);
    // Two in the same millisecond are two notifications.
    const second = await calm.inform('Already tracked.');
    await calm.resume();
    expect(second).not.toBe(id);
    expect(desktop.log).toHaveLength(2);
  });

  it('a rejected create is tried again, and shown once (N4)', async () => {
    let t = 1_000;
    const desktop = new FakeDesktop('chrome', () => t);
    const browser = desktop.worker();
    const calm = pipelineOn(browser, () => t);
    browser.fail('create', 'reject');
    await calm.inform('Tracking 2 intents.');
    await calm.resume();
    expect(desktop.log).toHaveLength(0);
    t += 2_000;
    await calm.resume();
    await calm.resume();
    expect(desktop.log.map((c) => c.message)).toEqual(['Tracking 2 intents.']);
  });

  it('is shown during a snooze: it answers the user’s own action', async () => {
    const desktop = new FakeDesktop('firefox', () => 1_000);
    const calm = pipelineOn(desktop.worker(), () => 1_000);
    await calm.snooze();
    await calm.inform('Tracking intent 0x1234…abcd.');
    await calm.resume();
    expect(desktop.log.map((c) => c.message)).toEqual(['Tracking intent 0x1234…abcd.']);
  });

  it('a message still waiting for its retry is not replaced by one a restarted worker shows in the same millisecond', async () => {
    let t = 1_000;
    const desktop = new FakeDesktop('chrome', () => t);
    const browser = desktop.worker();
    const first = pipelineOn(browser, () => t);
    browser.fail('create', 'reject');
    await first.inform('Tracking intent 0x1234…abcd.');
    browser.dead = true;
    const second = pipelineOn(desktop.worker(), () => t, true);
    await second.inform('Already tracked.');
    t += 2_000;
    await second.resume();
    expect(desktop.log.map((c) => c.message).sort()).toEqual(['Already tracked.', 'Tracking intent 0x1234…abcd.']);
    expect(desktop.screen.size).toBe(2);
  });

  it('a click on it opens nothing', async () => {
    const desktop = new FakeDesktop('chrome', () => 1_000);
    const calm = pipelineOn(desktop.worker(), () => 1_000);
    const id = await calm.inform('Tracking intent 0x1234…abcd.');
    await calm.resume();
    const opened: string[] = [];
    // A spy, restored after the test: the unit project's files share fakeBrowser (vitest.config.ts, `isolate: false`).
    vi.spyOn(fakeBrowser.tabs, 'create').mockImplementation((async (p: { url?: string }) => {
      opened.push(p.url ?? '');
      return {} as never;
    }) as never);
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    await createNotificationRouting(fakeBrowser as never, { get: async () => undefined }).openNotification(id);
    expect(opened).toEqual([]);
  });
});
