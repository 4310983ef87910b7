/**
 * The tracker's time (docs/time.md "The tracker's time"): durations on the monotonic clock, and wall-clock times read
 * back from storage clamped so that no jump of the user's clock stretches a wait past its own length.
 *
 * - {@link steadyClock}: the wall clock at the engine's start plus the monotonic time since. Within one worker life a
 *   jump of the wall clock (back an hour, forward ten minutes) neither silences the tracker nor bunches its checks;
 *   the timestamps it writes stay on the wall clock as it read at start.
 * - {@link clampTimes}: a record written by an earlier worker, before the wall clock jumped back, holds times in the
 *   future: an event time (last answer, added, retried) is read as at most now, and a deadline (back-off, the pause
 *   after an unchanged long-poll) as at most `maxDelayMs` from now.
 * - {@link aheadMs}, {@link shiftTimes}: times an earlier worker wrote before the clock went back are moved back
 *   together, by as much as the latest of them is ahead, before they are clamped; {@link sameTimes} tells a record
 *   still as read from one already moved.
 * - {@link pauseLeftMs}: the tracker-wide Retry-After pause, stored as wall times, is at most its own length away.
 * - {@link shiftPause}: the pause moved from a worker's steady clock to the wall clock (for listeners, and for a later
 *   worker, which reads it on both), so that a wall-clock jump inside one worker's life does not stretch the pause.
 * All pure.
 */
import type { TrackedIntent, TrackerState } from '../store';
import type { Clock } from '../time/clock';

/**
 * A clock whose `now()` is `clock.now()` at creation plus the monotonic time elapsed since: it never jumps. `monotonic`
 * and `sleep` are `clock`'s.
 */
export function steadyClock(clock: Clock): Clock {
  const wallAtStart = clock.now();
  const monoAtStart = clock.monotonic();
  return {
    now: () => wallAtStart + (clock.monotonic() - monoAtStart),
    monotonic: () => clock.monotonic(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
  };
}

/**
 * `t` as the scheduler and the watchdogs must read it at `now` (ms): event times (`lastCheckedAt`, `resumedAt`,
 * `addedAt`, `lastChangeAt`, `lastError.at`, `notFoundGrace.at`) at most `now`, a back-off (`retry.nextAt`) at most its
 * own length from now (`nextAt - retry.at`; without `at`, `maxDelayMs`), `nextCheckAt` at most `maxDelayMs` from now.
 * Returns `t` itself when nothing needs clamping.
 */
export function clampTimes(t: TrackedIntent, now: number, maxDelayMs: number): TrackedIntent {
  const late = now + maxDelayMs;
  const retryLate = t.retry ? now + (t.retry.at === undefined ? maxDelayMs : Math.max(0, t.retry.nextAt - t.retry.at)) : late;
  const past = (x: number | undefined) => x !== undefined && x > now;
  const far = (x: number | undefined, limit: number) => x !== undefined && x > limit;
  if (
    !past(t.lastCheckedAt) &&
    !past(t.resumedAt) &&
    !past(t.addedAt) &&
    !past(t.lastChangeAt) &&
    !past(t.lastError?.at) &&
    !past(t.notFoundGrace?.at) &&
    !far(t.retry?.nextAt, retryLate) &&
    !far(t.nextCheckAt, late)
  ) {
    return t;
  }
  const c: TrackedIntent = { ...t, addedAt: Math.min(t.addedAt, now) };
  if (t.lastCheckedAt !== undefined) c.lastCheckedAt = Math.min(t.lastCheckedAt, now);
  if (t.resumedAt !== undefined) c.resumedAt = Math.min(t.resumedAt, now);
  if (t.lastChangeAt !== undefined) c.lastChangeAt = Math.min(t.lastChangeAt, now);
  if (t.lastError) c.lastError = { ...t.lastError, at: Math.min(t.lastError.at, now) };
  if (t.notFoundGrace) c.notFoundGrace = { ...t.notFoundGrace, at: Math.min(t.notFoundGrace.at, now) };
  if (t.retry) c.retry = { ...t.retry, nextAt: Math.min(t.retry.nextAt, retryLate) };
  if (t.nextCheckAt !== undefined) c.nextCheckAt = Math.min(t.nextCheckAt, late);
  return c;
}

/**
 * How far (ms, ≥ 0) the times an earlier worker wrote run ahead of wall time `now`: the latest event time of `records`
 * (`lastCheckedAt`, `lastChangeAt`, `resumedAt`, `addedAt`, `lastError.at`, `notFoundGrace.at`) and of the pause's
 * start (`state.pausedAt`),
 * minus `now`; times that are not finite numbers are left out.
 * Positive only when the user's clock went back between the two workers (by at least that much): those times are
 * then moved back together by it ({@link shiftTimes}), which keeps their order — a pause that ended before the last
 * answer stays ended — where clamping each to `now` on its own would start such a pause again.
 */
export function aheadMs(records: readonly TrackedIntent[], state: Pick<TrackerState, 'pausedAt'>, now: number): number {
  let latest = state.pausedAt ?? Number.NEGATIVE_INFINITY;
  // A time that is not a finite number (a damaged record) says nothing of the clock: left out, it cannot make every
  // record's times NaN.
  const at = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : latest);
  for (const t of records)
    latest = Math.max(
      latest,
      at(t.addedAt),
      at(t.lastCheckedAt),
      at(t.lastChangeAt),
      at(t.resumedAt),
      at(t.lastError?.at),
      at(t.notFoundGrace?.at),
    );
  return Number.isFinite(latest) ? Math.max(0, latest - now) : 0;
}

