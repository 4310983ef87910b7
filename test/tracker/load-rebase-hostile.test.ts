/**
 * Hostile tests of the load's writes (lib/tracker/load-rebase.ts, `Tracker.#rebase`/`#rebasePause`,
 * `IntentMirror.hold`, `sameTimes`), by a tester who did not write them: a record removed or tracked again while its
 * rebase write hangs, a user action during the hung write, a previous life's late write landing during this life's
 * load, a late pause write landing after a later one.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { LOAD_LIMITS } from '@/lib/tracker/load-bound';
import { deferred, EventClock, hungFirstUpdate, RecordingNotifier, trackedRecord } from './fakes';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Fn = (c: TrackedIntent | undefined) => TrackedIntent | undefined;

/** One record written an hour ahead by a previous worker; the store's first `update` runs only when released. */
async function hungRebase(records: string[] = [A]) {
  const clock = new EventClock();
  const start = clock.now();
  const memory = new MemoryStore();
  for (const id of records)
    await memory.put(trackedRecord(id, { addedAt: start + HOUR, lastCheckedAt: start + HOUR, nextCheckAt: start + HOUR + MINUTE }));
  const { store, release } = hungFirstUpdate(memory);
  const tracker = new Tracker({
    store,
    stateStore: new MemoryStateStore(),
    clock,
    notifier: new RecordingNotifier(),
    transport: async () => undefined,
  });
  return { clock, start, memory, tracker, release };
}

describe('a user action while the load’s rebase write hangs', () => {
  it('removed while its rebase write hangs: the late write does not bring it back, in memory or in the store', async () => {
    const s = await hungRebase([A, B]);
    const listing = s.tracker.list();
    await s.clock.advance(LOAD_LIMITS.boundMs);
    await listing;
    await s.tracker.remove(A);
    s.release();
    await s.clock.advance(0);
    expect(await s.memory.get(A)).toBeUndefined();
    expect(await s.tracker.get(A)).toBeUndefined();
    expect((await s.tracker.list()).map((t) => t.intentId)).not.toContain(A);
    s.tracker.stop();
  });

  it('removed and tracked again while its rebase write hangs: the late write leaves the new record’s times alone', async () => {
    const s = await hungRebase([A]);
    const listing = s.tracker.list();
    await s.clock.advance(LOAD_LIMITS.boundMs);
    await listing;
    await s.tracker.remove(A);
    await s.clock.advance(MINUTE);
    const trackedAt = s.clock.now();
    expect((await s.tracker.track(A)).added).toBe(true);
    expect((await s.memory.get(A))?.addedAt).toBe(trackedAt);
    s.release();
    await s.clock.advance(0);
    expect((await s.memory.get(A))?.addedAt).toBe(trackedAt);
    expect((await s.tracker.get(A))?.addedAt).toBe(trackedAt);
    s.tracker.stop();
  });

  it('Retry now on the record during the hung write: its back-off is cleared for good, and the event times moved once', async () => {
    const s = await hungRebase([A]);
    // Its back-off, written an hour ahead like the rest, waits an hour more than it should.
    const r = s.memory.map.get(A) as TrackedIntent;
    s.memory.map.set(A, { ...r, retry: { attempt: 3, nextAt: s.start + HOUR + 10 * MINUTE, at: s.start + HOUR } });
    const listing = s.tracker.list();
    await s.clock.advance(LOAD_LIMITS.boundMs);
    await listing;
    await s.tracker.retryNow(A);
    s.release();
    await s.clock.advance(0);
    const stored = await s.memory.get(A);
    expect(stored?.retry).toBeUndefined();
    expect(stored?.addedAt).toBe(s.start);
    expect((await s.tracker.get(A))?.retry).toBeUndefined();
    expect((await s.tracker.get(A))?.addedAt).toBe(s.start);
    s.tracker.stop();
  });
});

describe('the wall clock jumping back again while the rebase write hangs', () => {
  it('an hour back during the load’s bound: the record held is no later than the tracker’s clock, and moved once when the write lands', async () => {
    const s = await hungRebase([A]);
    const listing = s.tracker.list();
    await s.clock.advance(1_000);
    s.clock.jumpWall(-HOUR);
    await s.clock.advance(LOAD_LIMITS.boundMs - 1_000);
    await listing;
    const held = await s.tracker.get(A);
    expect(held?.addedAt).toBe(s.start);
    expect(held?.lastCheckedAt).toBe(s.start);
    s.release();
    await s.clock.advance(0);
    expect((await s.memory.get(A))?.addedAt).toBe(s.start);
    expect((await s.tracker.get(A))?.addedAt).toBe(s.start);
    s.tracker.stop();
  });

  it('a track of another intent while the rebase write hangs is stored at once, and the late write leaves it alone', async () => {
    const s = await hungRebase([A]);
    const listing = s.tracker.list();
    await s.clock.advance(LOAD_LIMITS.boundMs);
    await listing;
    const at = s.clock.now();
    expect((await s.tracker.track(B)).added).toBe(true);
    s.release();
    await s.clock.advance(0);
    expect((await s.memory.get(B))?.addedAt).toBe(at);
    expect((await s.memory.get(A))?.addedAt).toBe(s.start);
    expect((await s.tracker.list()).map((t) => t.intentId).sort()).toEqual([A, B].sort());
    s.tracker.stop();
  });
});

