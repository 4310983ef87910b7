/**
 * Hostile tests of "a click proves its notification was shown" (commit 7e56787, `NotificationPipeline.clicked` →
 * `OutboxDelivery.seen`): clicks on ids other than the one the outbox job holds, on summaries, on progress
 * notifications, on Firefox, with the mark refused or never written. What is checked is what the user sees: what
 * appeared (`desktop.log`), what is left on screen, the tabs opened. A test that fails shows a break of "every final
 * outcome is told exactly once, and a clicked notification goes away and stays away"; its comment says what the user saw.
 * Written by a reviewer who had not written the change; its three breaks are skipped with their reasons (none new with
 * 7e56787: two existed before it, the third changed in kind, from shown twice to left on screen).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createShownMarks, type ShownMarks } from '@/lib/notify/shown-marks';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { settle, type VirtualClock } from '../tracker/fakes';
import {
  finalTitle,
  freshStart,
  groupOnClock,
  id,
  receiptTab,
  type Shared,
  toldOf,
  watchdog as wakeEvery30s,
  worker,
} from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
  fakeBrowser.reset();
});
const marks = () => createShownMarks([fakeBrowser.storage.session, fakeBrowser.storage.local]);
/** Marks that no storage area takes (both refused), and that no area holds. */
const refusedMarks: ShownMarks = { add: () => Promise.reject(new Error('refused')), has: async () => false };
type Options = Parameters<typeof worker>[4];
const start = (desktop: FakeDesktop, options: Options = {}) =>
  worker(shared, desktop, clock, () => settings, { shownMarks: marks(), ...options });
const watchdog = (w: ReturnType<typeof start>, times: number) => wakeEvery30s(clock, w, times);
const chrome = () => new FakeDesktop('chrome', () => clock.now());
const titles = (desktop: FakeDesktop) => desktop.log.map((a) => a.title);

describe('a click on a summary its dead worker did not record as shown', () => {
  /** Final 1 told alone; finals 2 and 3 then grouped under one `svc-group:` id by a worker that died right after the create. */
  async function groupThenDied(desktop: FakeDesktop) {
    const first = start(desktop, { groupTimer: groupOnClock(clock) });
    await first.finish(1);
    await settle();
    first.browser.fail('create', 'kill-after');
    void first.finish(2);
    void first.finish(3);
    await settle();
    await clock.advance(100);
    await settle();
    expect(desktop.log).toHaveLength(2);
    const group = desktop.log[1]!.id;
    expect(group.startsWith('svc-group:')).toBe(true);
    return group;
  }

  it('Chrome: a group summary clicked as the next worker first event: intents 2 and 3 told once, it stays away', async () => {
    const desktop = chrome();
    const group = await groupThenDied(desktop);
    const next = start(desktop);
    await next.routing.openNotification(group);
    await watchdog(next, 3);
    expect(toldOf(desktop, 2)).toBe(1);
    expect(toldOf(desktop, 3)).toBe(1);
    expect(desktop.screen.has(group)).toBe(false);
    expect(desktop.tabs).toHaveLength(1);
  });

  it('Chrome: the group is clicked while the next worker is waking (its run in flight)', async () => {
    const desktop = chrome();
    const group = await groupThenDied(desktop);
    const next = start(desktop);
    const waking = next.wake();
    await next.routing.openNotification(group);
    await waking;
    await watchdog(next, 3);
    expect(toldOf(desktop, 2)).toBe(1);
    expect(toldOf(desktop, 3)).toBe(1);
    expect(desktop.screen.has(group)).toBe(false);
  });

  it('Chrome: the "while you were away" summary clicked after its worker died at the create: told once, stays away', async () => {
    const desktop = chrome();
    const w = start(desktop);
    await w.calm.snooze();
    await w.finish(1, 'SUCCEEDED');
    await w.finish(2, 'FAILED');
    expect(desktop.log).toEqual([]);
    clock.t += 60 * 60_000;
    w.browser.fail('create', 'kill-after');
    void w.wake();
    await settle();
    expect(desktop.log).toHaveLength(1);
    const away = desktop.log[0]!.id;
    expect(away.startsWith('svc-away:')).toBe(true);
    const next = start(desktop);
    await next.routing.openNotification(away);
    await watchdog(next, 3);
    expect(desktop.log.map((a) => a.id)).toEqual([away]);
    expect(desktop.screen.has(away)).toBe(false);
  });
});

