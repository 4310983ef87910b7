/**
 * The load's writes (lib/tracker/load-rebase.ts, `settledWithin` in lib/tracker/load-bound.ts, `sameTimes` in
 * lib/tracker/tracker-time.ts): a write that never completes is not waited for past the bound, and the moved times are
 * held in memory without ever being moved twice or put back over a later write.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { LOAD_LIMITS, settledWithin } from '@/lib/tracker/load-bound';
import { sameTimes, shiftTimes } from '@/lib/tracker/tracker-time';
import { EventClock, RecordingNotifier, trackedRecord } from './fakes';

const A = `0x${'a'.repeat(64)}`;
const HOUR = 3_600_000;

describe('settledWithin', () => {
  it('is true for a write that answers or is refused within the bound, false for one still pending at the bound; never rejects', async () => {
    const clock = new EventClock();
    const answered = settledWithin(Promise.resolve(), clock, 1_000);
    const refused = settledWithin(Promise.reject(new Error('quota')), clock, 1_000);
    const stuck = settledWithin(new Promise(() => {}), clock, 1_000);
    let stuckResult: boolean | undefined;
    void stuck.then((v) => (stuckResult = v));
    await clock.advance(999);
    expect(await answered).toBe(true);
    expect(await refused).toBe(true);
    expect(stuckResult).toBeUndefined();
    await clock.advance(1);
    expect(stuckResult).toBe(false);
  });

  it('leaves no timer behind once the write answered', async () => {
    const clock = new EventClock();
    await settledWithin(Promise.resolve(), clock, 1_000);
    expect(clock.timers).toHaveLength(0);
  });
});

describe('sameTimes', () => {
  const read = trackedRecord(A, {
    addedAt: 10_000,
    lastCheckedAt: 20_000,
    nextCheckAt: 30_000,
    retry: { attempt: 1, nextAt: 25_000, at: 20_000 },
    lastError: { kind: 'network', message: 'offline', at: 20_000 },
  });

  it('tells the record as read from the same record with its times moved, and from one moved by a single field', () => {
    expect(sameTimes(read, { ...read, estimatedDuration: 60 })).toBe(true);
    expect(sameTimes(read, shiftTimes(read, 1))).toBe(false);
    expect(sameTimes(read, { ...read, retry: { attempt: 1, nextAt: 25_000 } })).toBe(false);
    expect(sameTimes(read, { ...read, lastError: { kind: 'network', message: 'offline', at: 19_999 } })).toBe(false);
  });

  it('a damaged time (NaN) matches itself, so a damaged record is still moved', () => {
    const damaged = { ...read, lastCheckedAt: Number.NaN };
    expect(sameTimes(damaged, { ...damaged })).toBe(true);
  });
});

describe('the load’s rebase write refused after the bound', () => {
  it('a later write stored the held record first: the late refusal does not put the older held copy back', async () => {
    const clock = new EventClock();
    const start = clock.now();
    const memory = new MemoryStore();
    await memory.put(trackedRecord(A, { addedAt: start + HOUR, lastCheckedAt: start + HOUR }));
    const realUpdate = memory.update.bind(memory);
    let refuse!: (err: Error) => void;
    let updates = 0;
    const store = Object.assign(memory, {
      update: (id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) =>
        updates++ === 0 ? new Promise<never>((_, reject) => (refuse = reject)) : realUpdate(id, fn),
    });
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => undefined,
    });
    const listing = tracker.list();
    await clock.advance(LOAD_LIMITS.boundMs);
    await listing;
    await tracker.setBaseline(A, { estimatedDuration: 120 });
    refuse(new Error('transaction aborted'));
    await clock.advance(0);
    const held = await tracker.get(A);
    expect(held?.estimatedDuration).toBe(120);
    expect(held?.addedAt).toBe(start);
    // The record's next write starts from what the store and the mirror agree on, the baseline kept.
    await tracker.setBaseline(A, { routeDuration: 90 });
    expect((await memory.get(A))?.estimatedDuration).toBe(120);
    expect((await memory.get(A))?.addedAt).toBe(start);
    tracker.stop();
  });
});
