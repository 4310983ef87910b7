/**
 * Hostile review of 0908200 (N2: `OutboxDelivery.dropUntracked` before each run and in `release`), over the harness
 * worker (the tracker's delivery + the real pipeline on a fake desktop, fake-indexeddb, a virtual clock; a new
 * `worker()` on the same stores is a restarted worker). Only what the user sees on the fake desktop is asserted.
 * Claims tried:
 * 1. a removed intent is never told afterwards (own, group line, away summary, stuck, chain warning) and its progress
 *    notification is cleared, even when the notifier's forget was refused or never ran, Chrome and Firefox;
 * 2. nothing else is lost or repeated (N1): a tracker load refused or slow on a fresh worker, a removal the store
 *    refuses (the intent stays tracked), a re-track after a removal, a re-track while the old final waits;
 * 3. "Open in explorer" on a removed intent's notification still opens its explorer link (`gone:` job).
 * Tests named "fixed:" failed on 0908200 and pass since: the away summary recomputed without a removed intent and a
 * progress notification still to be turned in place cleared (lib/notify/outbox-removal.ts), `Tracker.get` waiting for a
 * removal still awaiting the store (lib/tracker/mirror.ts `removalSettled`).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CHAIN, intentIdsOfNotification, PROGRESS, STUCK } from '@/lib/notify/browser';
import type { NotifySettings } from '@/lib/store';
import { createNotificationRouting } from '@/lib/worker/notification-routing';
import { settle, type VirtualClock } from '../tracker/fakes';
import { freshStart, groupOnClock, id, type Shared, toldOf, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

const HOUR = 3_600_000;
/** The transaction hash every harness receipt's legs carry (desktop-harness `receiptOf`). */
const HASH = `0x${'ab'.repeat(32)}`;
let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});

const progressOnScreen = (desktop: FakeDesktop, n: number) =>
  [...desktop.screen.keys()].filter((k) => k.startsWith(PROGRESS) && intentIdsOfNotification(k).includes(id(n)));
const opts = (refuse?: () => boolean) => ({ groupWindowMs: 300, groupTimer: groupOnClock(clock), outboxWriteFails: refuse });

describe('claim 1: a removed intent is not told afterwards', () => {
  it('holds: Chrome, a stuck warning in its back-off and a progress notification; the worker dies before the forget: the next worker shows no warning and clears the progress', async () => {
    settings = { ...settings, progress: true };
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, opts());
    await first.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'PENDING']);
    await first.calm.progress(id(1));
    expect(progressOnScreen(desktop, 1)).toHaveLength(1);
    first.browser.fail('create');
    await first.calm.showStuck(first.mirror.get(id(1))!, 20);
    await settle();
    await first.mirror.remove(id(1));
    first.browser.dead = true;
    const second = worker(shared, desktop, clock, () => settings, opts());
    await second.wake();
    await clock.advance(120_000);
    expect(desktop.log.filter((a) => a.id.startsWith(STUCK))).toEqual([]);
    expect(progressOnScreen(desktop, 1)).toEqual([]);
  }, 30_000);

  it('holds: Firefox, quiet hours hold its final and an urgent chain warning; removed, forget refused: the summary at their end names the other only, no warning', async () => {
    settings = { ...settings, quietHours: { start: '12:00', end: '13:00' } };
    const desktop = new FakeDesktop('firefox', () => clock.now());
    let refuse = false;
    const w = worker(
      shared,
      desktop,
      clock,
      () => settings,
      opts(() => refuse),
    );
    await clock.advance(60_000);
    await w.finish(1, 'FAILED');
    await w.finish(2);
    const content = { title: 'On-chain check', message: 'destination reverted' };
    await w.calm.showChain({ key: `chain:${id(1)}:reverted:destination`, intentId: id(1), urgent: true, content });
    await w.mirror.remove(id(1));
    refuse = true;
    await expect(w.calm.forget!(id(1))).rejects.toThrow();
    refuse = false;
    await clock.advance(HOUR);
    await w.wake();
    await clock.advance(120_000);
    expect(desktop.log.filter((a) => a.id.startsWith(CHAIN))).toEqual([]);
    expect(desktop.log).toHaveLength(1);
    expect(desktop.log[0]!.message).toContain('1 succeeded');
    expect(desktop.log[0]!.message).not.toMatch(/failed/i);
  }, 30_000);

  it("fixed: the away summary's create is refused once; the user removes an intent before the retry: the summary shown after the removal leaves it out (it still counted it)", async () => {
    settings = { ...settings, quietHours: { start: '12:00', end: '13:00' } };
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    await clock.advance(60_000);
    await w.finish(1, 'FAILED');
    await w.finish(2);
    await clock.advance(HOUR);
    w.browser.fail('create');
    await w.wake();
    expect(desktop.log).toEqual([]);
    // Removed while the summary waits for its retry (1 s): the forget itself succeeds here.
    await w.mirror.remove(id(1));
    await w.calm.forget!(id(1));
    await clock.advance(120_000);
    expect(desktop.log).toHaveLength(1);
    expect(desktop.log[0]!.message, 'the summary shown after the failed intent was removed').not.toMatch(/failed/i);
  }, 30_000);

  it('fixed: Chrome, its progress notification being turned final in place (update refused once); removed, forget refused: the progress notification is cleared (it stayed on screen)', async () => {
    settings = { ...settings, progress: true };
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let refuse = false;
    const w = worker(
      shared,
      desktop,
      clock,
      () => settings,
      opts(() => refuse),
    );
    await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'PENDING']);
    await w.calm.progress(id(1));
    w.browser.fail('update');
    await w.finish(1);
    await w.mirror.remove(id(1));
    refuse = true;
    await expect(w.calm.forget!(id(1))).rejects.toThrow();
    refuse = false;
    await clock.advance(120_000);
    await w.wake();
    expect(toldOf(desktop, 1)).toBe(0);
    expect(progressOnScreen(desktop, 1), 'a removed intent’s progress notification still on screen').toEqual([]);
  }, 30_000);
});

