/**
 * The oracle's model of a 429 hold kept across worker lives (test/world/kept-holds.ts), on hand-made lives: what the
 * tracker state can have written down (docs/time.md "The Retry-After pause across workers") decides what a next
 * worker may hold again.
 */
import { describe, expect, it } from 'vitest';
import { keptHolds, steppedBackHolds } from './kept-holds';
import type { WireEntry } from './network';

/** A 429 answered at `at` (ms) asking for `holdMs`. */
const hold = (at: number, holdMs: number): WireEntry => ({ entry: { op: 'history', start: at, end: at, outcome: 'error' }, holdMs });
const S = 1_000;

describe('keptHolds', () => {
  it('a hold served whole by its worker, its end written, is kept by no later worker', () => {
    expect(keptHolds([hold(0, 30 * S)], [{ at: 40 * S, kind: 'kill', restartAt: 50 * S }])).toEqual([]);
  });

  it('a death inside the hold: the next worker holds what was left, plus the 10 s a life may leave unwritten', () => {
    expect(keptHolds([hold(0, 30 * S)], [{ at: 25 * S, kind: 'kill', restartAt: 100 * S }])).toEqual([
      { from: 100 * S, to: 115 * S, why: 'a 429 hold kept by the next worker' },
    ]);
  });

  it('a death in the very write of the end (at the instant it was served whole) leaves it held again (seed 20261129 run 29210)', () => {
    const kept = keptHolds([hold(0, 30 * S)], [{ at: 30 * S, kind: 'kill', restartAt: 40 * S }]);
    expect(kept).toEqual([{ from: 40 * S, to: 50 * S, why: 'a 429 hold kept by the next worker' }]);
  });

  it('while the tracker state cannot be written, what is served is not written either (seed 20261129 runs 10396, 24356)', () => {
    // A 120 s hold (its minute held for sure) served 86 s while writes were refused from 30 s on, then the browser
    // closed: the state says 30 s served, so the next worker holds the other 30 s (and 10 s of checkpoint lag).
    const deaths = [{ at: 86 * S, kind: 'browser-restart', restartAt: 400 * S }];
    expect(keptHolds([hold(0, 120 * S)], deaths, [{ from: 30 * S, to: 200 * S }])).toEqual([
      { from: 400 * S, to: 440 * S, why: 'a 429 hold kept by the next worker' },
    ]);
    // The end of a 3 s hold refused, the worker gone before the store accepted: held again at the next start (what
    // it served before the refusal, 1 s, may be written: 2 s left, and 10 s of checkpoint lag).
    expect(keptHolds([hold(0, 3 * S)], [{ at: 50 * S, kind: 'kill', restartAt: 400 * S }], [{ from: 1 * S, to: 100 * S }])).toEqual([
      { from: 400 * S, to: 412 * S, why: 'a 429 hold kept by the next worker' },
    ]);
  });

  it('once the store accepts again, the worker writes the end within 10 s: no later worker holds it', () => {
    expect(keptHolds([hold(0, 3 * S)], [{ at: 120 * S, kind: 'kill', restartAt: 400 * S }], [{ from: 1 * S, to: 100 * S }])).toEqual([]);
  });
});

describe('steppedBackHolds', () => {
  // The user's wall clock minus the true time over the run, as test/world/time.ts keeps it: +120 s, then back 600 s
  // at 100 s (seed 20261201 runs 4675, 18570: NTP inside the worker's life, 4 s before the browser closed).
  const skewAt = (t: number) => (t < 100 * S ? 120 * S : -480 * S);
  const maxSkew = (from: number, to: number) => Math.max(skewAt(from), skewAt(to));
  // A 600 s hold from 0; the browser closes at 104 s and starts at 300 s with the clock set right (skew 0) meanwhile.
  const closed = [{ at: 104 * S, kind: 'browser-restart', skew: -480 * S, restartAt: 300 * S, restartSkew: 0 }];

  it('a step back after the dying worker last wrote the hold lengthens it by the step from that write (+120 s to 0)', () => {
    expect(steppedBackHolds([hold(0, 600 * S)], closed, { maxSkew })).toEqual([
      { from: 300 * S, to: 720 * S, why: 'a kept hold lengthened by a clock step back after its last write' },
    ]);
  });

  it('a step back written down since (more than 10 s before the death) lengthens nothing', () => {
    const later = [{ ...closed[0]!, at: 111 * S }];
    expect(steppedBackHolds([hold(0, 600 * S)], later, { maxSkew })).toEqual([]);
  });

  it('while the tracker state cannot be written, the last write is before the refusal began', () => {
    const later = [{ ...closed[0]!, at: 150 * S }];
    expect(steppedBackHolds([hold(0, 600 * S)], later, { maxSkew, refused: [{ from: 95 * S, to: 200 * S }] })).toEqual([
      { from: 300 * S, to: 720 * S, why: 'a kept hold lengthened by a clock step back after its last write' },
    ]);
    // A refusal that began after the step: the step was written before it.
    expect(steppedBackHolds([hold(0, 600 * S)], later, { maxSkew, refused: [{ from: 120 * S, to: 200 * S }] })).toEqual([]);
  });

  it('never past the hold’s own length from the restart; a 429 after the step was read on the stepped clock', () => {
    // A 100 s hold from 95 s: ends at 195 s, lengthened by 120 s to 315 s; a restart at 200 s holds at most 100 s.
    expect(steppedBackHolds([hold(95 * S, 100 * S)], closed, { maxSkew })).toEqual([
      { from: 300 * S, to: 315 * S, why: 'a kept hold lengthened by a clock step back after its last write' },
    ]);
    const early = [{ ...closed[0]!, restartAt: 200 * S }];
    expect(steppedBackHolds([hold(95 * S, 100 * S)], early, { maxSkew })).toEqual([
      { from: 200 * S, to: 300 * S, why: 'a kept hold lengthened by a clock step back after its last write' },
    ]);
    // The 429 came after the step (at 101 s): its hold was written at -480 s; the clock set right is a step forward.
    expect(steppedBackHolds([hold(101 * S, 600 * S)], closed, { maxSkew })).toEqual([]);
  });
});
