/**
 * The NotFound grace as served time (lib/tracker/not-found-grace.ts, `failed` in lib/tracker/transitions.ts): counted
 * on the steady clock of each worker life and kept in the record, never read off the wall clock across lives; an
 * import's grace counts from the import.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { graceServed } from '@/lib/tracker/not-found-grace';
import { entryRecord } from '@/lib/tracker/track-many';
import { clampTimes } from '@/lib/tracker/tracker-time';
import { type Failure, failed, graceKept, retried, tracked } from '@/lib/tracker/transitions';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import { trackedRecord } from './fakes';

const ID = `0x${'1'.repeat(64)}`;
const NOW = 1_800_000_000_000;
const MIN = 60_000;
const GRACE = 10 * MIN;
const notFound: Failure = { notFound: true, kind: 'service', message: 'NotFound', retryAfterMs: 0, random: 0.5 };

/** Answers NotFound to every try of `t`, each when its back-off ends, in one life started at `life`, from `from` to `until`. */
function tries(t: TrackedIntent, life: number, from: number, until: number): { t: TrackedIntent; at: number } {
  let now = from;
  let cur = t;
  while (now <= until) {
    const next = failed(cur, notFound, now, DEFAULT_TUNING, life);
    if (!next) throw new Error('nothing written');
    cur = next;
    if (cur.phase !== 'tracking') return { t: cur, at: now };
    now = cur.retry!.nextAt;
  }
  return { t: cur, at: now };
}

