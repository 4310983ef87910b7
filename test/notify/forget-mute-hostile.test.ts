/**
 * Hostile review of 0908200 (dropUntracked), 9d49542 (Tracker.get waits for a removal; withoutIntent clears a progress
 * turned in place and rebuilds an away summary; createTrackList -> forgetMany) and 7e2ba90 (#dropMuted), over the
 * harness worker (tracker delivery + real pipeline on a fake desktop; a new `worker()` on the same stores is a
 * restarted worker). Only what the user sees (desktop.log) is asserted, against values derived here.
 * Claims tried:
 * 1. N1 across forgetMany at tracking time: a list mixing intents tracked (one waiting for its group, one told), and
 *    one removed whose forget was lost, is told exactly once each; also when `tracker.get` rejects (the tracker's
 *    load refused once) and when the outbox refuses forgetMany's write (transient IndexedDB failure, N4).
 * 2. N2: a mute and an unmute racing while a final waits for its group, or while it is held by quiet hours; a mute
 *    whose outbox change was lost while the calm state cannot be read; an away summary waiting for its retry when one
 *    of its intents is muted and another removed; all its intents removed; a summary whose create the worker died in.
 * 3. An away summary rebuilt by a removal says the remaining intents' outcomes (also on a desk whose summarised finals
 *    went past the 1 000 kept told jobs).
 * Tests named "fixed:" failed on 7e2ba90 and pass since (the away summary keeps each line's outcome and is rebuilt
 * while `queued` or `showing`, a mute takes its line out, an unreadable calm state fails the run, a tracking the
 * tracker could not check forgets after its write); the one "residual:" is skipped, see its comment.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AWAY } from '@/lib/notify/browser';
import type { NotifySettings } from '@/lib/store';
import { createTrackList } from '@/lib/worker/track-many';
import { settle, type VirtualClock } from '../tracker/fakes';
import { at, freshStart, groupOnClock, id, legacyCalm, type Shared, toldOf, trackerOver, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

/** While true, every read of the calm state (mutes, snooze) is refused, as IndexedDB may refuse a read. */
const calmRead = { fails: false };
vi.mock('@/lib/store', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/store')>();
  return {
    ...real,
    createCalmStateStore: (...args: Parameters<typeof real.createCalmStateStore>) => {
      const s = real.createCalmStateStore(...args);
      return { ...s, get: () => (calmRead.fails ? Promise.reject(new DOMException('read refused', 'UnknownError')) : s.get()) };
    },
  };
});

const HOUR = 3_600_000;
let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
  calmRead.fails = false;
});

const aways = (desktop: FakeDesktop) => desktop.log.filter((a) => a.id.startsWith(AWAY));
const opts = (refuse?: () => boolean) => ({ groupWindowMs: 300, groupTimer: groupOnClock(clock), outboxWriteFails: refuse });
const quiet = () => ({ ...settings, quietHours: { start: '12:00', end: '13:00' } });

/** Intent 1 finished and told by a first worker, removed, the worker dead before the notifier's forget. */
async function toldThenRemovedForgetLost(desktop: FakeDesktop) {
  const first = worker(shared, desktop, clock, () => settings, opts());
  await first.finish(1);
  await clock.advance(1_000);
  expect(toldOf(desktop, 1)).toBe(1);
  await first.mirror.remove(id(1));
  first.browser.dead = true;
  await clock.advance(HOUR);
}