describe('a click on another notification of an intent whose final is not shown yet is no proof of the final', () => {
  it('Chrome: the stuck warning clicked while the final waits for its group window: the final still appears, once', async () => {
    const desktop = chrome();
    const w = start(desktop, { groupTimer: groupOnClock(clock) });
    await w.record(1, 'EXECUTING');
    await w.load();
    await w.calm.showStuck(w.mirror.get(id(1))!, 10);
    await settle();
    const stuck = desktop.log[0]!.id;
    expect(stuck.startsWith('svc-stuck:')).toBe(true);
    const finishing = w.finish(1);
    await settle();
    await w.routing.openNotification(stuck);
    await clock.advance(100);
    await finishing;
    await watchdog(w, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    expect(desktop.screen.has(stuck)).toBe(false);
  });

  it('Chrome: the stuck warning clicked while the final create was refused (waiting for its retry): the final still appears, once', async () => {
    const desktop = chrome();
    const w = start(desktop);
    await w.record(1, 'EXECUTING');
    await w.load();
    await w.calm.showStuck(w.mirror.get(id(1))!, 10);
    await settle();
    const stuck = desktop.log[0]!.id;
    w.browser.fail('create', 'reject');
    await w.finish(1);
    expect(desktop.seen(finalTitle(1))).toHaveLength(0);
    await w.routing.notificationButton(stuck, 0);
    await clock.advance(5_000);
    await watchdog(w, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  it('Chrome: the stuck warning clicked, then the worker dies; the next one tells the final once', async () => {
    const desktop = chrome();
    const w = start(desktop);
    await w.record(1, 'EXECUTING');
    await w.load();
    await w.calm.showStuck(w.mirror.get(id(1))!, 10);
    await settle();
    const stuck = desktop.log[0]!.id;
    await w.routing.openNotification(stuck);
    await w.record(1, 'SUCCEEDED');
    w.browser.dead = true;
    const next = start(desktop);
    await watchdog(next, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  it('Chrome: an info notification clicked records nothing and opens nothing; the final after it is told once', async () => {
    const desktop = chrome();
    const w = start(desktop);
    await w.routing.openNotification(`svc-info:${clock.now()}:0`);
    expect(desktop.tabs).toEqual([]);
    await w.finish(1);
    await watchdog(w, 2);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('a click on a progress notification', () => {
  const progressShown = async (desktop: FakeDesktop) => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const w = start(desktop);
    await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
    await w.calm.progress(id(1));
    const progress = desktop.log[0]!.id;
    expect(progress.startsWith('svc-progress:')).toBe(true);
    return { w, progress };
  };

  it('Chrome: clicked (and cleared) before the final: the final moves to a new svc-intent id and is told once', async () => {
    const desktop = chrome();
    const { w, progress } = await progressShown(desktop);
    await w.routing.openNotification(progress);
    expect(desktop.screen.has(progress)).toBe(false);
    await w.finish(1);
    await watchdog(w, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    expect(desktop.log.find((a) => a.title === finalTitle(1))!.id.startsWith('svc-intent:')).toBe(true);
  });

  it('Chrome: clicked, and the worker dies in the fallback create (kill-after); the final is told once and the click-cleared one stays away', async () => {
    const desktop = chrome();
    const { w, progress } = await progressShown(desktop);
    await w.routing.openNotification(progress);
    w.browser.fail('create', 'kill-after');
    void w.finish(1);
    await settle();
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    const single = desktop.seen(finalTitle(1))[0]!.id;
    const next = start(desktop);
    await next.routing.openNotification(single);
    await watchdog(next, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    expect(desktop.screen.has(single)).toBe(false);
  });

  // BREAK (not caused by 7e56787; left by it): the final replaced the progress notification in place (update resolved
  // on screen) and the worker died before recording it. The user reads the final, clicks it; its id is still
  // `svc-progress:`, so `seen` records nothing; the click clears it; the next worker finds the job `showing`, the
  // screen empty, `update` answers false and it creates the final again under a new `svc-intent:` id. The user sees
  // "Intent succeeded" twice: once in place of the progress notification, once again after clicking it.
  // Skipped: left, documented in docs/notifications.md (a click on a progress id cannot say which content it showed).
  it.skip('Chrome: the final shown in place under the progress id by a worker that died (kill-after update), then clicked: told once', async () => {
    const desktop = chrome();
    const { w } = await progressShown(desktop);
    w.browser.fail('update', 'kill-after');
    void w.finish(1);
    await settle();
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    const inPlace = desktop.seen(finalTitle(1))[0]!.id;
    expect(inPlace.startsWith('svc-progress:')).toBe(true);
    const next = start(desktop);
    await next.routing.openNotification(inPlace);
    expect(desktop.tabs.filter((u) => u.endsWith(receiptTab(1)))).toHaveLength(1);
    await watchdog(next, 3);
    expect(titles(desktop).filter((t) => t === finalTitle(1))).toHaveLength(1);
  });
});

describe('Firefox (no buttons, getAll forgets)', () => {
  it('a final shown by a worker that died at the create, clicked as the next worker first event: told once', async () => {
    const desktop = new FakeDesktop('firefox', () => clock.now());
    const first = start(desktop);
    first.browser.fail('create', 'kill-after');
    void first.finish(1);
    await settle();
    const shown = desktop.log[0]!.id;
    const next = start(desktop);
    await next.routing.openNotification(shown);
    await watchdog(next, 3);
    expect(desktop.tabs.filter((u) => u.endsWith(receiptTab(1)))).toHaveLength(1);
    expect(toldOf(desktop, 1)).toBe(1);
  });

  it('a progress notification clicked before the final: the final is told once', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const desktop = new FakeDesktop('firefox', () => clock.now());
    const w = start(desktop);
    await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
    await w.calm.progress(id(1));
    const progress = desktop.log[0]!.id;
    await w.routing.openNotification(progress);
    await w.finish(1);
    await clock.advance(200);
    await watchdog(w, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('the click record cannot be kept', () => {
  /** Intent 1's final created by a worker that died right after the create; returns its id. */
  async function shownThenDied(desktop: FakeDesktop) {
    const first = start(desktop);
    first.browser.fail('create', 'kill-after');
    void first.finish(1);
    await settle();
    expect(titles(desktop)).toEqual([finalTitle(1)]);
    return desktop.log[0]!.id;
  }

  // BREAK (not caused by 7e56787; the window it leaves): no storage area takes the click's mark, the click clears the
  // notification, and the worker dies right then (before any delivery run). The next worker finds the job `showing`,
  // no mark, the screen empty: it creates the final again. The user clicked "Intent succeeded", the receipt opened,
  // the notification went — and came back.
  // Skipped: the stated window (docs/notifications.md): with no mark kept, a later worker has only the screen to ask.
  it.skip('Chrome: the mark is refused and the worker dies at the click clear: the final does not come back', async () => {
    const desktop = chrome();
    const shown = await shownThenDied(desktop);
    const next = start(desktop, { shownMarks: refusedMarks });
    next.browser.fail('clear', 'kill-after');
    void next.routing.openNotification(shown);
    await settle();
    expect(desktop.screen.has(shown)).toBe(false);
    const third = start(desktop, { shownMarks: refusedMarks });
    await watchdog(third, 3);
    expect(titles(desktop)).toEqual([finalTitle(1)]);
  });

  it('Chrome: the mark is refused but the clicked worker lives on: told once (memory is enough)', async () => {
    const desktop = chrome();
    const shown = await shownThenDied(desktop);
    const next = start(desktop, { shownMarks: refusedMarks });
    await next.routing.openNotification(shown);
    await watchdog(next, 3);
    expect(titles(desktop)).toEqual([finalTitle(1)]);
    expect(desktop.screen.has(shown)).toBe(false);
  });

  // BREAK (changed in kind by 7e56787, not new): the click's clear now waits for its mark write. The worker dies while
  // the mark is being written (the write never settles): the receipt tab opened, but the clear is never made and no
  // later worker clears it: the user clicked the notification and it stays on screen. Before the change the same
  // death (after the tab, before any run) let the clear through and the next worker showed the final again (two
  // appearances); now it appears once but never goes away.
  // Skipped: the stated window (docs/notifications.md): the clear waits for the mark, so that it cannot come back.
  it.skip('Chrome: the worker dies while the click mark is written: the clicked notification still goes away', async () => {
    const desktop = chrome();
    const shown = await shownThenDied(desktop);
    const hung: ShownMarks = { add: () => new Promise<void>(() => {}), has: async () => false };
    const next = start(desktop, { shownMarks: hung });
    void next.routing.openNotification(shown);
    await settle();
    expect(desktop.tabs.filter((u) => u.endsWith(receiptTab(1)))).toHaveLength(1);
    next.browser.dead = true;
    const third = start(desktop);
    await watchdog(third, 3);
    expect(titles(desktop)).toEqual([finalTitle(1)]);
    expect(desktop.screen.has(shown)).toBe(false);
  });
});
