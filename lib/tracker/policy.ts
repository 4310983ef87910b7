/**
 * The tracking policy as pure functions: which statuses end tracking or notify, what an error means, how long to
 * back off, how to rank intents for the long-poll slots, and the staleness bound S(N) of invariant I1.
 */
import { isKeyRejected, isNotFound, isOriginRejected, isRateLimited } from '../api/errors';
import { FINAL_INTENT_STATUSES, type TransactionStatus } from '../api/status';
import type { TrackedIntent } from '../store';
import type { TrackerTuning } from './types';

/** Statuses that raise a desktop notification (the table of outcomes, `lib/notify/outcomes.ts`). */
export { NOTIFYING_STATUSES } from '../format/outcomes';

/** True when no more progress is expected for an intent in this status (SUCCEEDED, FAILED, REFUNDED, ABORTED, INVALID). */
export function isFinalStatus(status: string | undefined): boolean {
  return FINAL_INTENT_STATUSES.some((s) => s === status);
}

/**
 * Back-off delay in ms after `attempt` consecutive failures (1-based): full jitter,
 * `random × min(cap, base × 2^(attempt-1))`, at least 250 ms; never less than `retryAfterMs` when given.
 */
export function backoffDelay(attempt: number, random: number, baseMs: number, capMs: number, retryAfterMs = 0): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.max(250, Math.round(random * ceiling), retryAfterMs);
}

/**
 * Delay in ms before asking again about an intent the service answered NotFound for, after `attempt` such answers:
 * 2 s growing by a quarter each time, at most 30 s, with up to 20 % jitter. Short at first because a just-committed
 * intent is most likely to appear in the first seconds.
 */
export function notFoundDelay(attempt: number, random: number): number {
  const base = Math.min(30_000, 2_000 * 1.25 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.2 * random));
}

/** What an error from the service means for the tracker. */
export type ErrorMeaning = 'key-rejected' | 'origin-rejected' | 'rate-limited' | 'not-found' | 'retry';

/** Classifies an error thrown by the transport (see `lib/api/errors`). */
export function errorMeaning(err: unknown): ErrorMeaning {
  if (isKeyRejected(err)) return 'key-rejected';
  if (isOriginRejected(err)) return 'origin-rejected';
  if (isRateLimited(err)) return 'rate-limited';
  if (isNotFound(err)) return 'not-found';
  return 'retry';
}

/**
 * Priority of an intent for a long-poll slot; lower sorts first: never asked → EXECUTING → not known yet →
 * COMMITTED → others; within a tier the most recently changed (or added) first.
 */
export function longPollRank(t: TrackedIntent): [number, number] {
  const tier =
    t.lastCheckedAt === undefined && t.retry === undefined
      ? 0
      : t.status === 'EXECUTING'
        ? 1
        : t.receipt === undefined
          ? 2
          : t.status === 'COMMITTED'
            ? 3
            : 4;
  return [tier, -(t.lastChangeAt ?? t.addedAt)];
}

/** Orders intents by {@link longPollRank}. */
export function byLongPollRank(a: TrackedIntent, b: TrackedIntent): number {
  const [ta, ra] = longPollRank(a);
  const [tb, rb] = longPollRank(b);
  return ta - tb || ra - rb;
}

/**
 * S(N) of invariant I1, in ms: the longest an intent outside the long-poll slots goes between two individual checks
 * when `cold` intents share the sweeper's individual checks (B = 60 000 / individualEveryMs a minute):
 * max(60 s, cold × individualEveryMs).
 */
export function stalenessBound(cold: number, tuning: Pick<TrackerTuning, 'individualEveryMs'>): number {
  return Math.max(60_000, cold * tuning.individualEveryMs);
}

/**
 * When the service last answered about `t`, an error answer (NotFound, 5xx) included (ms; 0 = never). An answer about
 * another intent (`foreign-receipt`) told nothing about this one: it does not count, so the intent stays due.
 */
export function lastHeardAt(t: TrackedIntent): number {
  const error = t.lastError && t.lastError.kind !== 'not-configured' && t.lastError.kind !== 'foreign-receipt' ? t.lastError.at : 0;
  return Math.max(t.lastCheckedAt ?? 0, error);
}

/**
 * What a long-poll leaves, before S(N) ≥ 60 s after the intent's last answer, for the single read that follows it
 * when it ends unanswered (ms). That read waits for the worker's request budget like any other: the tracker's own
 * pace (54 a minute, lib/api/budget.ts) sends its at most 4 requests about 1.1 s apart, so a read asked behind 3
 * others is sent within about 4.4 s.
 */