describe('claim 1: N1 across forgetMany at tracking time', () => {
  it('holds: Firefox, a list of one intent waiting for its group, one told, one removed (forget lost): each told exactly once', async () => {
    const desktop = new FakeDesktop('firefox', () => clock.now());
    await toldThenRemovedForgetLost(desktop);
    const w = worker(shared, desktop, clock, () => settings, opts());
    await w.wake();
    await w.finish(2);
    void w.finish(3);
    await clock.advance(5);
    const track = createTrackList(trackerOver(w.mirror, clock), undefined, w.calm);
    const result = await track([{ intentId: id(1) }, { intentId: id(2) }, { intentId: id(3) }]);
    expect(result.added).toEqual([id(1)]);
    await clock.advance(60_000);
    await w.finish(1, 'FAILED');
    await clock.advance(60_000);
    await w.wake();
    expect([toldOf(desktop, 1), toldOf(desktop, 2), toldOf(desktop, 3)]).toEqual([2, 1, 1]);
  }, 30_000);

  it('fixed: tracked anew while the tracker cannot answer (its load refused once): the new final is told (it was not)', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    await toldThenRemovedForgetLost(desktop);
    // The next worker's first read of the intents is refused (the popup's "track" woke it); the second succeeds.
    const list = shared.intents.list;
    let reads = 0;
    shared.intents.list = () => (++reads === 1 ? Promise.reject(new DOMException('refused', 'UnknownError')) : list());
    const w = worker(shared, desktop, clock, () => settings, opts());
    const result = await createTrackList(trackerOver(w.mirror, clock), undefined, w.calm)([{ intentId: id(1) }]);
    expect(result.added).toEqual([id(1)]);
    await w.wake();
    await clock.advance(60_000);
    await w.finish(1);
    await clock.advance(60_000);
    await w.wake();
    expect(toldOf(desktop, 1), 'the final of the new tracking').toBe(2);
  }, 30_000);

  // Known residual: both of createTrackList's forgets refused (before the tracking write and after it) leave the old
  // told final, and the new one counts as told. A durable fix would tie a final job to its tracking (docs/notifications.md).
  it.skip('residual: tracked anew while the outbox refuses every forgetMany of the tracking: the new final is never told', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    await toldThenRemovedForgetLost(desktop);
    let refuse = false;
    const w = worker(
      shared,
      desktop,
      clock,
      () => settings,
      opts(() => refuse),
    );
    await w.wake();
    refuse = true;
    const result = await createTrackList(trackerOver(w.mirror, clock), undefined, w.calm)([{ intentId: id(1) }]);
    refuse = false;
    expect(result.added).toEqual([id(1)]);
    await clock.advance(60_000);
    await w.finish(1);
    await clock.advance(60_000);
    await w.wake();
    expect(toldOf(desktop, 1), 'the final of the new tracking').toBe(2);
  }, 30_000);
});

