/**
 * The F1 oracle's model of when a never-known intent's NotFound grace is served (test/world/notfound.ts `graceDue`),
 * on hand-made lives: 10 minutes of running workers' time, later by each death before the marking — its span until
 * the next worker, the longest back-off (30 s) and the IndexedDB refusals within the life it ended (docs/tracking.md
 * "Faults", docs/simulation.md `notFoundFirst`).
 */
import { describe, expect, it } from 'vitest';
import type { Window } from './family-types';
import { graceDue } from './notfound';

const S = 1_000;
const MIN = 60 * S;
/** The marking is overdue this long after the grace is served (30 s back-off + S(N) + 1 s, S(N) = 60 s here). */
const LATE = 91 * S;
const refusal = (from: number, to: number): Window => ({ from, to, why: 'quota svc-intents' });

describe('graceDue', () => {
  it('no death: 10 minutes after the track', () => {
    expect(graceDue([], 5 * S, 60 * MIN)).toBe(5 * S + 10 * MIN);
  });

  it('a death inside the grace adds its span, the longest back-off and the refusals of the life it ended', () => {
    const refused = (a: number, b: number) => [refusal(2 * MIN, 3 * MIN)].filter((w) => w.from < b && w.to > a);
    // 10 min + 20 s dead + 30 s back-off + 60 s refused.
    expect(graceDue([{ at: 5 * MIN, kind: 'idle', restartAt: 5 * MIN + 20 * S }], 0, 60 * MIN, refused)).toBe(10 * MIN + 110 * S);
  });

  it('a death after the grace was served but before the marking was overdue, a refusal keeping it unwritten, counts as one inside it (seed 20261130 run 5817)', () => {
    // Served at 10 min; the intents database refuses from 9 to 12 min; the worker dies at 12 min, the next starts at
    // once: what the first life served since 9 min was never written, and the next serves it again.
    const windows = [refusal(9 * MIN, 12 * MIN)];
    const refused = (a: number, b: number) => windows.filter((w) => w.from < b && w.to > a);
    const overdueAt = (due: number, at: number) => Math.max(due, ...windows.filter((w) => w.from < at).map((w) => w.to)) + LATE;
    const deaths = [{ at: 12 * MIN, kind: 'idle', restartAt: 12 * MIN }];
    // 10 min + 3 min refused + 30 s back-off.
    expect(graceDue(deaths, 0, 60 * MIN, refused, overdueAt)).toBe(13 * MIN + 30 * S);
  });

  it('a death once the marking was overdue counts for nothing: the lateness stands', () => {
    const overdueAt = (due: number) => due + LATE;
    const deaths = [{ at: 12 * MIN, kind: 'kill', restartAt: 13 * MIN }];
    expect(graceDue(deaths, 0, 60 * MIN, () => [], overdueAt)).toBe(10 * MIN);
  });
});
