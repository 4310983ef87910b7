/**
 * Hostile tests of the tracker's bounded load (lib/tracker/load-bound.ts, lib/tracker/engine.ts `#loadForUser`),
 * written by a tester who did not write the code: a user's action and a look-up while the load's reads are slow, a
 * removal racing a late load, answers at the exact bound, wall-clock jumps during the wait, stop() during the wait.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { LOAD_LIMITS, ReadPendingError, USER_LOAD_WAIT_MS } from '@/lib/tracker/load-bound';
import { EventClock, RecordingNotifier, trackedRecord } from './fakes';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function outcome<T>(p: Promise<T>) {
  const out: { state: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = { state: 'pending' };
  p.then(
    (value) => Object.assign(out, { state: 'resolved', value }),
    (error) => Object.assign(out, { state: 'rejected', error }),
  );
  return out;
}

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

  // Defect (kept as it.fails): the load bounds its reads, but not the writes it makes before it resolves: the rebase of
  // times a previous worker left ahead (`Tracker.#rebase`, a clock gone back between lives) awaits `mirror.write`, and
  // the kept pause's rebase awaits the state's write. A write transaction that never completes (the cause the load's
  // bound names: "a transaction that never completes") leaves the load pending for good: every look-up and action of
  // the life waits for ever, and the worker's start gate (compose-tracking.ts, `tracker.list()`) never opens, so no
  // lane sends anything. A fix must bound or detach those writes without shifting the held record twice.
  it.fails('the load’s rebase write (times a clock gone back left ahead) never answers: a look-up is still answered or refused, not left waiting', async () => {
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
});
