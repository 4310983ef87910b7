/**
 * The `notFoundFirst` family of the world campaign: intents the service does not know yet when the user tracks them
 * (a just-committed intent the service's replicas have not seen; an intentId copied too early) — NotFound for half a
 * second to a minute, for 1 to 8 minutes, or for ever — during every other fault. The tracker asks again after 2 s,
 * growing by a quarter each time to 30 s, for 10 minutes after the intent was added; then it is _not found_
 * (docs/tracking.md "Faults").
 *
 * The oracle (F1, per drawn intent tracked and not removed): one the service came to know within the grace (at least
 * 2 minutes before its end, counted from the user's first track of it) is never marked not found (then I1 and I3 hold
 * for it as for any other: a NotFound answer counts as a check, and excuses nothing); one the service never knows is
 * marked not found no earlier than 10 minutes after the user first asked to track it (an import too: the grace counts
 * from the import, not from the `addedAt` its export carried — docs/tracking.md), and never told. The grace is served
 * time (lib/tracker/not-found-grace.ts): time while no worker ran is not counted, nor the back-off a death cut short,
 * so it is due 10 minutes after the track was answered (its answer, not its sending: a worker dying or its storage
 * refusing in between delays both) plus, for each death after that, its span until the next
 * worker started, the longest back-off (30 s) and the IndexedDB refusals within the life it ended (that life could
 * neither load nor keep what it served); it is then marked within 30 s + S(N) + 1 s (excusing only the stated
 * windows about it).
 */
import fc from 'fast-check';
import { stalenessBound } from '@/lib/tracker/policy';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import type { CheckContext, FamilyContext, FamilyCount, Window } from './family-types';

const MIN = 60_000;
/** The tracker's NotFound grace (docs/tracking.md): from the intent's adding. */
export const NOT_FOUND_GRACE_MS = 10 * MIN;
/** The longest NotFound back-off (docs/tracking.md). */
const LONGEST_RETRY_MS = 30_000;
/** Never known. */
const NEVER = -1;

/** The arbitrary of the family's part of a schedule (undefined: off): per intent (by index), how long it is unknown. */
export const notFoundArb = fc.option(
  fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 500, max: MIN }), fc.integer({ min: MIN, max: 8 * MIN }), fc.constant(NEVER)), {
    minLength: 6,
    maxLength: 6,
  }),
  { nil: undefined },
);

/** The family's part of a schedule. */
export type NotFoundSpec = NonNullable<typeof notFoundArb extends fc.Arbitrary<infer T> ? T : never>;

/**
 * What the family saw: per drawn intent, when the service came to know it (true time; Infinity: never) and when its
 * grace began: the user's first track of it (an import's included).
 */
export type NotFoundObs = Map<string, { visibleAt: number; firstAskAt?: number }>;

/** The intents a message tracks. */
const named = (message: unknown): string[] => {
  const m = message as { type?: string; intentId?: string; intents?: Array<{ intentId?: unknown }> };
  if (m?.type === 'track' && typeof m.intentId === 'string') return [m.intentId.trim().toLowerCase()];
  if (m?.type === 'track-many') return (m.intents ?? []).map((i) => String(i.intentId).trim().toLowerCase());
  return [];
};

/** Makes the drawn intents unknown to the service for their time; notes when the user first asks to track each. */
export function playNotFound(ctx: FamilyContext, spec: NotFoundSpec | undefined): NotFoundObs | undefined {
  if (!spec) return undefined;
  const obs: NotFoundObs = new Map();
  ctx.ids.forEach((id, i) => {
    const d = spec[i % spec.length]!;
    const intent = ctx.service.intents.get(id);
    if (d === 0 || !intent) return;
    intent.visibleAt = d === NEVER ? Number.POSITIVE_INFINITY : intent.createdAt + d;
    obs.set(id, { visibleAt: intent.visibleAt });
  });
  const send = ctx.world.send.bind(ctx.world);
  ctx.world.send = (message: unknown) => {
    for (const id of named(message)) {
      const o = obs.get(id);
      // An imported intent's grace counts from the import, whatever `addedAt` its export carried.
      if (o && o.firstAskAt === undefined) o.firstAskAt = ctx.now();
    }
    return send(message);
  };
  return obs;
}

/**
 * Whether the main oracle's I3 is excused for `id`: the service never knew it, or did not know it when its grace
 * ended and the worker marked it not found then (`markedAt`, true time): it ends not found, untold.
 */
export function notFoundUntold(obs: NotFoundObs | undefined, id: string, markedAt: number | undefined): boolean {
  const o = obs?.get(id);
  if (!o) return false;
  if (o.visibleAt === Number.POSITIVE_INFINITY) return true;
  return (
    markedAt !== undefined && o.firstAskAt !== undefined && markedAt >= o.firstAskAt + NOT_FOUND_GRACE_MS && o.visibleAt > markedAt - 30_000
  );
}

