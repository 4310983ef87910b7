/**
 * The `bigIntIntent` family of the world campaign (symptom 11 of issue 27, GetIntent's side): GetIntent answers of a
 * share of the intents carry integers above 2^53 (2^256 − 1, bare JSON numbers) in fields typed as numbers — `id`,
 * `projectId`, the quote's `fromAmountUsd`, `maxSlippage` and (for some) `estimatedDuration`, the fees' `totalFeeUsd`.
 * The worker reads GetIntent for an intent's ETA baseline (lib/worker/eta-baseline.ts) and its receipt details.
 *
 * The oracle (B1, per intent whose GetIntent carried them): such an answer is read (the intent is still tracked and
 * told: I1, I3 as everywhere), and an estimate of 2^256 − 1 seconds is no estimate — no record keeps an
 * `estimatedDuration` above a day (the bound the `track` message puts on one, lib/messages.ts), so the stuck warning
 * and the popup's countdown are not put off by 10^69 years.
 */
import fc from 'fast-check';
import type { CheckContext, FamilyContext, FamilyCount } from './family-types';

/** The longest estimate (s) a record may keep: the `track` message's bound. */
export const MAX_ESTIMATE_S = 86_400;

/** The arbitrary of the family's part of a schedule (undefined: off). */
export const bigIntIntentArb = fc.option(fc.record({ rate: fc.constantFrom(0.3, 1), inEstimate: fc.constantFrom(0.5, 1) }), {
  nil: undefined,
});

/** The family's part of a schedule. */
export type BigIntIntentSpec = NonNullable<typeof bigIntIntentArb extends fc.Arbitrary<infer T> ? T : never>;

/** Per intent drawn: whether its estimate is 2^256 − 1 too. */
export type BigIntIntentObs = Map<string, boolean>;

/** Sets the family's answers up (after every other family's patch: an estimate set by one is left as it is). */
export function playBigIntIntent(ctx: FamilyContext, spec: BigIntIntentSpec | undefined): BigIntIntentObs | undefined {
  if (!spec) return undefined;
  const drawn: BigIntIntentObs = new Map();
  for (const id of ctx.ids) if (ctx.random() < spec.rate) drawn.set(id, ctx.random() < spec.inEstimate);
  ctx.patches.push((op, id, result) => {
    if (op !== 'intent' || id === undefined || !drawn.has(id)) return;
    const intent = (result as { intent?: Record<string, unknown> }).intent;
    if (!intent || intent.intentId !== id) return;
    const quote = { ...(intent.quote as Record<string, unknown> | undefined) };
    Object.assign(quote, { fromAmountUsd: '__BIG__', maxSlippage: '__BIG__' });
    if (drawn.get(id) && quote.estimatedDuration === undefined) quote.estimatedDuration = '__BIG__';
    Object.assign(intent, { id: '__BIG__', projectId: '__BIG__', quote, fees: { totalFeeUsd: '__BIG__' } });
  });
  return drawn;
}

/** B1: no record keeps an estimate above a day (see the module's docstring). */
export function checkBigIntIntent(ctx: CheckContext, drawn: BigIntIntentObs | undefined, count: FamilyCount): string[] {
  const v: string[] = [];
  for (const r of ctx.finalList) {
    if (r.estimatedDuration !== undefined && !(r.estimatedDuration > 0 && r.estimatedDuration <= MAX_ESTIMATE_S))
      v.push(`B1 ${r.intentId} keeps an estimate of ${r.estimatedDuration} s`);
    else if (drawn?.has(r.intentId)) count.ok('B1');
  }
  return v;
}