/**
 * `t` with every time the tracker reads (events, the NotFound grace's last count and deadlines) moved `ms` earlier; `t`
 * itself when `ms` is 0. The last
 * error's time is among them: it is when the intent was last heard of (`lastHeardAt`, ./policy), which orders the
 * individual checks — left ahead, an intent whose last answer was an error (NotFound) waits the whole shift more.
 */
export function shiftTimes(t: TrackedIntent, ms: number): TrackedIntent {
  if (ms === 0) return t;
  const back = (x: number | undefined) => (x === undefined ? undefined : x - ms);
  const c: TrackedIntent = { ...t, addedAt: t.addedAt - ms };
  for (const k of ['lastCheckedAt', 'resumedAt', 'lastChangeAt', 'nextCheckAt'] as const) if (t[k] !== undefined) c[k] = back(t[k]);
  if (t.lastError) c.lastError = { ...t.lastError, at: t.lastError.at - ms };
  if (t.notFoundGrace) c.notFoundGrace = { ...t.notFoundGrace, at: t.notFoundGrace.at - ms };
  if (t.retry) c.retry = { ...t.retry, nextAt: t.retry.nextAt - ms, ...(t.retry.at === undefined ? {} : { at: t.retry.at - ms }) };
  return c;
}

/**
 * True when `a` and `b` hold the same times {@link shiftTimes} moves (event times, back-off, next check; `Object.is`,
 * so a damaged NaN matches itself): the record read at load is told from one whose times were already moved back (a
 * later write stored the copy held in memory), which must not be moved again.
 */
export function sameTimes(a: TrackedIntent, b: TrackedIntent): boolean {
  const pairs: Array<[number | undefined, number | undefined]> = [
    [a.addedAt, b.addedAt],
    [a.lastCheckedAt, b.lastCheckedAt],
    [a.resumedAt, b.resumedAt],
    [a.lastChangeAt, b.lastChangeAt],
    [a.nextCheckAt, b.nextCheckAt],
    [a.lastError?.at, b.lastError?.at],
    [a.retry?.nextAt, b.retry?.nextAt],
    [a.retry?.at, b.retry?.at],
  ];
  return pairs.every(([x, y]) => Object.is(x, y));
}

/**
 * How long (ms, ≥ 0) the tracker-wide pause of `state` still holds at wall time `now`: `pausedUntil - now`, but never
 * more than the pause's own length (`pausedUntil - pausedAt`; without `pausedAt`, at most `maxMs`).
 */
export function pauseLeftMs(state: Pick<TrackerState, 'pausedUntil' | 'pausedAt'>, now: number, maxMs: number): number {
  if (state.pausedUntil === undefined) return 0;
  const length = state.pausedAt === undefined ? maxMs : Math.min(maxMs, state.pausedUntil - state.pausedAt);
  return Math.max(0, Math.min(state.pausedUntil - now, length));
}

/**
 * `state` with its pause times (`pausedAt`, `pausedUntil`, ms) moved `ms` later (earlier when negative); `state` itself
 * when `ms` is 0 or no pause is kept. The engine keeps them on its steady clock; moved by how far the wall clock read
 * ahead of it (`pauseWallAheadMs`, wall − steady) they are on the wall clock: after an NTP step back inside a worker's
 * life its steady times run ahead of the wall clock, and a pause read on them alone would hold a later worker that
 * much longer than the service asked.
 */
export function shiftPause(state: TrackerState, ms: number): TrackerState {
  if (ms === 0 || (state.pausedAt === undefined && state.pausedUntil === undefined)) return state;
  const moved: TrackerState = { ...state };
  if (state.pausedAt !== undefined) moved.pausedAt = state.pausedAt + ms;
  if (state.pausedUntil !== undefined) moved.pausedUntil = state.pausedUntil + ms;
  return moved;
}