/**
 * When (true time) the grace of an intent tracked at `from` is served at the latest: `from` + the grace, later by each
 * death before it was marked not found — its span until the next worker started (the run's `end` if none did), the
 * longest back-off, which the death may have cut short unrecorded, and the refusals of IndexedDB (`refused`: windows
 * of an `idb` or `quota` fault) within the life it ended, in which that life could neither load nor write what it
 * served. A death counts while the marking was not yet overdue at it (before `overdueAt(due, its time)`; default: the
 * grace `due` so far): one after the grace was served but before the marking was written (the next NotFound answer
 * had not come, or a refusal kept it from the record) loses that life's unwritten time as one before does.
 */
export function graceDue(
  deaths: CheckContext['deaths'],
  from: number,
  end: number,
  refused: (a: number, b: number) => Window[] = () => [],
  overdueAt: (due: number, at: number) => number = (due) => due,
): number {
  const sorted = [...deaths].filter((d) => d.kind !== 'end').sort((a, b) => a.at - b.at);
  let due = from + NOT_FOUND_GRACE_MS;
  let counted = from;
  for (const [i, d] of sorted.entries()) {
    if (d.at >= overdueAt(due, d.at)) break;
    const restart = d.restartAt ?? sorted.slice(i + 1).find((x) => x.restartAt !== undefined)?.restartAt ?? end;
    if (d.at >= counted) due += covered(refused(counted, d.at), counted, d.at);
    if (restart <= counted) continue;
    due += Math.min(restart, end) - Math.max(d.at, counted) + (d.at >= from ? LONGEST_RETRY_MS : 0);
    counted = restart;
  }
  return due;
}

/** How long (ms) the union of `ws` covers of [a, b]. */
function covered(ws: readonly Window[], a: number, b: number): number {
  let total = 0;
  let at = a;
  for (const w of [...ws].sort((x, y) => x.from - y.from)) {
    const lo = Math.max(w.from, at);
    const hi = Math.min(w.to, b);
    if (hi > lo) total += hi - lo;
    at = Math.max(at, hi);
  }
  return total;
}

/** F1: see the module's docstring. */
export function checkNotFound(ctx: CheckContext, obs: NotFoundObs | undefined, count: FamilyCount): string[] {
  if (!obs) return [];
  const v: string[] = [];
  const late = LONGEST_RETRY_MS + stalenessBound(ctx.tracked.size, DEFAULT_TUNING) + 1_000;
  for (const [id, { visibleAt, firstAskAt }] of obs) {
    const t = ctx.tracked.get(id);
    if (!t || firstAskAt === undefined || ctx.removeAsked.has(id)) continue;
    const markedAt = ctx.phaseAt.get(id)?.get('not-found');
    if (visibleAt !== Number.POSITIVE_INFINITY) {
      if (visibleAt > firstAskAt + NOT_FOUND_GRACE_MS - 2 * MIN) continue;
      if (markedAt !== undefined)
        v.push(
          markedAt < visibleAt
            ? `F1 ${id} marked not found ${markedAt - firstAskAt} ms after the user first asked to track it, before the service knew it (${visibleAt - markedAt} ms later; grace ${NOT_FOUND_GRACE_MS})`
            : `F1 ${id} marked not found ${markedAt - visibleAt} ms after the service knew it (asked ${markedAt - firstAskAt} ms before)`,
        );
      else count.ok('F1');
      continue;
    }
    const told = ctx.toldAt.get(id)?.length ?? 0;
    if (told > 0) v.push(`F1 ${id}, never known to the service, told ${told} times`);
    if (markedAt !== undefined && markedAt < firstAskAt + NOT_FOUND_GRACE_MS)
      v.push(`F1 ${id} marked not found ${markedAt - firstAskAt} ms after the user first asked to track it (grace ${NOT_FOUND_GRACE_MS})`);
    else {
      const until = markedAt ?? ctx.end;
      // The grace starts when the worker took the track in: its answer (docs/simulation.md, `notFoundFirst`: "due 10 min
      // after the reply"), later than its sending when the worker died or its storage refused in between.
      const start = t.answeredAt ?? t.from;
      const refused = (a: number, b: number) => ctx.over(id, a, b).filter((w) => /^(idb|quota) /.test(w.why));
      // Overdue: `late` after the grace, later by the windows about it begun before `at` (as the lateness is excused).
      const overdueAt = (due: number, at: number) =>
        Math.max(
          due,
          ...ctx
            .over(id, start, at)
            .filter((w) => w.from < at)
            .map((w) => w.to),
        ) + late;
      const due = graceDue(ctx.deaths, start, ctx.end, refused, overdueAt);
      if (until <= due + late) {
        if (markedAt !== undefined) count.ok('F1');
        else count.excused('F1', 'the grace had not surely ended by the end');
      } else {
        // A window excuses the marking's lateness up to its end: from there (the grace over) it is due as usual.
        const ws = ctx.over(id, start, until);
        const ready = Math.max(due, ...ws.map((w) => w.to));
        if (ws.length > 0 && until - ready <= late) count.excused('F1', ws[0]!.why);
        else
          v.push(
            `F1 ${id}, never known, ${markedAt === undefined ? 'not marked not found by the end' : 'marked not found'} ${until - start} ms after its track was answered (limit ${due + late - start}: the grace served by then, deaths counted)`,
          );
      }
    }
  }
  return v;
}
