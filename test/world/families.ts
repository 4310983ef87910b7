/**
 * The world campaign's families of user actions and answers beyond the first table (docs/simulation.md): track-many
 * and import (`trackMany`, ./trackmany.ts), clicks on notifications of removed intents (`clickRemoved`, ./clicks.ts),
 * integers above 2^53 in GetIntent (`bigIntIntent`, ./getintent.ts), the stuck warning's timing (`stuck`,
 * ./stuck.ts), watched addresses ticked, unticked and ticked again (`watched`, ./watched.ts), on-chain verification
 * against simulated chains (`chain`, ./chain-family.ts), intents the service does not know yet (`notFoundFirst`,
 * ./notfound.ts), GetIntentHistory as a hostile service answers it (`adversarialHistory`, ./history.ts), and the user's
 * look-ups (`lookups`, ./lookups.ts). Each has its switch, its part of the schedule ({@link extraArb}), what it plays
 * in a run ({@link playFamilies}) and its oracle ({@link checkFamilies}: T1, C1, B1, S1, W1, V1, F1, H1, L1, counted
 * like the others).
 */
import fc from 'fast-check';
import { type ChainObs, chainArb, checkChain, playChain, withChainIntents } from './chain-family';
import { type ClickObs, checkClicksAfterRemoval, clicksArb, playClicks } from './clicks';
import type { CheckContext, ExtraInvariant, FamilyContext, FamilyCount, Patch } from './family-types';
import { type BigIntIntentObs, bigIntIntentArb, checkBigIntIntent, playBigIntIntent } from './getintent';
import { checkHistory, type HistoryObs, historyArb, playHistory } from './history';
import { checkLookups, type LookupsObs, lookupsArb, playLookups } from './lookups';
import { prng } from './network';
import { checkNotFound, type NotFoundObs, notFoundArb, notFoundUntold, playNotFound } from './notfound';
import { checkStuck, playStuck, stuckArb, withStuckIntent } from './stuck';
import { checkTrackMany, playTrackMany, type TrackManyObs, trackManyArb, trackManyMembers } from './trackmany';
import { checkWatched, playWatched, type WatchedObs, watchedArb } from './watched';

/** The families of this module, each a switch of `WORLD_FAULTS`. */
export const EXTRA_FAMILIES = [
  'trackMany',
  'clickRemoved',
  'bigIntIntent',
  'stuck',
  'watched',
  'chain',
  'notFoundFirst',
  'adversarialHistory',
  'lookups',
] as const;
/** One of them. */
export type ExtraFamily = (typeof EXTRA_FAMILIES)[number];

/** The invariants their oracles check (docs/simulation.md). */
export const EXTRA_INVARIANTS = ['T1', 'C1', 'B1', 'S1', 'W1', 'V1', 'F1', 'H1', 'L1'] as const satisfies readonly ExtraInvariant[];

/** The schedule's part of these families, drawn only for the families on (the others are empty). */
export function extraArb(on: ReadonlySet<string>) {
  const when = <T>(family: ExtraFamily, arb: fc.Arbitrary<T>, off: T): fc.Arbitrary<T> => (on.has(family) ? arb : fc.constant(off));
  return fc.record({
    trackMany: when('trackMany', trackManyArb, undefined),
    clicks: when('clickRemoved', clicksArb, []),
    bigIntIntent: when('bigIntIntent', bigIntIntentArb, undefined),
    stuck: when('stuck', stuckArb, undefined),
    watched: when('watched', watchedArb, undefined),
    chain: when('chain', chainArb, undefined),
    notFound: when('notFoundFirst', notFoundArb, undefined),
    history: when('adversarialHistory', historyArb, undefined),
    lookups: when('lookups', lookupsArb, undefined),
  });
}

/** The schedule's part of these families. */
export type Extra = typeof extraArb extends (on: ReadonlySet<string>) => fc.Arbitrary<infer T> ? T : never;

/** What the families saw in one run. */
export interface FamilyObs {
  trackMany?: TrackManyObs;
  clicks: ClickObs[];
  bigIntIntent?: BigIntIntentObs;
  stuck?: ReturnType<typeof playStuck>;
  watched?: WatchedObs;
  chain?: ChainObs;
  notFound?: NotFoundObs;
  history?: HistoryObs;
  lookups?: LookupsObs;
}

/** Why a family's intent may go untold although it ended notifying (the main oracle's I3), or undefined. */
export function untoldByFamilies(obs: FamilyObs | undefined, id: string, phaseAt: Map<string, Map<string, number>>): string | undefined {
  return notFoundUntold(obs?.notFound, id, phaseAt.get(id)?.get('not-found')) ? 'NotFound through its grace: not found' : undefined;
}

/** The intents of the schedule that the families track themselves (not by their own `track` message). */
export function trackedByFamilies(extra: Extra | undefined, count: number): Set<number> {
  return trackManyMembers(extra?.trackMany, count);
}

/** The schedule as these families need it (the stuck family's intent made slow; a history for watched addresses). */
export function shapeIntents<S extends Parameters<typeof withStuckIntent>[0] & { extra?: Extra }>(s: S): S {
  const stuckIndex = s.extra?.stuck ? s.extra.stuck.index % s.intents.length : undefined;
  const shaped = withChainIntents(withStuckIntent(s, s.extra?.stuck) as never, s.extra?.chain, stuckIndex) as S;
  return s.extra?.watched ? { ...shaped, history: true } : shaped;
}

/** Plays the families of a run (before the world runs): their answers, actions and observations. */
export function playFamilies(ctx: Omit<FamilyContext, 'patches' | 'random'>, extra: Extra | undefined, seed: number): FamilyObs {
  const patches: Patch[] = [];
  const full: FamilyContext = { ...ctx, patches, random: prng(seed ^ 0xfa11) };
  const obs: FamilyObs = { clicks: [] };
  if (!extra) return obs;
  obs.stuck = playStuck(full, extra.stuck);
  obs.bigIntIntent = playBigIntIntent(full, extra.bigIntIntent);
  obs.trackMany = playTrackMany(full, extra.trackMany);
  obs.clicks = playClicks(full, extra.clicks);
  obs.watched = playWatched(full, extra.watched);
  obs.chain = playChain(full, extra.chain, extra.stuck ? extra.stuck.index % ctx.ids.length : undefined);
  obs.notFound = playNotFound(full, extra.notFound);
  obs.history = playHistory(full, extra.history);
  obs.lookups = playLookups(full, extra.lookups);
  if (patches.length > 0)
    ctx.world.net.patch = (op, intentId, result) => {
      for (const p of patches) p(op, intentId, result);
    };
  return obs;
}

/** Checks the families of a run; resolves with the violations. */
export async function checkFamilies(ctx: CheckContext, obs: FamilyObs | undefined, count: FamilyCount): Promise<string[]> {
  if (!obs) return [];
  const full = ctx as CheckContext & FamilyContext;
  return [
    ...checkTrackMany(full, obs.trackMany, count),
    ...checkClicksAfterRemoval(obs.clicks, count, ctx.world.config.rejectNotificationAt.size > 0),
    ...checkBigIntIntent(full, obs.bigIntIntent, count),
    ...checkStuck(full, obs.stuck, count),
    ...(await checkWatched(full, obs.watched, count)),
    ...checkChain(ctx, obs.chain, count),
    ...checkNotFound(full, obs.notFound, count),
    ...checkHistory(full, obs.history, count),
    ...checkLookups(full, obs.lookups, count),
  ];
}
