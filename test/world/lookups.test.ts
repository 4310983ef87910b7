/**
 * The L1 oracle (test/world/lookups.ts `checkLookups`) on hand-made runs: a look-up never sent is excused only by a
 * death inside its wait — one at the very instant it was asked, the next worker started at that same instant, too —
 * or the run's end; a worker alive through the wait that sends nothing fails.
 */
import { describe, expect, it } from 'vitest';
import type { CheckContext, ExtraInvariant, Window } from './family-types';
import { checkLookups, diedInWait, type LookupsObs } from './lookups';

const S = 1_000;
const END = 600 * S;

/** A run with no request sent, these deaths, and the oracle's windows made of them as test/world/oracle.ts makes them. */
function run(deaths: CheckContext['deaths']): CheckContext {
  const windows: Window[] = deaths.map((d) => ({ from: d.at, to: d.restartAt ?? END, why: `death (${d.kind})` }));
  return {
    service: { log: [] },
    deaths,
    end: END,
    over: (_id: string | undefined, from: number, to: number) => windows.filter((w) => w.from < to && w.to > from),
  } as unknown as CheckContext;
}

function verdict(ctx: CheckContext, obs: LookupsObs) {
  const excused: string[] = [];
  const count = { ok: (_i: ExtraInvariant) => {}, excused: (_i: ExtraInvariant, why: string) => void excused.push(why) };
  return { violations: checkLookups(ctx, obs, count), excused };
}

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