describe('the NotFound grace, served on the steady clock', () => {
  it('one life: not found after exactly 10 minutes of asking, the last try at the end of the grace', () => {
    const added = tracked(undefined, ID, NOW)!;
    const { t, at } = tries(added, NOW - 1_000, NOW + 10, NOW + 20 * MIN);
    expect(t.phase).toBe('not-found');
    expect(at).toBe(NOW + GRACE);
    expect(t.notFoundGrace).toEqual({ servedMs: GRACE, at: NOW + GRACE, life: NOW - 1_000 });
  });

  it('a record from an earlier life whose addedAt reads 30 minutes ago (a clock jump, times moved back at load) is not marked on what it served', () => {
    // The earlier worker served 150 s of the grace; this one started 10 s ago. The wall clock says 30 min went by.
    const t = trackedRecord(ID, {
      addedAt: NOW - 30 * MIN,
      notFoundGrace: { servedMs: 150_000, at: NOW - 29 * MIN },
      retry: { attempt: 9, nextAt: NOW - 28 * MIN, at: NOW - 29 * MIN },
    });
    const next = failed(t, notFound, NOW, DEFAULT_TUNING, NOW - 10_000);
    expect(next?.phase).toBe('tracking');
    expect(next?.notFoundGrace).toEqual({ servedMs: 160_000, at: NOW, life: NOW - 10_000 });
    // It is marked once this life has served the rest: 440 s more.
    const { t: end, at } = tries(next!, NOW - 10_000, next!.retry!.nextAt, NOW + 20 * MIN);
    expect(end.phase).toBe('not-found');
    expect(at).toBe(NOW + 440_000);
  });

  it('time while no worker ran is not counted, and a jump of the wall clock between lives changes nothing', () => {
    const life1 = NOW - 1_000;
    const { t: mid } = tries(tracked(undefined, ID, NOW)!, life1, NOW + 10, NOW + 4 * MIN);
    const served1 = mid.notFoundGrace!.servedMs;
    expect(served1).toBeGreaterThan(3 * MIN);
    // The next worker starts with its clock an hour ahead (jump forward while none ran), or an hour behind
    // (times clamped at load to its start).
    for (const shift of [60 * MIN, -60 * MIN]) {
      const life2 = NOW + 5 * MIN + shift;
      const loaded = clampTimes(mid, life2, DEFAULT_TUNING.backoffCapMs);
      const { t, at } = tries(loaded, life2, life2 + 50, life2 + 30 * MIN);
      expect(t.phase).toBe('not-found');
      // Marked when this life has served the rest, whatever its wall clock reads.
      expect(at).toBe(life2 + GRACE - served1);
      expect(t.notFoundGrace!.servedMs).toBe(GRACE);
    }
  });

  it('graceServed: an earlier life counts nothing past its last answer; this life from its start; never negative', () => {
    const t = { addedAt: NOW - 5 * MIN, notFoundGrace: { servedMs: 60_000, at: NOW - 4 * MIN } };
    expect(graceServed(t, NOW, NOW - 30_000)).toBe(90_000);
    // Written earlier in this life: counted from there.
    expect(graceServed(t, NOW, NOW - 10 * MIN)).toBe(60_000 + 4 * MIN);
    // An earlier life's time ahead of now (a refused clamp): this life's 30 s, no more.
    expect(graceServed({ ...t, notFoundGrace: { servedMs: 60_000, at: NOW + MIN } }, NOW, NOW - 30_000)).toBe(90_000);
    // Written by an earlier life whose clock read ahead (a jump back within it), kept as it was by a refused write at
    // load: its time reads later than this life's start, yet this life has served all of its 30 s.
    const ahead = { addedAt: NOW - 5 * MIN, notFoundGrace: { servedMs: 60_000, at: NOW - 5_000, life: NOW - 20 * MIN } };
    expect(graceServed(ahead, NOW, NOW - 30_000)).toBe(90_000);
    // Written in this life: counted from there.
    expect(graceServed({ ...ahead, notFoundGrace: { ...ahead.notFoundGrace, life: NOW - 30_000 } }, NOW, NOW - 30_000)).toBe(65_000);
    // Never asked yet, added by an earlier life whose clock read ahead, its move back at load refused: from this
    // life's start, not from an addedAt in this clock's future.
    expect(graceServed({ addedAt: NOW + 10 * MIN }, NOW, NOW - 30_000)).toBe(30_000);
    // A record of an earlier version (no notFoundGrace): from addedAt, or this life's start.
    expect(graceServed({ addedAt: NOW - 5 * MIN }, NOW, NOW - 30_000)).toBe(30_000);
  });

  it("an imported intent: its grace counts from the import, whatever the other browser's addedAt says", () => {
    // Exported two days ago: not marked not found on the first NotFound after the import.
    const old = entryRecord(undefined, { intentId: ID, seed: { addedAt: NOW - 2 * 24 * 60 * MIN } }, NOW)!;
    expect(old.addedAt).toBe(NOW - 2 * 24 * 60 * MIN);
    expect(failed(old, notFound, NOW + 10, DEFAULT_TUNING, NOW - MIN)?.phase).toBe('tracking');
    // Exported on a clock an hour ahead of this one: its addedAt is not in this clock's future, and the grace ends
    // 10 minutes after the import, not an hour later.
    const ahead = entryRecord(undefined, { intentId: ID, seed: { addedAt: NOW + 60 * MIN } }, NOW)!;
    expect(ahead.addedAt).toBe(NOW);
    const { t, at } = tries(ahead, NOW - MIN, NOW + 10, NOW + 30 * MIN);
    expect(t.phase).toBe('not-found');
    expect(at).toBe(NOW + GRACE);
  });

  it('tracked again or retried after not-found: a whole new grace', () => {
    const gone = trackedRecord(ID, { phase: 'not-found', notFoundGrace: { servedMs: GRACE, at: NOW - MIN } });
    for (const again of [tracked(gone, ID, NOW), retried(gone, NOW)]) {
      expect(again?.notFoundGrace).toBeUndefined();
      expect(failed(again, notFound, NOW + 10, DEFAULT_TUNING, NOW - 5 * MIN)?.phase).toBe('tracking');
    }
  });

  it('graceKept: a Retry-After pause writes down what was served, so that a worker stopped in it loses only the time since', () => {
    const life1 = NOW - 1_000;
    const asked = failed(tracked(undefined, ID, NOW)!, notFound, NOW + 10, DEFAULT_TUNING, life1)!;
    // Paused for 8 minutes, checkpointed; the worker stops 5 s after the last checkpoint.
    const kept = graceKept(asked, NOW + 8 * MIN, life1)!;
    expect(kept.notFoundGrace).toEqual({ servedMs: 8 * MIN, at: NOW + 8 * MIN, life: life1 });
    const life2 = NOW + 9 * MIN;
    const { t, at } = tries(kept, life2, life2 + 10, life2 + 10 * MIN);
    expect(t.phase).toBe('not-found');
    expect(at).toBe(life2 + 2 * MIN);
    // Only an intent not known yet and tracked.
    expect(graceKept({ ...asked, phase: 'not-found' }, NOW + MIN, life1)).toBeUndefined();
    expect(graceKept(trackedRecord(ID, { receipt: { intentId: ID } as TrackedIntent['receipt'] }), NOW + MIN, life1)).toBeUndefined();
  });
});
