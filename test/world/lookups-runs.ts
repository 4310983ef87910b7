/**
 * Hand-made runs for the L1 oracle's tests (./lookups.test.ts, ./lookups-stalls-hostile.test.ts,
 * ./lookups-matching-hostile.test.ts): a {@link CheckContext} with only what `checkLookups` (./lookups.ts) reads, its
 * verdict, and the look-ups of seed 20261227 run 44040.
 */
import type { CheckContext, ExtraInvariant, Window } from './family-types';
import { checkLookups, type LookupsObs } from './lookups';

/** One second (ms). */
export const S = 1_000;
/** When a hand-made run ends (true time, ms). */
export const END = 600 * S;

/** A time the world stood still (test/world/time.ts `stalls`): from `at` (ms), `ms` long, in call burst `burst`. */
export type Stall = { at: number; ms: number; burst?: number };

/**
 * A run with these windows about every intent, these deaths (and their windows, as test/world/oracle.ts makes them:
 * from the death to the next start, or the end), these requests the service received (none unless given; `start`:
 * true time, ms) and these stalls.
 */
export function lookupRun(opts: {
  windows?: Window[];
  deaths?: CheckContext['deaths'];
  log?: Array<{ lane: string; op: string; start: number }>;
  stalls?: Stall[];
}): CheckContext {
  const deaths = opts.deaths ?? [];
  const windows: Window[] = [
    ...(opts.windows ?? []),
    ...deaths.map((d) => ({ from: d.at, to: d.restartAt ?? END, why: `death (${d.kind})` })),
  ];
  return {
    service: { log: opts.log ?? [] },
    world: { time: { stalls: opts.stalls ?? [] } },
    deaths,
    end: END,
    over: (_id: string | undefined, from: number, to: number) => windows.filter((w) => w.from < to && w.to > from),
  } as unknown as CheckContext;
}

/** L1's verdict on `obs` in `ctx`: its violations, and the excuse named for each look-up excused. */
export function lookupVerdict(ctx: CheckContext, obs: LookupsObs): { violations: string[]; excused: string[] } {
  const excused: string[] = [];
  const count = { ok: (_i: ExtraInvariant) => {}, excused: (_i: ExtraInvariant, why: string) => void excused.push(why) };
  return { violations: checkLookups(ctx, obs, count), excused };
}

/**
 * Seed 20261227 run 44040 (true time, ms): three History look-ups 100 ms apart from `asked`, each sent 100 ms after its
 * asking (slowCalls); the first answered at once by a 429 with `Retry-After: 0`, a hold window from +100 to +100 ms
 * (`hold`) that moves the first one's due to +2,100 ms. `user(dt)` and `tracker(dt)` are requests the service receives
 * `dt` ms after `asked`; `trio()` the three look-ups as the popup saw them.
 */
export const run44040 = (() => {
  const asked = 120 * S;
  return {
    asked,
    hold: { from: asked + 100, to: asked + 100, why: 'a 429 hold' } satisfies Window,
    user: (dt: number) => ({ lane: 'user', op: 'history', start: asked + dt }),
    tracker: (dt: number) => ({ lane: 'tracker', op: 'wait', start: asked + dt }),
    trio: (): LookupsObs => [
      { at: asked, replied: true, repliedAt: asked + 100 },
      { at: asked + 100, replied: true, repliedAt: asked + 300 },
      { at: asked + 200, replied: true, repliedAt: asked + 310 },
    ],
  };
})();
