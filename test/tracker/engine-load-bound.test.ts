/**
 * The tracker's load when an IndexedDB read never answers (docs/tracking.md "Faults"; lib/tracker/load-bound.ts), on
 * virtual time: the load fails at the bound as it does for a refused read (so the worker's start gate opens, or
 * waits for the kept hold), and the read's answer, whenever it comes, starts tracking without another call.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { LOAD_LIMITS, ReadPendingError, USER_LOAD_WAIT_MS } from '@/lib/tracker/load-bound';
import { deferred, EventClock, outcome, RecordingNotifier, receipt, ScriptedTransport, trackedRecord } from './fakes';

const ID = `0x${'7'.repeat(64)}`;

const executing = () => ({ intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: [], done: false });

describe('a load read that never answers', () => {
  it('the tracker state: the load fails at the bound, and tracking starts as soon as the state is read', async () => {
    const clock = new EventClock();
    const store = new MemoryStore();
    await store.put(trackedRecord(ID, { addedAt: clock.now() }));
    const stateRead = deferred<TrackerState | undefined>();
    const stateStore = Object.assign(new MemoryStateStore(), { get: () => stateRead.promise });
    const transport = new ScriptedTransport();
    for (let i = 0; i < 20; i++) transport.script(ID, executing());
    const tracker = new Tracker({ store, stateStore, clock, notifier: new RecordingNotifier(), transport: async () => transport });
    const listed = outcome(tracker.list());
    await clock.advance(LOAD_LIMITS.boundMs - 1);
    expect(listed.state).toBe('pending');
    await clock.advance(1);
    expect(listed.state).toBe('rejected');
    expect(listed.error).toBeInstanceOf(ReadPendingError);
    // Woken again (an alarm): the load is tried again and fails at the bound again; nothing is sent.
    void tracker.resume().catch(() => {});
    await clock.advance(10_000);
    expect(transport.calls).toHaveLength(0);
    // The read answers late (no hold kept): tracking starts without anyone asking again.
    stateRead.resolve(undefined);
    await clock.advance(2_000);
    expect(transport.callsFor(ID).length).toBeGreaterThan(0);
    expect((await tracker.list()).map((t) => t.intentId)).toEqual([ID]);
    tracker.stop();
  });

  it('the intents, with a kept hold: at the bound the hold is handed to the listeners (the budget), then tracking starts when the intents answer', async () => {
    const clock = new EventClock();
    const intentsRead = deferred<TrackedIntent[]>();
    const store = Object.assign(new MemoryStore(), { list: () => intentsRead.promise });
    const stateStore = new MemoryStateStore();
    const pausedUntil = clock.now() + 30_000;
    await stateStore.set({ pausedAt: clock.now(), pausedUntil, pauseServedMs: 0, pauseReason: 'RateLimited' });
    const told: TrackerState[] = [];
    const transport = new ScriptedTransport();
    for (let i = 0; i < 20; i++) transport.script(ID, executing());
    const tracker = new Tracker({
      store,
      stateStore,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => transport,
      onStateChange: (s) => told.push(s),
    });
    const listed = outcome(tracker.list());
    await clock.advance(LOAD_LIMITS.boundMs);
    expect(listed.state).toBe('rejected');
    // The kept hold, held for sure from this worker's start (none of it was served: docs/time.md), is told.
    expect(told).toHaveLength(1);
    const heldUntil = told[0]!.pausedUntil!;
    expect(heldUntil).toBeGreaterThanOrEqual(pausedUntil);
    // The intents answer 10 s in; nothing is sent inside the kept hold, and the intent is asked once it ends.
    await clock.advance(8_000);
    intentsRead.resolve([trackedRecord(ID, { addedAt: clock.now() })]);
    await clock.advance(heldUntil - clock.now() - 1);
    expect(transport.calls).toHaveLength(0);
    await clock.advance(3_000);
    expect(transport.callsFor(ID).length).toBeGreaterThan(0);
    tracker.stop();
  });

  it('a track asked while the intents never answer is refused after the user’s wait (longer than the bound), writing nothing; the late answer keeps every intent tracked before, once', async () => {
    const clock = new EventClock();
    const NEW = `0x${'8'.repeat(64)}`;
    const memory = new MemoryStore();
    await memory.put(trackedRecord(ID, { addedAt: clock.now() }));
    const intentsRead = deferred<TrackedIntent[]>();
    let lists = 0;
    const store = Object.assign(memory, {
      list: () => {
        lists++;
        return intentsRead.promise;
      },
    });
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    const tracked = outcome(tracker.track(NEW));
    // The user's own action waits longer than the start gate's bound for a read that may be only slow...
    await clock.advance(LOAD_LIMITS.boundMs);
    expect(tracked.state).toBe('pending');
    // ...and is then told (the popup says so) rather than left waiting for ever; nothing was written.
    await clock.advance(USER_LOAD_WAIT_MS - LOAD_LIMITS.boundMs);
    expect(tracked.state).toBe('rejected');
    expect(tracked.error).toBeInstanceOf(ReadPendingError);
    expect(await memory.get(NEW)).toBeUndefined();
    // The read answers late with the store as it was: taken once, the intent tracked before kept, a track goes through.
    intentsRead.resolve([trackedRecord(ID, { addedAt: clock.now() })]);
    await clock.advance(0);
    expect((await tracker.list()).map((t) => t.intentId)).toEqual([ID]);
    expect((await tracker.track(NEW)).added).toBe(true);
    expect((await tracker.list()).map((t) => t.intentId).sort()).toEqual([ID, NEW].sort());
    expect(lists).toBe(1);
    tracker.stop();
  });

  it('a track asked while the intents read is only slow (5 s, beyond the start gate’s bound) is done once the read answers, not refused', async () => {
    const clock = new EventClock();
    const NEW = `0x${'6'.repeat(64)}`;
    const memory = new MemoryStore();
    await memory.put(trackedRecord(ID, { addedAt: clock.now() }));
    const intentsRead = deferred<TrackedIntent[]>();
    const store = Object.assign(memory, { list: () => intentsRead.promise });
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    const tracked = outcome(tracker.track(NEW));
    await clock.advance(5_000);
    expect(tracked.state).toBe('pending');
    intentsRead.resolve([trackedRecord(ID, { addedAt: clock.now() })]);
    await clock.advance(0);
    await clock.advance(0);
    expect(tracked.state).toBe('resolved');
    expect((await tracker.list()).map((t) => t.intentId).sort()).toEqual([ID, NEW].sort());
    tracker.stop();
  });

  it('the tracker state, slower than the bound, shows a kept hold: the hold is told as soon as the read answers', async () => {
    const clock = new EventClock();
    const stateRead = deferred<TrackerState | undefined>();
    const stateStore = Object.assign(new MemoryStateStore(), { get: () => stateRead.promise });
    const told: TrackerState[] = [];
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
      onStateChange: (s) => told.push(s),
    });
    void tracker.list().catch(() => {});
    await clock.advance(5_000);
    expect(told).toHaveLength(0);
    const pausedUntil = clock.now() + 40_000;
    stateRead.resolve({ pausedAt: clock.now() - 20_000, pausedUntil, pauseServedMs: 0, pauseReason: 'RateLimited' });
    await clock.advance(0);
    expect(told).toHaveLength(1);
    expect(told[0]!.pausedUntil).toBeGreaterThan(clock.now());
    tracker.stop();
  });

  it('a Retry-After while the state read is slow: the pause is kept over the state as read, not dropped at the bound', async () => {
    const clock = new EventClock();
    const stateRead = deferred<TrackerState | undefined>();
    const stateStore = Object.assign(new MemoryStateStore(), { get: () => stateRead.promise });
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    const held = outcome(tracker.holdOff(60_000));
    await clock.advance(5 * LOAD_LIMITS.boundMs);
    expect(held.state).toBe('pending');
    stateRead.resolve({});
    await clock.advance(0);
    expect(held.state).toBe('resolved');
    expect(stateStore.state?.pausedUntil).toBe(clock.now() + 60_000);
    tracker.stop();
  });
});
