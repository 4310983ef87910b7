/**
 * Hostile tests of the tracker's bounded load (lib/tracker/load-bound.ts, lib/tracker/engine.ts `#loadForUser`),
 * written by a tester who did not write the code: a user's action and a look-up while the load's reads are slow, a
 * removal racing a late load, answers at the exact bound, wall-clock jumps during the wait, stop() during the wait.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { PAUSE_CHECKPOINT_MS, PAUSE_HONOURED_MS, Tracker } from '@/lib/tracker/engine';
import { LOAD_LIMITS, ReadPendingError, USER_LOAD_WAIT_MS } from '@/lib/tracker/load-bound';
import { deferred, EventClock, hungFirstUpdate, outcome, RecordingNotifier, trackedRecord } from './fakes';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A tracker whose intents read (`store.list`) answers only when the test says so. */
async function slowIntents(stored: string[]) {
  const clock = new EventClock();
  const memory = new MemoryStore();
  for (const id of stored) await memory.put(trackedRecord(id, { addedAt: clock.now() }));
  const read = deferred<TrackedIntent[]>();
  let lists = 0;
  const store = Object.assign(memory, {
    list: () => {
      lists++;
      return read.promise;
    },
  });
  const tracker = new Tracker({
    store,
    stateStore: new MemoryStateStore(),
    clock,
    notifier: new RecordingNotifier(),
    transport: async () => undefined,
  });
  const answer = () => read.resolve(stored.map((id) => trackedRecord(id, { addedAt: clock.now() })));
  return { clock, memory, tracker, answer, lists: () => lists };
}

describe('the bounded load against hostile timing', () => {
  it('a look-up asked after a removal, both before the load answered, does not see the removed intent', async () => {
    const s = await slowIntents([A, B]);
    const removing = outcome(s.tracker.remove(A));
    const got = outcome(s.tracker.get(A));
    const listed = outcome(s.tracker.list());
    await s.clock.advance(1_000);
    s.answer();
    await s.clock.advance(0);
    await s.clock.advance(0);
    expect(removing.state).toBe('resolved');
    // The user removed A, then the popup asked for it: it must not be shown as still tracked.
    expect(got.state).toBe('resolved');
    expect(got.value).toBeUndefined();
    expect(listed.state).toBe('resolved');
    expect((listed.value as TrackedIntent[]).map((t) => t.intentId)).toEqual([B]);
    s.tracker.stop();
  });

  it('a removal racing a late load: the late list never brings the removed intent back, in memory or in the store', async () => {
    const s = await slowIntents([A, B]);
    const removing = outcome(s.tracker.remove(A));
    await s.clock.advance(5_000);
    expect(removing.state).toBe('pending');
    s.answer();
    await s.clock.advance(0);
    await s.clock.advance(0);
    expect(removing.state).toBe('resolved');
    expect(await s.memory.get(A)).toBeUndefined();
    expect((await s.tracker.list()).map((t) => t.intentId)).toEqual([B]);
    expect(s.lists()).toBe(1);
    s.tracker.stop();
  });

  it('the intents answer at the very instant of the user’s wait: the action is done, not refused', async () => {
    const s = await slowIntents([A]);
    const tracked = outcome(s.tracker.track(B));
    await s.clock.advance(USER_LOAD_WAIT_MS - 1);
    expect(tracked.state).toBe('pending');
    s.answer();
    await s.clock.advance(1);
    await s.clock.advance(0);
    expect(tracked.state).toBe('resolved');
    expect(await s.memory.get(B)).toBeDefined();
    s.tracker.stop();
  });

  it('a wall clock jumping forward an hour while the user waits neither shortens nor stretches the wait', async () => {
    const s = await slowIntents([A]);
    const tracked = outcome(s.tracker.track(B));
    await s.clock.advance(1_000);
    s.clock.jumpWall(3_600_000);
    await s.clock.advance(LOAD_LIMITS.boundMs * 2);
    expect(tracked.state).toBe('pending');
    s.clock.jumpWall(-7_200_000);
    await s.clock.advance(USER_LOAD_WAIT_MS - 1_000 - LOAD_LIMITS.boundMs * 2);
    expect(tracked.state).toBe('rejected');
    expect(tracked.error).toBeInstanceOf(ReadPendingError);
    s.tracker.stop();
  });

  it('two actions and a resume waiting on one never-answering read make one read, and at most two after the renewal time', async () => {
    const s = await slowIntents([A]);
    const actions = [
      outcome(s.tracker.track(B)),
      outcome(s.tracker.remove(A)),
      outcome(s.tracker.retryNow()),
      outcome(s.tracker.refresh(A)),
    ];
    void s.tracker.resume().catch(() => {});
    await s.clock.advance(USER_LOAD_WAIT_MS);
    for (const a of actions) expect(a.state).toBe('rejected');
    expect(s.lists()).toBe(1);
    for (let i = 0; i < 100; i++) void s.tracker.list().catch(() => {});
    await s.clock.advance(LOAD_LIMITS.renewMs * 3);
    for (let i = 0; i < 100; i++) void s.tracker.list().catch(() => {});
    await s.clock.advance(LOAD_LIMITS.boundMs);
    expect(s.lists()).toBeLessThanOrEqual(LOAD_LIMITS.maxPending);
    s.tracker.stop();
  });

  it('the state read refused once, then answering: the next action goes through', async () => {
    const clock = new EventClock();
    const states = new MemoryStateStore();
    let refuse = true;
    const stateStore = Object.assign(states, {
      get: async (): Promise<TrackerState | undefined> => {
        if (refuse) throw new Error('refused');
        return undefined;
      },
    });
    const memory = new MemoryStore();
    const tracker = new Tracker({ store: memory, stateStore, clock, notifier: new RecordingNotifier(), transport: async () => undefined });
    await expect(tracker.track(A)).rejects.toThrow('refused');
    refuse = false;
    expect((await tracker.track(A)).added).toBe(true);
    expect(await memory.get(A)).toBeDefined();
    tracker.stop();
  });
});

