/**
 * Hostile cases for L1's stall rule (test/world/lookups.ts `checkLookups`, c995ec9): the time the world stood still in
 * a look-up's wait is added to its 2 s. Hand-made runs as ./lookups.test.ts makes them.
 *
 * The cases under "defects it excuses" failed on c995ec9 (the oracle excused a real defect, each found by a mutation of
 * the worker's look-up in world runs: awaited calls, a polling loop); they pass since L1 counts only what the world's
 * one-after-another adds to calls made side by side (all but the longest of each burst) and excuses a request of the
 * worker's sent first only by a window open by then.
 */
import { describe, expect, it } from 'vitest';
import { END, lookupRun as run, S, type Stall, lookupVerdict as verdict } from './lookups-runs';

const asked = 10 * S;
/** `n` calls of `ms` each, one after another from `from` on, each awaited before the next (a burst each). */
const serial = (from: number, n: number, ms = 100, burst0 = 1_000): Stall[] =>
  Array.from({ length: n }, (_, k) => ({ at: from + k * ms, ms, burst: burst0 + k }));
/** `n` calls of `ms` each made side by side (one synchronous run: one burst), taking their time one after another. */
const sideBySide = (from: number, n: number, ms = 100, burst = 1): Stall[] =>
  Array.from({ length: n }, (_, k) => ({ at: from + k * ms, ms, burst }));

describe('L1 stall rule: what it must keep excusing (run 20261227/7755)', () => {
  it('excuses a look-up held 2.5 s by 25 calls made side by side (the worker start, a chain check)', () => {
    const { violations, excused } = verdict(
      run({ log: [{ lane: 'user', op: 'history', start: asked + 2_500 }], stalls: sideBySide(asked, 25) }),
      [{ at: asked, replied: true, repliedAt: asked + 2_600 }],
    );
    expect(violations).toEqual([]);
    expect(excused).toEqual(['the world stood still (slow calls)']);
  });

  it('fails a look-up 3 s late on a timer while only 200 ms of calls ran (stalls do not delay a timer)', () => {
    const { violations } = verdict(run({ log: [{ lane: 'user', op: 'history', start: asked + 3_000 }], stalls: serial(asked + 500, 2) }), [
      { at: asked, replied: true, repliedAt: asked + 3_100 },
    ]);
    expect(violations).toHaveLength(1);
  });
});

describe('L1 stall rule: defects it excuses (c995ec9)', () => {
  // Campaign: L1_MUT=calls:40 (the lookup handler awaits 40 storage.local.get one after another), seed 1 run 6 of
  // lookups,slowCalls,chain,kill: a look-up sent 4.2 s late, excused.
  it('fails a look-up whose own path made 40 calls one after another (4 s under slowCalls)', () => {
    const { violations } = verdict(run({ log: [{ lane: 'user', op: 'history', start: asked + 4_100 }], stalls: serial(asked, 40) }), [
      { at: asked, replied: true, repliedAt: asked + 4_200 },
    ]);
    expect(violations).toHaveLength(1);
  });

  // Campaign: L1_MUT=poll:1:30000 (the handler polls storage every 1 ms for 30 s), seed 1 runs 97 and 128: look-ups sent
  // 30 s late, whole runs pass.
  it('fails a look-up held 30 s by a polling loop of calls (1 ms timer + 100 ms call, repeated)', () => {
    const stalls = Array.from({ length: 297 }, (_, k) => ({ at: asked + k * 101 + 1, ms: 100, burst: 2_000 + k }));
    const { violations } = verdict(run({ log: [{ lane: 'user', op: 'history', start: asked + 30_000 }], stalls }), [
      { at: asked, replied: true, repliedAt: asked + 30_100 },
    ]);
    expect(violations).toHaveLength(1);
  });

  it('fails a look-up never sent by a worker alive to the end while calls kept the world standing still', () => {
    // 590 s of back-to-back calls: the due chains to beyond the end and the look-up is excused as "the run ended".
    const stalls = serial(asked, (END - asked) / 100);
    const { violations, excused } = verdict(run({ stalls }), [{ at: asked, replied: false }]);
    expect(excused).toEqual([]);
    expect(violations).toHaveLength(1);
  });

  it('fails a tracker request sent first when the only window starts after it, inside the stall-lengthened wait', () => {
    // Old rule: no window over [asked, asked + 2 s] → "a tracker wait went … before the look-up". Now 1 s of stalls
    // lengthens the wait to 3 s, a death at +2.7 s falls in it, and the tracker's request at +100 ms is excused by it.
    const { violations } = verdict(
      run({
        deaths: [{ at: asked + 2_700, kind: 'idle', restartAt: asked + 2_800 }],
        log: [
          { lane: 'tracker', op: 'wait', start: asked + 100 },
          { lane: 'user', op: 'history', start: asked + 2_900 },
        ],
        stalls: sideBySide(asked + 500, 10),
      }),
      [{ at: asked, replied: true, repliedAt: asked + 3_000 }],
    );
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^L1 a tracker wait went/);
  });
});

describe('L1 stall rule: cost', () => {
  it('reads a run of 200,000 stalls (1 ms calls back to back) in reasonable time', () => {
    const stalls = Array.from({ length: 200_000 }, (_, k) => ({ at: asked + k, ms: 1, burst: k }));
    const started = performance.now();
    verdict(run({ log: [{ lane: 'user', op: 'history', start: asked + 100_000 }], stalls }), [
      { at: asked, replied: true, repliedAt: asked + 100_100 },
    ]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
