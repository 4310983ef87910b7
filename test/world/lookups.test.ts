/**
 * The L1 oracle (test/world/lookups.ts `checkLookups`) on hand-made runs: a look-up never sent is excused only by a
 * death inside its wait — one at the very instant it was asked, the next worker started at that same instant, too —
 * or the run's end; a worker alive through the wait that sends nothing fails. The 2 s are the worker's own: the time
 * the world stood still in the wait (calls taking their time one after another, slowCalls and slowDisk) is added, and
 * nothing else (seed 20261227 run 7755, kept in ./kept/l1read.ts).
 */
import { describe, expect, it } from 'vitest';
import type { CheckContext } from './family-types';
import { diedInWait } from './lookups';
import { lookupRun, run44040, S, type Stall, lookupVerdict as verdict } from './lookups-runs';

/** A run with these deaths, these requests sent and these stalls ({@link lookupRun}). */
const run = (deaths: CheckContext['deaths'], log: Array<{ lane: string; op: string; start: number }> = [], stalls: Stall[] = []) =>
  lookupRun({ deaths, log, stalls });

describe('checkLookups: a look-up never sent', () => {
  it('is excused by a worker that died at the very instant it was asked, the next started at once', () => {
    const { violations, excused } = verdict(run([{ at: 18, kind: 'kill', restartAt: 18 }]), [{ at: 18, replied: false }]);
    expect(violations).toEqual([]);
    expect(excused).toEqual(['death (kill)']);
  });

  it('is excused by a death later in its 2 s', () => {
    const { violations } = verdict(run([{ at: 10 * S + 1_500, kind: 'kill', restartAt: 10 * S + 1_500 }]), [
      { at: 10 * S, replied: false },
    ]);
    expect(violations).toEqual([]);
  });

  it('fails when the worker it woke lived through the wait (its death before the asking, ended by it)', () => {
    const { violations } = verdict(run([{ at: 10, kind: 'kill', restartAt: 18 }]), [{ at: 18, replied: false }]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^L1 a look-up asked at .* not sent within 2000 ms/);
  });

  it('fails when the only death comes after its 2 s', () => {
    const { violations } = verdict(run([{ at: 10 * S + 2_000, kind: 'idle', restartAt: 10 * S + 2_000 }]), [
      { at: 10 * S, replied: false },
    ]);
    expect(violations).toHaveLength(1);
  });
});

describe('diedInWait', () => {
  it("reads deaths in [at, due), never the run's end", () => {
    expect(diedInWait([{ at: 5, kind: 'end' }], 0, 10)).toBeUndefined();
    expect(diedInWait([{ at: 10, kind: 'kill' }], 0, 10)).toBeUndefined();
    expect(diedInWait([{ at: 0, kind: 'idle' }], 0, 10)).toEqual({ why: 'death (idle)' });
  });
});

describe('checkLookups: the time the world stood still', () => {
  const asked = 10 * S;
  const sentLate = { lane: 'user', op: 'history', start: asked + 2_500 };
  /** Twenty calls of 30 ms each from `from` on, made side by side (one burst) and taking their time one after another (600 ms in all). */
  const calls = (from: number, burst = 1) => Array.from({ length: 20 }, (_, k) => ({ at: from + k * 30, ms: 30, burst }));

  it('excuses a look-up late by no more than the stalls inside its wait', () => {
    const { violations, excused } = verdict(run([], [sentLate], [...calls(asked, 1), ...calls(asked + 600, 2)]), [
      { at: asked, replied: true, repliedAt: asked + 2_600 },
    ]);
    expect(violations).toEqual([]);
    expect(excused).toEqual(['the world stood still (slow calls)']);
  });

  it('fails a look-up later than its 2 s and those stalls', () => {
    const few = calls(asked).slice(0, 10); // 300 ms, of which 270 the one-after-another's
    const { violations } = verdict(run([], [sentLate], few), [{ at: asked, replied: true, repliedAt: asked + 2_600 }]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^L1 a look-up asked at .* not sent within 2270 ms/);
  });

  it('does not count stalls after its wait (nor before the asking)', () => {
    const outside = [...calls(asked - 1_000, 1), ...calls(asked + 2_000, 2)];
    const { violations } = verdict(run([], [sentLate], outside), [{ at: asked, replied: true, repliedAt: asked + 2_600 }]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/not sent within 2000 ms/);
  });

  it("never excuses a tracker's request sent before the look-up", () => {
    const first = { lane: 'tracker', op: 'wait', start: asked + 100 };
    const { violations } = verdict(run([], [first, sentLate], calls(asked)), [{ at: asked, replied: true, repliedAt: asked + 2_600 }]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^L1 a tracker wait went .* before the look-up/);
  });
});

describe('checkLookups: a request of the tracker sent before the look-up (seed 20261227 run 15469)', () => {
  const asked = 10 * S;
  const tracker = { lane: 'tracker', op: 'history', start: asked + 201 };
  const user = { lane: 'user', op: 'history', start: asked + 301 };
  const replied = [{ at: asked, replied: true, repliedAt: asked + 400 }];
  /** The look-up's settings read (its own burst), then two fetches of `bursts[0]` and `bursts[1]`, 100 ms each. */
  const stalls = (bursts: [number, number]) => [
    { at: asked + 1, ms: 100, burst: 1 },
    { at: asked + 101, ms: 100, burst: bursts[0] },
    { at: asked + 201, ms: 100, burst: bursts[1] },
  ];

  it("did not go first when its fetch and the look-up's were side by side (one burst, run one after another)", () => {
    const { violations } = verdict(run([], [tracker, user], stalls([2, 2])), replied);
    expect(violations).toEqual([]);
  });

  it("went first when its fetch was made before the look-up's in a burst of its own", () => {
    const { violations } = verdict(run([], [tracker, user], stalls([2, 3])), replied);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^L1 a tracker history went 100 ms before the look-up/);
  });
});

describe('checkLookups: look-ups close together, one delayed by a window (seed 20261227 run 44040)', () => {
  // The run as found (./lookups-runs.ts run44040): each request is its own look-up's, none was late, and none of the
  // worker's went first.
  const { hold, trio: obs, user } = run44040;

  it('gives each look-up its own request, although the delayed one is matched last', () => {
    const ctx = lookupRun({ windows: [hold], log: [user(100), user(200), user(300)] });
    const { violations, excused } = verdict(ctx, obs());
    expect(violations).toEqual([]);
    expect(excused).toEqual([]);
  });

  it('still fails when one of the three was never sent', () => {
    const ctx = lookupRun({ windows: [hold], log: [user(100), user(300)] });
    const { violations } = verdict(ctx, obs());
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^L1 a look-up asked at .* not sent within/);
  });
});