describe('a slow read and a rebase write that never answers', () => {
  it('the intents answer 1.5 s in and the rebase write never does: the load still resolves at its 2 s bound, not 2 s after the read', async () => {
    const clock = new EventClock();
    const start = clock.now();
    const memory = new MemoryStore();
    await memory.put(trackedRecord(A, { addedAt: start + HOUR, lastCheckedAt: start + HOUR }));
    const read = deferred<TrackedIntent[]>();
    const store = Object.assign(memory, {
      list: () => read.promise,
      update: () => new Promise<never>(() => {}),
    });
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    let resolvedAt: number | undefined;
    void tracker.list().then(() => (resolvedAt = clock.monotonic()));
    const t0 = clock.monotonic();
    await clock.advance(1_500);
    read.resolve([trackedRecord(A, { addedAt: start + HOUR, lastCheckedAt: start + HOUR })]);
    await clock.advance(LOAD_LIMITS.boundMs - 1_500);
    // What the gate, the badge and a look-up wait on a store whose writes never answer: the load's bound.
    await clock.advance(0);
    expect(resolvedAt).toBeDefined();
    expect((resolvedAt as number) - t0).toBeLessThanOrEqual(LOAD_LIMITS.boundMs);
    // Moved back so that the latest time read is the engine's start (an earlier life's times precede this life; the
    // read's answer came 1.5 s later), held in memory.
    expect((await tracker.get(A))?.addedAt).toBe(start);
    tracker.stop();
  });
});

describe('a second worker life and what the first left', () => {
  it('the first life’s late rebase write lands between this life’s read and its own rebase: this life still uses times no later than now', async () => {
    const clock = new EventClock();
    const start = clock.now();
    const memory = new MemoryStore();
    const ahead = trackedRecord(A, { addedAt: start + HOUR, lastCheckedAt: start + HOUR, nextCheckAt: start + HOUR + MINUTE });
    await memory.put(ahead);
    // The first life moved A back (its clock went back by the same hour) but its transaction commits only now,
    // after this life read the store and before this life's own rebase transaction runs.
    const realUpdate = memory.update.bind(memory);
    const store = Object.assign(memory, {
      update: async (id: string, fn: Fn) => {
        memory.map.set(A, { ...ahead, addedAt: start, lastCheckedAt: start, nextCheckAt: start + MINUTE });
        return realUpdate(id, fn);
      },
    });
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    await tracker.list();
    expect((await memory.get(A))?.addedAt).toBe(start);
    // The record this life tracks must not lie an hour in its future: it would not be asked for an hour.
    const held = await tracker.get(A);
    expect(held?.addedAt).toBeLessThanOrEqual(start);
    expect(held?.nextCheckAt).toBeLessThanOrEqual(start + MINUTE);
    tracker.stop();
  });

  it('the first life’s hung write never landed: the second life moves the record back once', async () => {
    const s = await hungRebase([A]);
    const listing = s.tracker.list();
    await s.clock.advance(LOAD_LIMITS.boundMs);
    await listing;
    s.tracker.stop();
    // The worker dies; its transaction is lost. The next life reads the store as the first one found it.
    const memory2 = new MemoryStore();
    for (const t of s.memory.map.values()) await memory2.put(t);
    const second = new Tracker({
      store: memory2,
      stateStore: new MemoryStateStore(),
      clock: s.clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    await second.list();
    const now = s.clock.now();
    expect((await memory2.get(A))?.addedAt).toBe(now);
    expect((await second.get(A))?.addedAt).toBe(now);
    second.stop();
  });
});

describe('the kept pause’s late rebase write', () => {
  // A rebase write that hangs past the load's bound and commits after the pause ended (`ended()` stored the state
  // without it) must not leave the ended pause in the store for the next worker life (`TrackerPause.#save` writes the
  // state again when an older write completes after a later one).
  it('the pause’s rebase write lands after the pause ended and was written: the store does not hold the ended pause again', async () => {
    const clock = new EventClock();
    const start = clock.now();
    const states = new MemoryStateStore();
    // A previous worker, its clock an hour ahead, kept a 2-minute Retry-After pause it had just begun.
    states.state = { pausedAt: start + HOUR, pausedUntil: start + HOUR + 2 * MINUTE, pauseServedMs: 0 };
    const first = deferred<void>();
    let sets = 0;
    const stateStore = Object.assign(states, {
      // The first write (the load's rebase of the pause) commits only when released, with the state it was given.
      set: async (state: TrackerState) => {
        if (sets++ === 0) await first.promise;
        states.state = state;
      },
    });
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    const listing = tracker.list();
    await clock.advance(LOAD_LIMITS.boundMs);
    await listing;
    await tracker.resume();
    await clock.advance(3 * MINUTE);
    expect(tracker.state.pausedUntil).toBeUndefined();
    expect(states.state?.pausedUntil).toBeUndefined();
    first.resolve();
    await clock.advance(0);
    tracker.stop();
    // The next life must not hold a pause that ended.
    const next = new Tracker({
      store: new MemoryStore(),
      stateStore: states,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    await next.list();
    expect(next.state.pausedUntil).toBeUndefined();
    next.stop();
  });
});