describe('claim 2: nothing else is lost or repeated', () => {
  it('holds: a fresh worker whose tracker load is refused, then slow: the final the last worker left waiting is told once', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, opts());
    await first.finish(1);
    void first.finish(2);
    await clock.advance(5);
    first.browser.dead = true;
    const list = shared.intents.list;
    let reads = 0;
    shared.intents.list = async () => {
      reads++;
      if (reads === 1) throw new DOMException('refused', 'UnknownError');
      await clock.sleep(5_000);
      return list();
    };
    const second = worker(shared, desktop, clock, () => settings, opts());
    void second.calm.resume();
    await clock.advance(30_000);
    await second.wake();
    await clock.advance(30_000);
    expect(reads).toBeGreaterThanOrEqual(2);
    expect([toldOf(desktop, 1), toldOf(desktop, 2)]).toEqual([1, 1]);
  }, 30_000);

  it('fixed: a removal the store refuses (the intent stays tracked) while its final waits for its group: the final is told once (it was dropped, never told)', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    await w.finish(1);
    void w.finish(2);
    await clock.advance(5);
    // The store answers the deletion after 1 s, refusing it: the tracker keeps the intent (lib/tracker/mirror.ts).
    shared.intents.remove = async () => {
      await clock.sleep(1_000);
      throw new DOMException('refused', 'UnknownError');
    };
    const removal = w.mirror.remove(id(2)).then(
      () => 'removed',
      () => 'refused',
    );
    await clock.advance(2_000);
    expect(await removal).toBe('refused');
    // The engine does not call forget after a refused removal: intent 2 is tracked and final, as the popup lists it.
    expect(w.mirror.get(id(2))?.phase).toBe('final');
    await clock.advance(60_000);
    await w.wake();
    await clock.advance(60_000);
    expect(toldOf(desktop, 2), 'the final of an intent still tracked').toBe(1);
  }, 30_000);

  // Tracked again after a removal whose forget was lost (told before, or muted): not told again, found here with the
  // re-track made by the harness's record; fixed in the tracking every way goes through (createTrackList forgets what
  // an earlier tracking left), tested there: test/worker/track-forget.test.ts.

  it('holds: removed (forget refused) and re-tracked at once while its final waits for its group, then finishes: told exactly once', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let refuse = false;
    const w = worker(
      shared,
      desktop,
      clock,
      () => settings,
      opts(() => refuse),
    );
    await w.finish(1);
    void w.finish(2);
    await clock.advance(5);
    await w.mirror.remove(id(2));
    refuse = true;
    await expect(w.calm.forget!(id(2))).rejects.toThrow();
    refuse = false;
    w.mirror.revive(id(2));
    await w.record(2, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'PENDING']);
    await clock.advance(60_000);
    await w.finish(2);
    await clock.advance(60_000);
    await w.wake();
    expect([toldOf(desktop, 1), toldOf(desktop, 2)]).toEqual([1, 1]);
  }, 30_000);
});

describe('claim 3: "Open in explorer" on a removed intent\'s notification', () => {
  it('holds: shown while the outbox refused to record it, removed with the forget refused, clicked after a restart: opens its explorer link', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let refuse = false;
    const first = worker(
      shared,
      desktop,
      clock,
      () => settings,
      opts(() => refuse),
    );
    // Every outbox write after the create is refused: the job stays `showing`, though on screen.
    first.browser.hook = (method) => {
      if (method === 'create') refuse = true;
      return undefined;
    };
    await first.finish(1);
    await settle();
    const shown = desktop.log.find((a) => intentIdsOfNotification(a.id).includes(id(1)))!;
    expect(shown.buttons).toContain('Open in explorer');
    await first.mirror.remove(id(1));
    await first.calm.forget!(id(1)).catch(() => {});
    first.browser.dead = true;
    refuse = false;
    const second = worker(shared, desktop, clock, () => settings, opts());
    await second.wake();
    await clock.advance(60_000);
    expect(toldOf(desktop, 1)).toBe(1);
    const routing = createNotificationRouting(second.browser as never, shared.intents, (nid) => second.calm.explorerLinkOf(nid));
    await routing.notificationButton(shown.id, 1);
    expect(desktop.tabs).toHaveLength(1);
    expect(desktop.tabs[0]).toContain(HASH);
    expect(desktop.tabs[0]).not.toMatch(/^chrome-extension:/);
  }, 30_000);
});
