/**
 * The NotFound grace (docs/tracking.md "Faults"): an intent the service does not know yet is asked again until
 * `notFoundGraceMs` (10 min) of it has been served, then it is _not found_. The grace is served time: what running
 * workers measured on their monotonic clock since the intent was added (since its import, for an imported one),
 * kept in the record (`TrackedIntent.notFoundGrace`) at every NotFound answer, as the Retry-After pause is kept
 * (lib/tracker/pause.ts). It is never read off the wall clock across worker lives: a jump of the user's clock
 * forward, another browser's clock in an import's `addedAt`, or times moved back at load can no longer shorten it —
 * the intent is never marked not found before 10 minutes have truly passed since it was added.
 *
 * Time while no worker ran is not counted (nothing measures it: the wall clock may have jumped meanwhile), nor what a
 * worker served after it last wrote the grace down before it stopped: a grace that spans a worker's death ends that
 * much later. A running worker writes it at each NotFound answer, and, once one came, every
 * {@link GRACE_CHECKPOINT_MS} while none comes (a Retry-After pause, checks waiting behind a hold of the request
 * budget, or failing otherwise), so a death loses at most that, or the back-off it cut short. Pure.
 */
import type { TrackedIntent } from '../store';

/**
 * How much of the grace (ms) `t` has served at `now`: what earlier answers recorded (`notFoundGrace.servedMs`) plus
 * the time since the last of them — but only the part inside this worker's life. `now` and `lifeStartedAt` (when
 * the engine started) are on this worker's steady clock (lib/tracker/tracker-time.ts), and so is `notFoundGrace.at`
 * when this worker wrote it (`life` is its `lifeStartedAt`: counted from there). An earlier worker's time is on
 * another clock: counted from `lifeStartedAt` — never earlier, and never from a time of an earlier life that happens
 * to read later than this one's start (its times were moved back at load, but a refused write keeps them as they
 * were). Without a life (an import, a record of an earlier version): from `notFoundGrace.at` or `addedAt` when it lies
 * in this life (after its start, not after `now`), else from `lifeStartedAt`.
 */
export function graceServed(t: Pick<TrackedIntent, 'addedAt' | 'notFoundGrace'>, now: number, lifeStartedAt: number): number {
  const g = t.notFoundGrace;
  const from = g?.at ?? t.addedAt;
  // A time of this life lies between its start and now; one after now was written by an earlier life.
  const mine = g?.life === undefined || g.life === lifeStartedAt;
  const since = mine && from >= lifeStartedAt && from <= now ? from : lifeStartedAt;
  return (g?.servedMs ?? 0) + Math.max(0, now - since);
}

/**
 * While no NotFound answer writes it (checks waiting behind a hold of the worker's request budget, or failing another
 * way), the grace served is written down this often (ms): a worker that dies meanwhile loses at most this much of it,
 * beside the back-off its death cut short.
 */
export const GRACE_CHECKPOINT_MS = 10_000;

/**
 * When (ms, on the steady clock of the worker whose engine started at `lifeStartedAt`) the grace of `t` is next to be
 * written down ({@link GRACE_CHECKPOINT_MS} after this life last wrote it, or after this life began); undefined for a
 * record with no grace to keep: not tracking, known (it has a receipt), or never answered NotFound (no grace written
 * yet — so that thousands of intents just tracked and waiting for their first check are not written over and over).
 * Pure.
 */
export function graceKeepAt(t: Pick<TrackedIntent, 'phase' | 'receipt' | 'notFoundGrace'>, lifeStartedAt: number): number | undefined {
  const g = t.notFoundGrace;
  if (t.phase !== 'tracking' || t.receipt || !g) return undefined;
  return (g.life === lifeStartedAt ? g.at : lifeStartedAt) + GRACE_CHECKPOINT_MS;
}

/** The record's grace counted up to `now` (ms, steady) by the worker whose engine started at `lifeStartedAt`. */
export function graceAt(servedMs: number, now: number, lifeStartedAt: number): NonNullable<TrackedIntent['notFoundGrace']> {
  return { servedMs, at: now, life: lifeStartedAt };
}
