/**
 * The oracle's model of the worker's verdict clock (./verdict-clock.ts, docs/time.md "Who decides on it"): the lag a
 * `Date` lying behind adds while it is among the last 12, nothing decided with fewer than 12 in the live worker or no
 * majority among the last 8, and the spans S1 excuses over a stuck limit.
 */
import { describe, expect, it } from 'vitest';
import { type DateSample, maxVerdictLag, verdictClockWindows, verdictLag } from './verdict-clock';

const MIN = 60_000;
/** One sample a second from `from`, offsets as given (0: truthful), all in life 0. */
const samples = (offsets: number[], from = 0, life = 0): DateSample[] =>
  offsets.map((offsetMs, i) => ({ at: from + i * 1_000, life, offsetMs }));

describe('the verdict clock', () => {
  it('decides nothing before the live worker has 12 samples', () => {
    const s = samples(Array(12).fill(0));
    expect(verdictLag(s, [0], 10_000)).toBeUndefined();
    expect(verdictLag(s, [0], 11_000)).toBe(0);
    // A worker born after them starts with none.
    expect(verdictLag(s, [0, 11_500], 12_000)).toBeUndefined();
  });

  it('lags by a Date lying 10 min behind while it is among the last 12, then not', () => {
    const s = samples([-10 * MIN, ...Array(23).fill(0)]);
    expect(verdictLag(s, [0], 11_000)).toBe(10 * MIN);
    expect(verdictLag(s, [0], 12_000)).toBe(0);
  });

  it('decides nothing while the last 8 have no majority', () => {
    const s = samples([...Array(12).fill(0), ...Array(4).fill(20 * MIN)]);
    expect(verdictLag(s, [0], 11_000)).toBe(0);
    expect(verdictLag(s, [0], 14_000)).toBe(0);
    expect(verdictLag(s, [0], 15_000)).toBeUndefined();
  });

  it('gives the spans in which a limit could not yet be seen passed, and the most it lagged', () => {
    const s = samples([-10 * MIN, ...Array(23).fill(0)]);
    const ws = verdictClockWindows(s, [0], 5_000, 5_000, 30_000);
    expect(ws.map((w) => [w.from, w.to, w.why])).toEqual([
      [5_000, 11_000, 'verdict clock: no 12 Date samples agreeing'],
      [11_000, 12_000, 'verdict clock: a Date lying behind'],
    ]);
    expect(maxVerdictLag(s, [0], 11_000, 20_000)).toBe(10 * MIN);
  });

  it('reads the samples of one millisecond one at a time: a lying one read before the next took the majority away lags (seed 20261130, run 20884)', () => {
    // 12 truthful samples, then 4 lying 10 min behind that arrive in the same millisecond: once all 4 are read the last
    // 8 have no majority, but after the first one alone the clock decides, 10 min behind (the worker warned then).
    const s = [...samples(Array(12).fill(0)), ...Array.from({ length: 4 }, () => ({ at: 20_000, life: 0, offsetMs: -10 * MIN }))];
    expect(verdictLag(s, [0], 20_000)).toBeUndefined();
    expect(maxVerdictLag(s, [0], 15_000, 20_000)).toBe(10 * MIN);
    // Outside the span, nothing.
    expect(maxVerdictLag(s, [0], 15_000, 19_999)).toBe(0);
  });
});
