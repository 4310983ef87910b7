/**
 * The request budget's limits and the types its callers use (lib/api/budget.ts): who asks (`Lane`), the options of
 * the budget and of one request, the rate of I5 (docs/tracking.md "Invariants I1–I6"), the tracker's own pace, the
 * longest `Retry-After` hold kept and how a delta-seconds value is read. No state: constants, types and one pure
 * function.
 */
import type { Clock } from '../time/clock';

/** Who is asking: decides the place in line and whether the request waits for the pace. */
export type Lane = 'user' | 'tracker' | 'background';

/** The time source of the budget (the tracker's `Clock` fits; only `monotonic` and `sleep` are used). */
export type BudgetClock = Pick<Clock, 'monotonic' | 'sleep'>;

/** Tuning of the budget. */
export interface RequestBudgetOptions {
  /** Requests of the tracker and the background in flight at most (default 4); see {@link USER_PLACES}. */
  maxInFlight?: number;
  /** Requests in any 60 s window at most, and the background pace (default {@link WORKER_REQUESTS_PER_MINUTE}). */
  perMinute?: number;
  /** Tokens of the background pace held at most (default 2). */
  burst?: number;
  /** Background requests in flight at most (default 1): the tracker's and the user's keep the other places. */
  maxBackground?: number;
  clock?: BudgetClock;
}

/** Options of one request. */
export interface SendOptions {
  /** Aborts the request while it waits (it is then not sent) or while it runs. */
  signal?: AbortSignal;
  /**
   * Asked when the request's turn comes, just before it is sent: false (or a rejection) means it is not sent and the
   * call rejects with {@link NotWantedError} (an ETA look-up for an intent removed meanwhile).
   */
  stillWanted?: () => boolean | Promise<boolean>;
  /** The service the request goes to (its `Retry-After` holds apply; default `''`). */
  scope?: string;
}

/** The request was not sent: `stillWanted` said no when its turn came. */
export class NotWantedError extends Error {
  constructor() {
    super('The request was no longer wanted when its turn came; it was not sent.');
    this.name = 'NotWantedError';
  }
}

/**
 * Places beyond `maxInFlight` kept for the user's own look-ups (History, Search, receipt details, Test connection):
 * with every other place held — long-polls the server holds up to 48 s, a request that never answers until its
 * time-out — a look-up still goes at once (I5, the user first), and waits for a place only behind the user's own.
 * So at most `maxInFlight` + 1 (5) requests in flight, under Chromium's 6 a host.
 */
export const USER_PLACES = 1;
/** Invariant I5: the most requests the worker sends in any 60 s window. */
export const WORKER_REQUESTS_PER_MINUTE = 60;
/** A background request is due, whatever the pace's tokens, once the lane sent nothing for this long (ms). */
export const BACKGROUND_DUE_AFTER_MS = 10_000;
/** The longest `Retry-After` hold kept (ms): one hour. A longer one (days, or milliseconds sent as seconds) is cut. */
export const MAX_HOLD_MS = 3_600_000;

/**
 * The seconds a `Retry-After` of `value` delta-seconds means (RFC 9110 §10.2.3): `value`, except that a whole
 * multiple of 1,000 from 1,000 on is read as milliseconds sent by mistake (`1000` is 1 s, `600000` 10 min).
 * Services that mean seconds send round minutes and hours (60, 120, 300, 3600, 86400), none of them such a multiple;
 * the rare real hold of 1,000 s or more is then shorter, and a 429 that follows sets it again. Not capped here.
 */
export function retryAfterDeltaSeconds(value: number): number {
  return value >= 1000 && value % 1000 === 0 ? value / 1000 : value;
}

/**
 * The tracker's own pace: a bucket of {@link TRACKER_BURST} requests refilled at {@link TRACKER_PER_MINUTE} a minute.
 * Together at most 5 + 54 = 59 in any 60 s, so the tracker alone never spends the window: after a burst (a start, a
 * pasted list's first reads answered at once) it goes on at 54 a minute instead of stopping for a minute.
 */
export const TRACKER_BURST = 5;
/** See {@link TRACKER_BURST}. */
export const TRACKER_PER_MINUTE = 54;