export const LONG_POLL_READ_RESERVE_MS = 5_000;

/**
 * When (ms, the tracker's clock) a long-poll of `t` asked at `askedAt` ends at the latest, answered or not:
 * `waitCapMs` after it was *asked* (the request budget may hold it before it is sent, and its own time-out starts
 * only then), and {@link LONG_POLL_READ_RESERVE_MS} before 60 s after the intent's last answer (an intent never
 * heard of: after it was asked), so that the single read following it is answered within S(N) (I1).
 */
export function longPollEndsBy(t: TrackedIntent, askedAt: number, tuning: Pick<TrackerTuning, 'waitCapMs' | 'individualEveryMs'>): number {
  const heard = lastHeardAt(t) || askedAt;
  return Math.min(askedAt + tuning.waitCapMs, heard + stalenessBound(0, tuning) - LONG_POLL_READ_RESERVE_MS);
}

/** True when an answer for `t` tells something new: a first answer, another status, other leg states, or the end. */
export function isNews(t: TrackedIntent, status: string, states: readonly TransactionStatus[] | undefined, final: boolean): boolean {
  // Leg states first learnt (a long-poll after single reads, which carry none) are no change.
  const statesChanged = states !== undefined && t.lastStates.length > 0 && !sameStates(states, t.lastStates);
  return final || t.receipt === undefined || status !== t.status || statesChanged;
}

/** The order of the non-final statuses an intent goes through; a status not listed (a final or unknown one) has no place. */
const PROGRESS_ORDER: readonly string[] = ['QUOTED', 'COMMITTED', 'EXECUTING'];

/**
 * True when an answer's `status` is behind the status already believed (`believed`): both are non-final, known, and
 * the answer's comes earlier in QUOTED → COMMITTED → EXECUTING (a stale replica, a cache). Such an answer is stale: a
 * status never moves backwards in what the tracker believes. Unknown and final statuses are never behind.
 */
export function isStatusBehind(status: string, believed: string | undefined): boolean {
  const at = progressRank(status);
  const known = progressRank(believed);
  return at >= 0 && known >= 0 && at < known;
}

/** The place of a non-final status in QUOTED → COMMITTED → EXECUTING (0, 1, 2); -1 for any other (final, unknown). */
export function progressRank(status: string | undefined): number {
  return status === undefined ? -1 : PROGRESS_ORDER.indexOf(status);
}

/** True when two receipt-state lists are equal. */
export function sameStates(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/**
 * An answer whose receipt is about another intent than the one asked (a misrouted answer, a caching proxy). It is
 * never recorded; the tracker treats it as a transient error (back-off, asked again) with the kind
 * `foreign-receipt`.
 */
export class ForeignReceiptError extends Error {
  readonly kind = 'foreign-receipt' as const;
  constructor(asked: string, answered: string) {
    super(`The service answered about another intent (asked ${asked}, got ${answered}); the answer was ignored.`);
    this.name = 'ForeignReceiptError';
  }
}

/** True when a receipt answers for `intentId` (ids compared case-insensitively, as hex). */
export function isReceiptFor(intentId: string, receiptIntentId: string | undefined): boolean {
  return receiptIntentId !== undefined && receiptIntentId.toLowerCase() === intentId.toLowerCase();
}

/**
 * How many states of one intent are remembered to tell a return (flapping) from progress: a cycle through up to this
 * many states is flapping from its second turn. Longer cycles, and sequences that never repeat, are bounded by the
 * news pace (`./news-pace`).
 */
export const FLAP_MEMORY_STATES = 64;

/**
 * Remembers state `key` among those an intent showed (`seen`, oldest first, at most {@link FLAP_MEMORY_STATES}) and
 * tells whether it is a **return**: a state shown before, other than the last one (A → B → A). Progress never goes
 * back, so a return is no news, however long ago the state was seen (a flapping service sampled once a minute must
 * not look like progress on every other answer). Pure: returns the new list.
 */
export function rememberState(seen: readonly string[], key: string): { seen: string[]; returned: boolean } {
  const returned = seen.includes(key) && seen.at(-1) !== key;
  const next = [...seen.filter((k) => k !== key), key].slice(-FLAP_MEMORY_STATES);
  return { seen: next, returned };
}

/** The key of a state an answer shows: its status and its leg states. */
export function stateKey(status: string, states: readonly string[] | undefined): string {
  return `${status}|${(states ?? []).join(',')}`;
}
