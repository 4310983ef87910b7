/**
 * The tracker load's bounded read (lib/tracker/load-bound.ts) on virtual time: an attempt waits at most the bound,
 * the read itself goes on and its answer is taken once whenever it comes, a refused read is made again, a read lost
 * for longer than the slowest read measured gets one fresh read beside it, and no more ever pile up.
 */
import { describe, expect, it } from 'vitest';
import { BoundedRead, LOAD_LIMITS, type LoadLimits, ReadPendingError } from '@/lib/tracker/load-bound';
import { EventClock } from './fakes';

/** A read the test answers by hand: every call is a new pending read. */
function manualReads<T>() {
  const calls: Array<{ resolve: (v: T) => void; reject: (e: unknown) => void }> = [];
  const read = () =>
    new Promise<T>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, read };
}

/** The outcome of `p` so far: 'pending' until it settles. */
function track<T>(p: Promise<T>) {
  const out: { state: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = { state: 'pending' };
  p.then(
    (value) => Object.assign(out, { state: 'resolved', value }),
    (error) => Object.assign(out, { state: 'rejected', error }),
  );
  return out;
}

const LIMITS: LoadLimits = { boundMs: 2_000, renewMs: 60_000, maxPending: 2 };

function setup(limits = LIMITS) {
  const clock = new EventClock();
  const reads = manualReads<string>();
  const applied: string[] = [];
  let late = 0;
  const bounded = new BoundedRead(reads.read, clock, { apply: (v) => applied.push(v), onLate: () => late++ }, limits);
  return { clock, reads, applied, late: () => late, bounded };
}

describe('BoundedRead', () => {
  it('a read that answers within the bound: the attempt has its value, applied once, and no timer is left', async () => {
    const s = setup();
    const first = track(s.bounded.attempt());
    await s.clock.advance(500);
    s.reads.calls[0]!.resolve('stored');
    await s.clock.advance(0);
    expect(first).toMatchObject({ state: 'resolved', value: 'stored' });
    expect(s.clock.timers).toHaveLength(0);
    expect(await s.bounded.attempt()).toBe('stored');
    expect(s.reads.calls).toHaveLength(1);
    expect(s.applied).toEqual(['stored']);
    expect(s.late()).toBe(0);
  });

  it('a read still pending at the bound fails the attempt then, not before; the next attempt joins it and its late answer is used', async () => {
    const s = setup();
    const first = track(s.bounded.attempt());
    await s.clock.advance(LIMITS.boundMs - 1);
    expect(first.state).toBe('pending');
    await s.clock.advance(1);
    expect(first.state).toBe('rejected');
    expect(first.error).toBeInstanceOf(ReadPendingError);
    // Tried again: the same read is waited for, none is added.
    const second = track(s.bounded.attempt());
    await s.clock.advance(LIMITS.boundMs);
    expect(second.state).toBe('rejected');
    expect(s.reads.calls).toHaveLength(1);
    // The read answers 20 s after it started, with no attempt waiting: taken once, and the engine is told.
    await s.clock.advance(16_000);
    s.reads.calls[0]!.resolve('slow');
    await s.clock.advance(0);
    expect(s.applied).toEqual(['slow']);
    expect(s.late()).toBe(1);
    expect(await s.bounded.attempt()).toBe('slow');
    expect(s.reads.calls).toHaveLength(1);
  });

  it('a refused read fails the attempt with its error, and the next attempt reads again', async () => {
    const s = setup();
    const first = track(s.bounded.attempt());
    s.reads.calls[0]!.reject(new DOMException('refused', 'UnknownError'));
    await s.clock.advance(0);
    expect(first.state).toBe('rejected');
    expect((first.error as DOMException).name).toBe('UnknownError');
    const second = track(s.bounded.attempt());
    expect(s.reads.calls).toHaveLength(2);
    s.reads.calls[1]!.resolve('stored');
    await s.clock.advance(0);
    expect(second).toMatchObject({ state: 'resolved', value: 'stored' });
    expect(s.applied).toEqual(['stored']);
  });

  it('a read lost past renewMs gets one fresh read beside it, never more; the first answer of either is taken', async () => {
    const s = setup();
    void s.bounded.attempt().catch(() => {});
    // Attempts every 10 s while the read never answers: one read until renewMs, then one more, then no more.
    for (let t = 10_000; t <= LIMITS.renewMs - 10_000; t += 10_000) {
      await s.clock.advance(10_000);
      void s.bounded.attempt().catch(() => {});
    }
    await s.clock.advance(10_000);
    expect(s.reads.calls).toHaveLength(1);
    void s.bounded.attempt().catch(() => {});
    expect(s.reads.calls).toHaveLength(2);
    for (let i = 0; i < 20; i++) {
      await s.clock.advance(LIMITS.renewMs);
      void s.bounded.attempt().catch(() => {});
    }
    expect(s.reads.calls).toHaveLength(LIMITS.maxPending);
    expect(s.bounded.pending).toBe(LIMITS.maxPending);
    // The lost read answers first: its value is taken, the fresh one's later answer is not applied over it.
    const waiting = track(s.bounded.attempt());
    s.reads.calls[0]!.resolve('lost');
    await s.clock.advance(0);
    expect(waiting).toMatchObject({ state: 'resolved', value: 'lost' });
    s.reads.calls[1]!.resolve('fresh');
    await s.clock.advance(0);
    expect(s.applied).toEqual(['lost']);
    expect(s.bounded.pending).toBe(0);
  });

  it('a refused fresh read fails the attempt even while the lost one is still pending', async () => {
    const s = setup();
    void s.bounded.attempt().catch(() => {});
    await s.clock.advance(LIMITS.renewMs);
    const attempt = track(s.bounded.attempt());
    s.reads.calls[1]!.reject(new Error('refused'));
    await s.clock.advance(0);
    expect(attempt.state).toBe('rejected');
    expect((attempt.error as Error).message).toBe('refused');
    expect(s.bounded.pending).toBe(1);
  });

  it('attempt(Infinity) sets no timer and waits for the answer however slow', async () => {
    const s = setup();
    const unbounded = track(s.bounded.attempt(Number.POSITIVE_INFINITY));
    expect(s.clock.timers).toHaveLength(0);
    await s.clock.advance(48_000);
    expect(unbounded.state).toBe('pending');
    s.reads.calls[0]!.resolve('slow');
    await s.clock.advance(0);
    expect(unbounded).toMatchObject({ state: 'resolved', value: 'slow' });
  });

  it('the defaults: a bound far under, a renewal above, the slowest read measured (16–48 s)', () => {
    expect(LOAD_LIMITS.boundMs).toBeLessThan(16_000);
    expect(LOAD_LIMITS.renewMs).toBeGreaterThan(48_000);
    expect(LOAD_LIMITS.maxPending).toBeGreaterThanOrEqual(2);
  });
});
