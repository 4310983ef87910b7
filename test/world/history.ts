/**
 * The `adversarialHistory` family of the world campaign: GetIntentHistory as a careless or hostile service answers it
 * — thousands of strangers' rows (other owners and projects) over a minute or an hour, rows of other owners when
 * asked for one (`ignoreOwner`), the same `nextPage.after` on every page (`repeatCursor`), rows out of order, a stale
 * non-final row of a tracked intent beside the final ones (`staleRows`), and rows left out of a page at random
 * (omitted: 20 % or 50 %). History is an accelerator only (docs/tracking.md I1): the worker's guarantees hold
 * whatever it returns — I1–I6 and N2 as everywhere (no stranger tracked or told), W1 for a watched address.
 *
 * The oracle (H1, I6 for history rows, per row): a page of the tracker's (asked by final statuses) that shows an
 * intent tracked before the page was asked final, as the worker received it, is acted on at once — the intent's final phase written within
 * 1 s of the page — excusing only the stated windows about that intent.
 */
import fc from 'fast-check';
import { isFinalStatus } from '@/lib/tracker/policy';
import type { HistoryMode } from '../tracker/fake-service';
import type { CheckContext, FamilyContext, FamilyCount } from './family-types';

const MIN = 60_000;

/** The arbitrary of the family's part of a schedule (undefined: off). */
export const historyArb = fc.option(
  fc.record({
    others: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 300, max: 3_000 })),
    othersSpanMs: fc.constantFrom(MIN, 60 * MIN),
    ignoreOwner: fc.boolean(),
    repeatCursor: fc.boolean(),
    outOfOrder: fc.boolean(),
    staleRows: fc.boolean(),
    omit: fc.constantFrom(0, 0.2, 0.5),
  }),
  { nil: undefined },
);

/** The family's part of a schedule. */
export type HistorySpec = NonNullable<typeof historyArb extends fc.Arbitrary<infer T> ? T : never>;

/** The fake service's history: the family's when drawn, else the plain one of a schedule with history (or none). */
export function historyMode(plain: boolean, spec: HistorySpec | undefined): HistoryMode | undefined {
  if (spec) {
    const { omit: _, ...mode } = spec;
    return mode;
  }
  return plain
    ? { others: 20, othersSpanMs: MIN, ignoreOwner: false, repeatCursor: false, outOfOrder: false, staleRows: false }
    : undefined;
}

/** The final rows of the tracker's pages as the worker received them (true time). */
export type HistoryObs = Array<{ at: number; asked: number; intentId: string; status: string }>;

/** Leaves rows out of the pages at random; notes the final rows of the tracker's pages as sent. */
export function playHistory(ctx: FamilyContext, spec: HistorySpec | undefined): HistoryObs | undefined {
  if (!spec) return undefined;
  const obs: HistoryObs = [];
  ctx.patches.push((op, _id, result) => {
    if (op !== 'history') return;
    const page = result as { intents?: Array<{ intentId: string; status: string }> };
    if (!page.intents) return;
    // This page's entry in the service's log (others may have started since): the one that gave these rows.
    const given = page.intents.map((r) => r.intentId).join();
    const log = ctx.service.log;
    let lane: string | undefined;
    let asked = ctx.now();
    for (let k = log.length - 1; k >= 0 && k >= log.length - 50; k--) {
      const e = log[k]!;
      if (e.op === 'history' && e.finalRows?.map((r) => r.intentId).join() === given) {
        lane = e.lane;
        asked = e.start;
        break;
      }
    }
    if (spec.omit > 0) page.intents = page.intents.filter(() => ctx.random() >= spec.omit);
    // The tracker's pages ask by final statuses (test/world/network.ts gives them its lane); others (the watched
    // check, ETA look-ups) do not act on a tracked intent's status.
    if (lane !== 'tracker') return;
    for (const row of page.intents)
      if (isFinalStatus(row.status)) obs.push({ at: ctx.now(), asked, intentId: row.intentId, status: row.status });
  });
  return obs;
}

/** H1: see the module's docstring. */
export function checkHistory(ctx: CheckContext, obs: HistoryObs | undefined, count: FamilyCount): string[] {
  if (!obs) return [];
  const v: string[] = [];
  const seen = new Set<string>();
  for (const { at, asked, intentId } of obs) {
    const t = ctx.tracked.get(intentId);
    // Only the first page that showed it final counts; only while the user had it tracked, from before the page was
    // asked (an intent tracked while the page was in flight may be written after the page is read).
    const trackedAt = ctx.phaseAt.get(intentId)?.get('tracking') ?? t?.from ?? Number.POSITIVE_INFINITY;
    if (
      !t ||
      t.from > at ||
      trackedAt >= asked ||
      (t.removedAt !== undefined && t.removedAt <= at + 1_000) ||
      ctx.removeAsked.has(intentId) ||
      seen.has(intentId)
    )
      continue;
    seen.add(intentId);
    const phases = ctx.phaseAt.get(intentId);
    const written = phases?.get('final');
    const left = Math.min(...['expired', 'not-found'].map((p) => phases?.get(p) ?? Number.POSITIVE_INFINITY));
    if (left <= at) continue;
    if (written !== undefined && written <= at + 1_000) count.ok('H1');
    else {
      const ws = ctx.over(intentId, at - 1, at + 1_000);
      if (ws.length > 0) count.excused('H1', ws[0]!.why);
      else
        v.push(
          `H1 ${intentId} shown final by a history page at ${at - ctx.end} ms (before the end), acted on ${written === undefined ? 'never' : `${written - at} ms after`}`,
        );
    }
  }
  return v;
}
