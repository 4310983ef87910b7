/**
 * A click proves a notification was shown (Chrome). A worker that died right after its `create` resolved left the job
 * `showing` with nothing recorded (no `shown`, no mark); the next worker settles such a job by asking the screen, and
 * a notification the user has just clicked — cleared by the click — is not there. Found by the world campaign (seed
 * 20261208, run 573: the click's page opened, then the notification came back). What is checked is what the user saw
 * appear and what is left on screen.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createShownMarks } from '@/lib/notify/shown-marks';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { settle, type VirtualClock } from '../tracker/fakes';
import { finalTitle, freshStart, id, receiptTab, type Shared, toldOf, watchdog as wakeEvery30s, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
  fakeBrowser.reset();
});
const marks = () => createShownMarks([fakeBrowser.storage.session, fakeBrowser.storage.local]);
const start = (desktop: FakeDesktop) => worker(shared, desktop, clock, () => settings, { shownMarks: marks() });
const watchdog = (w: ReturnType<typeof start>, times: number) => wakeEvery30s(clock, w, times);

/** Intent 1's final shown by a worker that then died before recording anything of it; the next worker, not woken yet. */
async function shownThenDied(desktop: FakeDesktop) {
  const first = start(desktop);
  first.browser.fail('create', 'kill-after');
  void first.finish(1);
  await settle();
  expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
  const shown = desktop.log[0]!.id;
  return { shown, next: start(desktop) };
}

describe('a click on a notification its dead worker did not record as shown', () => {
  it('Chrome: the click is the next worker first event — the page opens, the notification goes and does not come back', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const { shown, next } = await shownThenDied(desktop);
    await next.routing.openNotification(shown);
    await watchdog(next, 3);
    expect(desktop.tabs.filter((u) => u.endsWith(receiptTab(1)))).toHaveLength(1);
    expect(toldOf(desktop, 1)).toBe(1);
    expect(desktop.screen.has(shown)).toBe(false);
  });

  it('Chrome: its button ("View receipt") does the same', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const { shown, next } = await shownThenDied(desktop);
    await next.routing.notificationButton(shown, 0);
    await watchdog(next, 3);
    expect(toldOf(desktop, 1)).toBe(1);
    expect(desktop.screen.has(shown)).toBe(false);
  });

  it('Chrome: the clicked worker dies before any delivery run; the one after it does not show it again', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const { shown, next } = await shownThenDied(desktop);
    await next.routing.openNotification(shown);
    next.browser.dead = true;
    const third = start(desktop);
    await watchdog(third, 3);
    expect(toldOf(desktop, 1)).toBe(1);
    expect(desktop.screen.has(shown)).toBe(false);
  });

  it('Chrome: the click comes while the next worker is settling the job (between its mark read and its screen read), marks refused', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const { shown } = await shownThenDied(desktop);
    const real = marks();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let asked = false;
    const next = worker(shared, desktop, clock, () => settings, {
      // Its marks cannot be written (the click's neither): only what the worker holds in memory can tell.
      shownMarks: {
        add: () => Promise.reject(new Error('refused')),
        async has(n) {
          asked = true;
          await gate;
          return real.has(n);
        },
      },
    });
    const waking = next.wake();
    await expect.poll(() => asked).toBe(true);
    await next.routing.openNotification(shown);
    open();
    await waking;
    await watchdog(next, 3);
    expect(toldOf(desktop, 1)).toBe(1);
    expect(desktop.screen.has(shown)).toBe(false);
  });
});

describe('a click on a progress notification says nothing of the final that replaces it in place', () => {
  it('Chrome: the worker dies inside the in-place update; the user clicks the progress notification; the final is still told', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = start(desktop);
    await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
    await w.calm.progress(id(1));
    const progress = desktop.log[0]!.id;
    expect(progress.startsWith('svc-progress:')).toBe(true);
    w.browser.fail('update', 'kill');
    void w.finish(1);
    await settle();
    const next = start(desktop);
    await next.routing.openNotification(progress);
    await watchdog(next, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});
