/**
 * The `stuck` family of the world campaign (symptoms 12 and 14 of issue 27): one intent of the schedule executes for
 * longer than its stuck limit, its GetIntent quote carries an estimate (none, 1, 10 or 20 minutes) and its receipt a
 * `summary.startedAt` that is valid, missing, Go's zero time, the Unix epoch or twelve years old.
 *
 * The rule (docs/tracking.md, lib/eta `stuckLimitMs`, lib/tracker/watchdogs.ts): "taking longer than expected" is
 * raised once an EXECUTING intent has run for max(15 min, 2 × its ETA baseline) since its start (`summary.startedAt`,
 * else the receipt's `createdAt`; an absurd start — at or before the epoch, from 2100, more than 10 years ago — is
 * unknown: the fallback, and with none plausible, no warning), on the service's clock, with a fresh answer.
 *
 * The oracle (S1, every stuck warning of every run, and this family's intent): a warning never comes before the
 * 15-minute floor, nor before twice the quote's estimate once the worker had that answer; its figure ("Executing for
 * over N min") is the minutes since the start (not a billion) read on the worker's verdict clock — never more than
 * the true minutes, fewer by that clock's lag at most; the family's intent, still EXECUTING past its limit and
 * tracked, gets its warning within S(N) + 90 s of the limit (an estimate of another intent, a day, must not put it
 * off), unless a stated window covers that span; with no plausible start, no warning at all. A warning needs the
 * intent's status: while the service answers NotFound (the notFoundFirst family) nothing is due, and an intent the
 * worker marked not found (docs/tracking.md: tracking stops; F1 judges whether the marking was right) is owed none. The verdict clock
 * (docs/time.md "Who decides on it", modelled in ./verdict-clock.ts from the `Date` headers each live worker received)
 * is such a window: while it cannot decide, or lags the truth by more than the time since the limit (a `Date` lying
 * behind among the last 12), the warning may wait.
 */
import fc from 'fast-check';
import { intentIdsOfNotification, STUCK } from '@/lib/notify/browser';
import { NOTIFYING_STATUSES, stalenessBound } from '@/lib/tracker/policy';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import type { CheckContext, FamilyContext, FamilyCount, Window } from './family-types';
import { maxVerdictLag, verdictClockWindows } from './verdict-clock';

const MIN = 60_000;
const FLOOR_MS = DEFAULT_TUNING.stuckAfterMs;

/** What `summary.startedAt` says. */
const STARTS = ['valid', 'none', 'zero', 'epoch', 'ancient'] as const;

/** The arbitrary of the family's part of a schedule (undefined: off): one run in four (each is ~50 minutes long). */
export const stuckArb = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  {
    weight: 1,
    arbitrary: fc.record({
      index: fc.nat(),
      /** The quote's `estimatedDuration` (s); 0: none. */
      etaSeconds: fc.constantFrom(0, 60, 600, 1_200),
      startedAt: fc.constantFrom(...STARTS),
      /** How long past its limit it still executes. */
      overMs: fc.integer({ min: 4 * MIN, max: 10 * MIN }),
    }),
  },
);

/** The family's part of a schedule. */
export type StuckSpec = NonNullable<typeof stuckArb extends fc.Arbitrary<infer T> ? T : never>;

/** The stuck limit (ms) of the family's intent, by the service's quote. */
const limitOf = (spec: StuckSpec) => Math.max(FLOOR_MS, 2 * spec.etaSeconds * 1000);

/** The schedule with the family's intent made slow: committed 5 s, then executing for its limit and `overMs`. */
export function withStuckIntent<S extends { intents: ReadonlyArray<Record<string, unknown> & { addAt: number }> }>(
  s: S,
  spec: StuckSpec | undefined,
): S {
  if (!spec) return s;
  const k = spec.index % s.intents.length;
  const intents = s.intents.map((x, i) =>
    i === k
      ? {
          ...x,
          addAt: Math.min(x.addAt, MIN),
          createdBefore: 2_000,
          committedFor: 5_000,
          executing: [limitOf(spec) + spec.overMs],
          end: 'SUCCEEDED' as const,
        }
      : x,
  );
  return { ...s, intents };
}

