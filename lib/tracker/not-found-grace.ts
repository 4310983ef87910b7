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
 * worker served after its last NotFound answer before it stopped: a grace that spans a worker's death ends that much
 * later. Pure.
 */
import type { TrackedIntent } from '../store';

/**
 * How much of the grace (ms) `t` has served at `now`: what earlier answers recorded (`notFoundGrace.servedMs`) plus
 * the time since the last of them (`notFoundGrace.at`; none yet: since `addedAt`) — but only the part inside this
 * worker's life (`lifeStartedAt`, when the engine started): `now`, `lifeStartedAt` and any time this worker wrote are
 * on its steady clock (lib/tracker/tracker-time.ts), while an earlier worker's times are on another clock; at load
 * they were clamped to at most the load's time, so they count from `lifeStartedAt`.
 */
export function graceServed(t: Pick<TrackedIntent, 'addedAt' | 'notFoundGrace'>, now: number, lifeStartedAt: number): number {
  const since = Math.max(t.notFoundGrace?.at ?? t.addedAt, lifeStartedAt);
  return (t.notFoundGrace?.servedMs ?? 0) + Math.max(0, now - since);
}

/** The record's grace counted up to `now` (ms, steady): `servedMs` as {@link graceServed} gives it. */
export function graceAt(servedMs: number, now: number): NonNullable<TrackedIntent['notFoundGrace']> {
  return { servedMs, at: now };
}
