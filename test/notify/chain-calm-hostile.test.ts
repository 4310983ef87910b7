/**
 * Hostile tests of a chain warning held for a snooze (an outbox job whose `nextAt` is the snooze's end, `isDue` in
 * lib/notify/outbox-changes.ts): the user mutes the intent, resumes early, or the wall clock steps while it waits.
 * N2: nothing for a muted intent; N3: what is held is shown within 60 s of the snooze's end; N1/N4: told once.
 */
import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createNotificationAdapter } from '@/lib/notify/browser';
import { chainNotice } from '@/lib/notify/chain';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import { createCalmStateStore, DEFAULT_NOTIFY } from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import { trackedStandIn } from './desktop-harness';
import { FakeDesktop, type WorkerBrowser } from './fake-desktop';

const A = `0x${'a'.repeat(64)}`;
const HOUR = 3_600_000;
let db = 0;
function pipelineOn(browser: WorkerBrowser, now: () => number, sameStores = false) {
  if (!sameStores) db++;
  return createNotificationPipeline({
    adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: browser.desktop.kind === 'firefox' }),
    outbox: createOutbox(createStore(`chain-hostile-outbox-${db}`, 'jobs')),
    state: createCalmStateStore(createStore(`chain-hostile-calm-${db}`, 'calm')),
    settings: async () => DEFAULT_NOTIFY,
    intent: trackedStandIn,
    scheduleRelease: async () => {},
    now,
    retryTimer: () => {},
  });
}
const reverted = chainNotice(A, { kind: 'destination-reverted', leg: 'destination' }, 'Reverted on Base');

describe('a chain warning held for a snooze, attacked', () => {
  beforeEach(() => fakeBrowser.reset());

  it('is never shown once the intent is muted while it waits (N2)', async () => {
    let t = 1_000_000;
    const desktop = new FakeDesktop('chrome', () => t);
    const calm = pipelineOn(desktop.worker(), () => t);
    await calm.snooze(HOUR);
    await calm.showChain(reverted);
    await calm.mute(A, true);
    t += HOUR + 1;
    await calm.resume();
    expect(desktop.log).toEqual([]);
  });

  it('is shown once, within 60 s, when the user ends the snooze early (Resume now, N3)', async () => {
    let t = 1_000_000;
    const desktop = new FakeDesktop('chrome', () => t);
    const calm = pipelineOn(desktop.worker(), () => t);
    await calm.snooze(HOUR);
    await calm.showChain(reverted);
    t += 60_000;
    await calm.endSnooze();
    t += 30_000;
    await calm.resume();
    expect(desktop.log.map((c) => c.message)).toEqual(['Reverted on Base']);
    t += HOUR;
    await calm.resume();
    expect(desktop.log).toHaveLength(1);
  });

  it('waits for the snooze through a step back of the wall clock, and is shown once after a step forward and back', async () => {
    let t = 1_000_000;
    const desktop = new FakeDesktop('chrome', () => t);
    const first = pipelineOn(desktop.worker(), () => t);
    await first.snooze(HOUR);
    await first.showChain(reverted);
    t -= HOUR;
    await first.resume();
    expect(desktop.log).toEqual([]);
    // Forward past the snooze's end: shown; then back again, a restarted worker: not shown again.
    t += 2 * HOUR + 1;
    await first.resume();
    expect(desktop.log).toHaveLength(1);
    t -= 2 * HOUR;
    const second = pipelineOn(desktop.worker(), () => t, true);
    await second.resume();
    t += 3 * HOUR;
    await second.resume();
    expect(desktop.log).toHaveLength(1);
  });
});
