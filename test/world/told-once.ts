/**
 * I3 and N1 for one intent a family makes the worker tell (an intent imported after it ended, a final held by quiet
 * hours): told once, within S(N) + 1 s of when it became due, excusing exactly the stated windows about that intent
 * (docs/simulation.md "The fault table": a death, a faulted call of its own, a lie about it, a 429's hold, a refusal)
 * — a window excuses lateness only up to its end, and a missing telling only when it leaves less than the bound before
 * the run's end — and the deaths' windows for its notification (Chrome's repeat, Firefox's loss: ./death-excuses.ts).
 */
import type { DeathExcuses } from './death-excuses';
import type { ExtraInvariant, FamilyCount, Window } from './family-types';

/** What the check reads of a run. */
export interface ToldOnceContext extends DeathExcuses {
  /** The run's end (true time, ms since the epoch). */
  end: number;
  /** Per intent: when it was told on its own. */
  toldAt: Map<string, number[]>;
  /** The oracle's windows about `id` (undefined: every intent) overlapping [from, to]. */
  over(id: string | undefined, from: number, to: number): Window[];
}

/**
 * Checks that intent `id`, due from `from` (true time), was told exactly once within `limitMs` of it; counts the
 * check as `inv` (checked or excused, and why) and returns the violations, each starting with `inv` and `label`.
 */
export function checkToldOnce(
  ctx: ToldOnceContext,
  id: string,
  from: number,
  limitMs: number,
  inv: ExtraInvariant,
  count: FamilyCount,
  label: string,
): string[] {
  const times = ctx.toldAt.get(id) ?? [];
  const late = (until: number): string | undefined => {
    if (until - from <= limitMs) return undefined;
    const ws = ctx.over(id, from, until);
    const calmFrom = Math.max(from, ...ws.map((w) => w.to));
    return ws.length > 0 && until - calmFrom <= limitMs ? ws[0]!.why : 'late';
  };
  if (times.length === 0) {
    if (ctx.lossAllowed(id)) {
      count.excused(inv, 'Firefox: died while its notification was showing');
      return [];
    }
    const why = late(ctx.end);
    if (why === 'late') return [`${inv} ${id} ${label}: due ${ctx.end - from} ms before the end and never told (limit ${limitMs})`];
    count.excused(inv, why ?? 'due less than the bound before the end');
    return [];
  }
  const v: string[] = [];
  if (times.length === 2 && ctx.repeatAllowed(id)) count.excused(inv, 'Chrome: died while its notification was showing');
  else if (times.length > 1) v.push(`${inv} ${id} ${label}: told ${times.length} times`);
  const why = late(times[0]!);
  if (why === 'late') v.push(`${inv} ${id} ${label}: told ${times[0]! - from} ms after it was due (limit ${limitMs})`);
  else if (why !== undefined) count.excused(inv, why);
  else if (v.length === 0) count.ok(inv);
  return v;
}
