/**
 * The watchdogs, as pure functions: expiry (COMMITTED past the execution window) and stuck (EXECUTING far past its
 * expected time). Each acts only on an answer at most `freshForMs` old (invariant I2); on an older one it asks for a
 * fresh GetIntentReceipt first ("verify").
 */
import { baselineOf, isPlausibleStart, serviceTimeMs, startedAtMs, stuckLimitMs } from '../eta';
import type { TrackedIntent } from '../store';
import type { TrackerTuning } from './types';

/** What a watchdog wants done with one intent now; `wakeAt` (ms) is when to look again if nothing is due yet. */
export type Watch =
  | { action: 'none'; wakeAt?: number }
  | { action: 'verify' }
  | { action: 'expire' }
  | { action: 'stuck'; minutes: number };

type Tuning = Pick<TrackerTuning, 'commitWindowMs' | 'stuckAfterMs' | 'freshForMs'>;

/** The message shown for an expired intent. */
export const EXPIRED_MESSAGE = 'Not executed within 10 minutes of commit: the quote expired. A new quote and commit are needed.';

/**
 * Checks one tracked intent at local time `now` (ms) and service time `serviceNow` (ms, `service-clock.ts`): the
 * receipt's timestamps are compared with `serviceNow`; `wakeAt` is local. `answerAgeMs` is how old (ms) the last answer
 * that showed the believed status is, measured by the caller on the monotonic clock (the engine: only answers it
 * received itself, never a stale one); by default the record's `lastCheckedAt` read against `now`. The watchdog acts
 * only when it is under `freshForMs` (I2), else it asks for a fresh read ("verify"). `stuckWarnings` is false when the notifier has no stuck warning. A time the service wrote that does not parse
 * or is absurd (Go's zero time, more than 10 years
 * before `serviceNow`: `lib/eta` `serviceTimeMs`, `isPlausibleStart`) is unknown: a start falls back to `createdAt`, and with
 * neither known the watchdog does nothing.
 */
export function watch(
  t: TrackedIntent,
  now: number,
  tuning: Tuning,
  stuckWarnings: boolean,
  serviceNow: number = now,
  answerAgeMs: number = now - (t.lastCheckedAt ?? Number.NEGATIVE_INFINITY),
): Watch {
  const fresh = answerAgeMs < tuning.freshForMs;
  /** A service time as local time. */
  const local = (serviceMs: number) => now + (serviceMs - serviceNow);
  if (t.status === 'COMMITTED') {
    const created = serviceTimeMs(t.receipt?.createdAt);
    if (created === undefined || !isPlausibleStart(created, serviceNow)) return { action: 'none' };
    const deadline = created + tuning.commitWindowMs;
    if (serviceNow <= deadline) return { action: 'none', wakeAt: local(deadline) + 1 };
    return fresh ? { action: 'expire' } : { action: 'verify' };
  }
  if (t.status === 'EXECUTING' && stuckWarnings && t.stuckNotifiedAt === undefined) {
    const started = startedAtMs(t.receipt);
    if (started === undefined || !isPlausibleStart(started, serviceNow)) return { action: 'none' };
    const limit = stuckLimitMs(baselineOf(t), tuning.stuckAfterMs);
    if (serviceNow - started <= limit) return { action: 'none', wakeAt: local(started + limit) + 1 };
    return fresh ? { action: 'stuck', minutes: Math.round((serviceNow - started) / 60_000) } : { action: 'verify' };
  }
  return { action: 'none' };
}
