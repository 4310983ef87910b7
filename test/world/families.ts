/**
 * The world campaign's families of user actions and answers beyond the first table (docs/simulation.md): track-many
 * and import (`trackMany`, ./trackmany.ts), clicks on notifications of removed intents (`clickRemoved`, ./clicks.ts),
 * integers above 2^53 in GetIntent (`bigIntIntent`, ./getintent.ts), the stuck warning's timing (`stuck`,
 * ./stuck.ts) and watched addresses ticked, unticked and ticked again (`watched`, ./watched.ts). Each has its switch, its part of the schedule ({@link extraArb}), what it plays in a run
 * ({@link playFamilies}) and its oracle ({@link checkFamilies}: T1, C1, B1, S1, W1, counted like the others).
 */
import fc from 'fast-check';
import type { TrackedIntent } from '@/lib/store';
import type { FakeService, LogEntry } from '../tracker/fake-service';
import { type ClickObs, checkClicksAfterRemoval, clicksArb, playClicks } from './clicks';
import { type BigIntIntentObs, bigIntIntentArb, checkBigIntIntent, playBigIntIntent } from './getintent';
import { prng } from './network';
import type { Excuse } from './run';
import { checkStuck, playStuck, stuckArb, withStuckIntent } from './stuck';
import type { WorldTime } from './time';
import { checkTrackMany, playTrackMany, type TrackManyObs, trackManyArb, trackManyMembers } from './trackmany';
import { checkWatched, playWatched, type WatchedObs, watchedArb } from './watched';
import type { World } from './world';

/** The families of this module, each a switch of `WORLD_FAULTS`. */
export const EXTRA_FAMILIES = ['trackMany', 'clickRemoved', 'bigIntIntent', 'stuck', 'watched'] as const;
/** One of them. */
export type ExtraFamily = (typeof EXTRA_FAMILIES)[number];

/** The invariants their oracles check (docs/simulation.md). */
export const EXTRA_INVARIANTS = ['T1', 'C1', 'B1', 'S1', 'W1'] as const;

/** The schedule's part of these families, drawn only for the families on (the others are empty). */
export function extraArb(on: ReadonlySet<string>) {
  const when = <T>(family: ExtraFamily, arb: fc.Arbitrary<T>, off: T): fc.Arbitrary<T> => (on.has(family) ? arb : fc.constant(off));
  return fc.record({
    trackMany: when('trackMany', trackManyArb, undefined),
    clicks: when('clickRemoved', clicksArb, []),
    bigIntIntent: when('bigIntIntent', bigIntIntentArb, undefined),
    stuck: when('stuck', stuckArb, undefined),
    watched: when('watched', watchedArb, undefined),
  });
}

/** The schedule's part of these families. */
export type Extra = typeof extraArb extends (on: ReadonlySet<string>) => fc.Arbitrary<infer T> ? T : never;

/** A change of one answer of the configured service (test/world/network.ts `patch`). */
type Patch = (op: LogEntry['op'], intentId: string | undefined, result: unknown) => void;

/** What a family's play and check see of the run. */
export interface FamilyContext {
  T0: number;
  world: World;
  time: WorldTime;
  service: FakeService;
  /** The schedule's intents' ids. */
  ids: string[];
  tracked: Map<string, { from: number; removedAt?: number }>;
  removeAsked: Set<string>;
  /** Runs `fn` at world time `t` (ms since the world's start). */
  at(t: number, fn: () => void): void;
  /** True time (ms since the epoch). */
  now(): number;
  /** Draws of the families (seeded). */
  random(): number;
  patches: Patch[];
}

/** What the families saw in one run. */
export interface FamilyObs {
  trackMany?: TrackManyObs;
  clicks: ClickObs[];
  bigIntIntent?: BigIntIntentObs;
  stuck?: ReturnType<typeof playStuck>;
  watched?: WatchedObs;
}

/** Counts a check of an extra invariant, or its excuse. */
export interface FamilyCount {
  ok(i: (typeof EXTRA_INVARIANTS)[number]): void;
  excused(i: (typeof EXTRA_INVARIANTS)[number], why: string): void;
}

/** The intents of the schedule that the families track themselves (not by their own `track` message). */
export function trackedByFamilies(extra: Extra | undefined, count: number): Set<number> {
  return trackManyMembers(extra?.trackMany, count);
}

/** The schedule as these families need it (the stuck family's intent made slow; a history for watched addresses). */
export function shapeIntents<S extends Parameters<typeof withStuckIntent>[0]>(s: S): S {
  const shaped = withStuckIntent(s, s.extra?.stuck) as S;
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
  if (patches.length > 0)
    ctx.world.net.patch = (op, intentId, result) => {
      for (const p of patches) p(op, intentId, result);
    };
  return obs;
}

/** What the families' oracles read beyond {@link FamilyContext}. */
export interface CheckContext extends Omit<FamilyContext, 'at' | 'patches' | 'random'> {
  end: number;
  finalList: TrackedIntent[];
  desktop: World['profile']['desktop'];
  kind: 'chrome' | 'firefox';
  /** Per intent: when it was told on its own (test/notify/desktop-oracle.ts `tellings`). */
  toldAt: Map<string, number[]>;
  /** Deaths and IndexedDB refusals in the run. */
  deathsOrRefusals: number;
  /** The oracle's windows about `id` (undefined: every intent) overlapping [from, to]. */
  over(id: string | undefined, from: number, to: number): Excuse[];
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
  ];
}