/** The ISO `summary.startedAt` the receipts of the family's intent carry (undefined: no summary). */
function startedText(spec: StuckSpec, executingAt: number, T0: number): string | undefined {
  switch (spec.startedAt) {
    case 'valid':
      return new Date(executingAt).toISOString();
    case 'zero':
      return '0001-01-01T00:00:00Z';
    case 'epoch':
      return '1970-01-01T00:00:00Z';
    case 'ancient':
      return new Date(T0 - 12 * 365 * 24 * 60 * MIN).toISOString();
    default:
      return undefined;
  }
}

/** How long (ms) before a warning appears its figure may have been read (the notifier may hold it for a grouping). */
const FIGURE_LEAD_MS = 2 * MIN;

/**
 * When the warning is due at the latest (true ms): `need` after the first span from `due` on, at least `need` long,
 * that no window of `ws` touches (a window excuses a gap only up to its end; from there the bound holds again); `why`
 * names the window that put it off the most ('' when none did).
 */
function calmDeadline(ws: readonly Window[], due: number, need: number): { by: number; why: string } {
  let calm = due;
  let why = '';
  let most = 0;
  for (const w of [...ws].sort((a, b) => a.from - b.from)) {
    if (w.from - calm >= need) break;
    if (w.to - calm > most) ({ why } = w);
    most = Math.max(most, w.to - calm);
    calm = Math.max(calm, w.to);
  }
  return { by: calm + need, why };
}

/** The family's intent and when it started as the service means it. */
interface StuckTruth {
  intentId: string;
  /** The start a warning counts from (ms, true time); undefined: no plausible start (no warning). */
  startedAt: number | undefined;
  spec: StuckSpec;
}

/** Sets the family's answers up: the quote's estimate (GetIntent) and `summary.startedAt` (every receipt). */
export function playStuck(ctx: FamilyContext, spec: StuckSpec | undefined): StuckTruth | undefined {
  if (!spec) return undefined;
  const intentId = ctx.ids[spec.index % ctx.ids.length]!;
  const intent = ctx.service.intents.get(intentId)!;
  const executingAt = intent.steps.find((st) => st.status === 'EXECUTING')!.at;
  const text = startedText(spec, executingAt, ctx.T0);
  ctx.patches.push((op, id, result) => {
    if (id !== intentId) return;
    const r = result as { intentReceipt?: Record<string, unknown>; intent?: Record<string, unknown> };
    if ((op === 'wait' || op === 'receipt') && r.intentReceipt?.intentId === intentId && text !== undefined)
      r.intentReceipt.summary = { ...(r.intentReceipt.summary as object | undefined), startedAt: text };
    if (op === 'intent' && r.intent && spec.etaSeconds > 0)
      r.intent.quote = { ...(r.intent.quote as object), estimatedDuration: spec.etaSeconds };
  });
  const plausible = spec.startedAt === 'valid' ? executingAt : spec.startedAt === 'ancient' ? undefined : intent.createdAt;
  return { intentId, startedAt: plausible, spec };
}