describe('the load’s writes and a stopped tracker', () => {
  it('stopped while a track waits for the load: when the read answers nothing is sent', async () => {
    const clock = new EventClock();
    const memory = new MemoryStore();
    await memory.put(trackedRecord(A, { addedAt: clock.now() }));
    const read = deferred<TrackedIntent[]>();
    const store = Object.assign(memory, { list: () => read.promise });
    let sent = 0;
    const transport = {
      waitIntentReceipt: async () => {
        sent++;
        return new Promise<never>(() => {});
      },
      getIntentReceipt: async () => {
        sent++;
        return new Promise<never>(() => {});
      },
    };
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => transport,
    });
    void tracker.track(B).catch(() => {});
    await clock.advance(1_000);
    tracker.stop();
    read.resolve([trackedRecord(A, { addedAt: clock.now() })]);
    await clock.advance(60_000);
    expect(sent).toBe(0);
  });

  // The load's own writes (the times a clock gone back between lives left ahead, moved back: `Tracker.#rebase`,
  // lib/tracker/load-rebase.ts; the kept pause's rebase) are waited for at most the load's bound: a write transaction
  // that never completes must not leave the load, every look-up and the worker's start gate (compose-tracking.ts,
  // `tracker.list()`) waiting for the whole life. The moved times are held in memory and used at once, and the held
  // record is never moved twice: not when the stuck write lands late, nor when a later write stored it first.
  it('the load’s rebase write (times a clock gone back left ahead) never answers: a look-up is still answered or refused, not left waiting', async () => {
    const clock = new EventClock();
    const memory = new MemoryStore();
    // A previous worker's clock was an hour ahead: its times lie an hour in this one's future.
    await memory.put(trackedRecord(A, { addedAt: clock.now() + 3_600_000, lastCheckedAt: clock.now() + 3_600_000 }));
    const store = Object.assign(memory, { update: () => new Promise<never>(() => {}), updateMany: () => new Promise<never>(() => {}) });
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    const listed = outcome(tracker.list());
    await clock.advance(USER_LOAD_WAIT_MS + LOAD_LIMITS.boundMs);
    expect(listed.state).not.toBe('pending');
    tracker.stop();
  });

  /** A tracker over one record a previous worker wrote an hour ahead (its clock was), whose first `update` is stuck until released. */
  async function stuckRebase() {
    const clock = new EventClock();
    const start = clock.now();
    const memory = new MemoryStore();
    await memory.put(trackedRecord(A, { addedAt: start + HOUR, lastCheckedAt: start + HOUR }));
    // The first transaction (the load's rebase of A) runs only when released, on the store's copy as it is then.
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

  it('the stuck rebase write lands after the load resolved: the record is moved back by the hour once, in memory and in the store', async () => {
    const s = await stuckRebase();
    const listed = outcome(s.tracker.list());
    await s.clock.advance(LOAD_LIMITS.boundMs);
    expect(listed.state).toBe('resolved');
    // Held in memory and used at once: the hour the previous worker's clock was ahead is taken off.
    expect((await s.tracker.get(A))?.addedAt).toBe(s.start);
    s.release();
    await s.clock.advance(0);
    expect((await s.memory.get(A))?.addedAt).toBe(s.start);
    expect((await s.memory.get(A))?.lastCheckedAt).toBe(s.start);
    // The record's next write starts from the copy held: still moved once.
    await s.tracker.setBaseline(A, { estimatedDuration: 120 });
    expect((await s.memory.get(A))?.addedAt).toBe(s.start);
    expect((await s.tracker.get(A))?.addedAt).toBe(s.start);
    s.tracker.stop();
  });

  it('a later write stores the held record before the stuck rebase write lands: the late write does not move it a second time', async () => {
    const s = await stuckRebase();
    const listed = outcome(s.tracker.list());
    await s.clock.advance(LOAD_LIMITS.boundMs);
    expect(listed.state).toBe('resolved');
    // The next accepted write of A stores the moved times (the retry of the stuck one)...
    await s.tracker.setBaseline(A, { estimatedDuration: 120 });
    expect((await s.memory.get(A))?.addedAt).toBe(s.start);
    // ...and the stuck transaction, landing after it, finds them moved already.
    s.release();
    await s.clock.advance(0);
    const stored = await s.memory.get(A);
    expect(stored?.addedAt).toBe(s.start);
    expect(stored?.lastCheckedAt).toBe(s.start);
    expect(stored?.estimatedDuration).toBe(120);
    expect((await s.tracker.get(A))?.addedAt).toBe(s.start);
    s.tracker.stop();
  });

  it('the kept pause’s rebase write never answers: the load resolves with the pause moved back, and a later checkpoint stores it', async () => {
    const clock = new EventClock();
    const start = clock.now();
    const states = new MemoryStateStore();
    // A previous worker, its clock an hour ahead, kept a 5-minute Retry-After pause it had just begun.
    states.state = { pausedAt: start + HOUR, pausedUntil: start + HOUR + 5 * MINUTE, pauseServedMs: 0 };
    const realSet = states.set.bind(states);
    let sets = 0;
    const stateStore = Object.assign(states, {
      set: (state: TrackerState) => (sets++ === 0 ? new Promise<void>(() => {}) : realSet(state)),
    });
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    const listed = outcome(tracker.list());
    await clock.advance(LOAD_LIMITS.boundMs);
    expect(listed.state).toBe('resolved');
    expect(sets).toBe(1);
    // Moved back by the hour: held for sure at least a minute (or its length), never past its own 5 minutes from now.
    const until = tracker.state.pausedUntil as number;
    expect(until).toBeGreaterThanOrEqual(start + PAUSE_HONOURED_MS);
    expect(until).toBeLessThanOrEqual(start + 5 * MINUTE);
    // The state's next write (the pause's checkpoint) stores the moved pause, not the hour-ahead one.
    await tracker.resume();
    await clock.advance(PAUSE_CHECKPOINT_MS + 1_000);
    expect(sets).toBeGreaterThan(1);
    expect(states.state?.pausedUntil).toBeLessThanOrEqual(start + 5 * MINUTE);
    tracker.stop();
  });
});