describe('claim 2: N2 for mutes and removals', () => {
  it('holds (as docs/notifications.md says: a mute takes back a waiting final): muted and unmuted while its final waits for its group: not shown, the others are', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    await w.finish(1);
    void w.finish(2);
    void w.finish(3);
    await clock.advance(5);
    await w.calm.mute(id(2), true);
    await w.calm.mute(id(2), false);
    await clock.advance(10_000);
    await w.wake();
    expect([toldOf(desktop, 1), toldOf(desktop, 2), toldOf(desktop, 3)]).toEqual([1, 0, 1]);
  }, 30_000);

  it('holds: quiet hours, muted then unmuted while held: one line of the summary, once', async () => {
    settings = quiet();
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    await clock.advance(60_000);
    await w.finish(1, 'FAILED');
    await w.finish(2);
    await w.calm.mute(id(1), true);
    await w.calm.mute(id(1), false);
    await clock.advance(HOUR);
    await w.wake();
    await clock.advance(120_000);
    expect(desktop.log.map((a) => [a.title, a.message])).toEqual([['While you were away: 2 intents finished', '1 succeeded, 1 failed']]);
  }, 30_000);

  it('fixed: worker dead between the mute’s two writes; the next worker cannot read the calm state: the muted final is not shown (it was)', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, opts());
    await first.finish(1);
    void first.finish(2);
    await clock.advance(5);
    // The mute's first write (the calm state) happens as `mute` does it; the worker dies before the outbox change.
    const { createCalmStateStore } = await import('@/lib/store');
    const { createStore } = await import('idb-keyval');
    const calm = createCalmStateStore(createStore(shared.calmDb, 'settings'));
    await calm.set({ ...(await calm.get()), muted: [id(2)] });
    first.browser.dead = true;
    const second = worker(shared, desktop, clock, () => settings, opts());
    calmRead.fails = true;
    await second.wake().catch(() => {});
    await clock.advance(10_000);
    calmRead.fails = false;
    await second.wake();
    await clock.advance(60_000);
    expect(toldOf(desktop, 2), 'a muted intent (the popup shows it Muted)').toBe(0);
  }, 30_000);

  it('fixed: the away summary waits for its retry; one intent muted, another removed: the rebuilt summary counts neither (it counted the muted one)', async () => {
    settings = quiet();
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    await clock.advance(60_000);
    await w.finish(1, 'FAILED');
    await w.finish(2);
    await w.finish(3, 'REFUNDED');
    await clock.advance(HOUR);
    w.browser.fail('create');
    await w.wake();
    expect(desktop.log).toEqual([]);
    await w.calm.mute(id(2), true);
    await w.mirror.remove(id(3));
    await w.calm.forget!(id(3));
    await clock.advance(120_000);
    // Left: intent 1 (failed) alone; 2 is muted ("not in a summary"), 3 removed.
    expect(aways(desktop).map((a) => [a.title, a.message])).toEqual([['While you were away: 1 intent finished', '1 failed']]);
  }, 30_000);

  it('holds: every intent of an away summary waiting for its retry removed (one forget refused): nothing is shown', async () => {
    settings = quiet();
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
    await clock.advance(HOUR);
    w.browser.fail('create');
    await w.wake();
    await w.mirror.remove(id(1));
    await w.calm.forget!(id(1));
    await w.mirror.remove(id(2));
    refuse = true;
    await w.calm.forget!(id(2)).catch(() => {});
    refuse = false;
    await clock.advance(120_000);
    await w.wake();
    expect(desktop.log).toEqual([]);
  }, 30_000);

  it('fixed: Chrome, the worker died inside the away summary’s create (nothing shown); the next worker removes an intent before its run: the summary leaves it out (it counted it)', async () => {
    settings = quiet();
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, opts());
    await clock.advance(60_000);
    await first.finish(1, 'FAILED');
    await first.finish(2);
    await clock.advance(HOUR);
    first.browser.fail('create', 'kill');
    void first.wake();
    await clock.advance(1_000);
    await settle();
    expect(first.browser.dead).toBe(true);
    expect(desktop.log).toEqual([]);
    const second = worker(shared, desktop, clock, () => settings, opts());
    await second.load();
    await second.mirror.remove(id(1));
    await second.calm.forget!(id(1));
    await second.wake();
    await clock.advance(60_000);
    expect(aways(desktop).map((a) => [a.title, a.message])).toEqual([['While you were away: 1 intent finished', '1 succeeded']]);
  }, 30_000);
});

describe('claim 3: a rebuilt away summary says the remaining outcomes', () => {
  it('holds: "3 intents finished — 1 succeeded, 1 failed, 1 refunded" minus the succeeded one', async () => {
    settings = quiet();
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    await clock.advance(60_000);
    await w.finish(1, 'FAILED');
    await w.finish(2);
    await w.finish(3, 'REFUNDED');
    await clock.advance(HOUR);
    w.browser.fail('create');
    await w.wake();
    await w.mirror.remove(id(2));
    await w.calm.forget!(id(2));
    await clock.advance(120_000);
    const [shown] = aways(desktop);
    expect(aways(desktop)).toHaveLength(1);
    expect(shown!.title).toBe('While you were away: 2 intents finished');
    expect(shown!.message.split(', ').sort()).toEqual(['1 failed', '1 refunded']);
  }, 30_000);

  it('fixed: a summary of 1 002 intents (more than the 1 000 told finals kept): after one removal it still names the oldest outcomes (it said "unknown")', async () => {
    const n = 1_002;
    // Held overnight (the upgrade's held list: the same withSummary as quiet hours); the two oldest failed.
    const held = Array.from({ length: n }, (_, i) => ({
      intentId: id(i + 1),
      status: i < 2 ? 'FAILED' : 'SUCCEEDED',
      heldAt: at(22, 2) + i * 1_000,
    }));
    await legacyCalm(shared, { held });
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    w.browser.fail('create');
    await w.wake();
    expect(desktop.log).toEqual([]);
    await w.mirror.remove(id(n));
    await w.calm.forget!(id(n));
    await clock.advance(120_000);
    expect(aways(desktop).map((a) => [a.title, a.message])).toEqual([
      [`While you were away: ${n - 1} intents finished`, `${n - 3} succeeded, 2 failed`],
    ]);
  }, 30_000);
});