/** S1: when each stuck warning came, and that the family's intent got its own (see the module's docstring). */
export function checkStuck(ctx: CheckContext, truth: StuckTruth | undefined, count: FamilyCount): string[] {
  const v: string[] = [];
  const births = ctx.world.lives.map((l) => ctx.T0 + l.bornAt);
  const warnings = ctx.desktop.log.filter((a) => a.id.startsWith(STUCK) && a.how === 'create');
  for (const w of warnings) {
    const id = intentIdsOfNotification(w.id)[0] ?? w.id.slice(STUCK.length);
    const intent = ctx.service.intents.get(id);
    if (!intent) continue;
    const mine = truth?.intentId === id;
    const executingAt = intent.steps.find((st) => st.status === 'EXECUTING')?.at;
    // The start the worker may count from: summary.startedAt when valid, else createdAt.
    const start = mine ? truth.startedAt : intent.createdAt;
    if (start === undefined) {
      v.push(`S1 ${id} warned stuck at ${w.at - ctx.end} ms (before the end) with no plausible start`);
      continue;
    }
    const ran = w.at - start;
    const tolerance = 5_000;
    let floor = FLOOR_MS;
    // Once the quote's answer was read (its own, not another intent's), twice the estimate is the limit — unless what
    // was read died with its worker unwritten: read while the intents' store refused writes, and the worker dead before
    // that refusal's window (with its back-off) ended. A later worker knows only what it reads again.
    if (mine && truth.spec.etaSeconds > 0) {
      const lost = (at: number) =>
        ctx
          .over(id, at, at)
          .filter((r) => /^(idb write svc-intents|quota svc-intents)/.test(r.why))
          .some((r) => ctx.deaths.some((d) => d.kind !== 'end' && d.at > at && d.at < Math.min(r.to, w.at)));
      const read = ctx.service.log.some(
        (e) =>
          e.op === 'intent' &&
          e.intentId === id &&
          e.outcome === 'answer' &&
          e.foreign === undefined &&
          e.end! + 1_000 < w.at &&
          !lost(e.end!),
      );
      if (read) floor = limitOf(truth.spec);
    }
    const figure = Number(/(\d+) min/.exec(w.message)?.[1] ?? Number.NaN);
    // The figure is read on the verdict clock: never above the minutes since the start, below them by its lag at most.
    const lag = maxVerdictLag(ctx.world.net.dates, births, w.at - FIGURE_LEAD_MS, w.at);
    if (ran < floor - tolerance) v.push(`S1 ${id} warned stuck ${Math.round(ran / 1000)} s after its start (limit ${floor / 1000} s)`);
    else if (executingAt === undefined || w.at < executingAt) v.push(`S1 ${id} warned stuck before it executed`);
    else if (!(figure <= ran / MIN + 2 && figure >= (ran - lag) / MIN - 2))
      v.push(`S1 ${id} warned "${w.message.split('\n').at(-1)}" after ${Math.round(ran / 60_000)} min`);
    else count.ok('S1');
  }
  if (truth) {
    const { intentId, startedAt, spec } = truth;
    const warned = warnings.filter((w) => w.id.includes(intentId));
    const t = ctx.tracked.get(intentId);
    const intent = ctx.service.intents.get(intentId)!;
    const endsAt = intent.steps.at(-1)!.at;
    if (warned.length > 1) v.push(`S1 ${intentId} warned stuck ${warned.length} times`);
    // The service that does not know the intent yet answers NotFound (the notFoundFirst family): its status is
    // unknown to the worker until then, and once marked not found (F1 judges when) it is tracked no more.
    const visibleAt = intent.visibleAt ?? Number.NEGATIVE_INFINITY;
    const notFoundAt = ctx.phaseAt.get(intentId)?.get('not-found');
    if (startedAt === undefined) {
      if (warned.length === 0) count.ok('S1');
    } else if (notFoundAt !== undefined && warned.length === 0) {
      count.excused('S1', 'NotFound through its grace: not found');
    } else if (t && t.removedAt === undefined && !ctx.removeAsked.has(intentId) && NOTIFYING_STATUSES.length > 0) {
      const due = Math.max(startedAt + limitOf(spec), t.from, visibleAt);
      const need = stalenessBound(ctx.ids.length, DEFAULT_TUNING) + 90_000;
      const horizon = Math.min(endsAt, ctx.end);
      const first = warned[0]?.at;
      if (due + need < horizon) {
        if (first !== undefined && first <= due + need) count.ok('S1');
        else {
          const ws = [
            ...ctx.over(intentId, due - 30_000, horizon),
            ...verdictClockWindows(ctx.world.net.dates, births, startedAt + limitOf(spec), due, horizon),
          ];
          const { by, why } = calmDeadline(ws, due, need);
          if (why && (by >= horizon || (first !== undefined && first <= by))) count.excused('S1', why);
          else
            v.push(
              `S1 ${intentId} executing ${Math.round((due + need - startedAt) / MIN)} min (limit ${limitOf(spec) / MIN} min) and ${first === undefined ? 'never warned' : `warned only ${Math.round((first - due) / 1000)} s after its limit`}${why ? ` (due by ${Math.round((by - due) / 1000)} s after it: ${why})` : ''}`,
            );
        }
      }
    }
  }
  return v;
}
