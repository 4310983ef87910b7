/**
 * Every change the tracker makes to a tracked record, as pure functions of the record and what happened, over a table
 * of allowed phase changes (as MetaMask's transaction controller keeps its status machine). The engine (`engine.ts`)
 * keeps the pump, the requests in flight and the timers; it writes what these functions return. Each returns the new
 * record, or `undefined` for "write nothing" (the record is gone, in another phase, or already so). Times in ms.
 */
import type { IntentReceipt } from '../api/schemas/receipt';
import type { TransactionStatus } from '../api/status';
import type { TrackedIntent, TrackingError, TrackingPhase } from '../store';
import { graceAt, graceServed } from './not-found-grace';
import { backoffDelay, isFinalStatus, isNews, isStatusBehind, NOTIFYING_STATUSES, notFoundDelay, sameStates } from './policy';
import type { TrackerTuning } from './types';
import { EXPIRED_MESSAGE } from './watchdogs';

/** A phase, or `removed` (the record deleted: remove()). */
export type PhaseOrRemoved = TrackingPhase | 'removed';

/**
 * The allowed phase changes, from → to. A record that does not exist yet may only become `tracking`. `final` is
 * terminal: only the user's removal ends it (FAILED is final per the spec; a final status is never overwritten).
 */
export const ALLOWED: Readonly<Record<PhaseOrRemoved, readonly PhaseOrRemoved[]>> = {
  tracking: ['tracking', 'final', 'expired', 'not-found', 'removed'],
  expired: ['expired', 'tracking', 'removed'],
  'not-found': ['not-found', 'tracking', 'removed'],
  final: ['final', 'removed'],
  removed: ['tracking'],
};

/** True when a record in phase `from` (undefined: none yet) may move to `to`. */
export function allowed(from: TrackingPhase | undefined, to: PhaseOrRemoved): boolean {
  return ALLOWED[from ?? 'removed'].includes(to);
}

/**
 * Guards a transition: `next` when its phase change is allowed (or it is `undefined`), else `undefined` and a log
 * line (a transition function that broke the table writes nothing rather than a wrong record).
 */
export function guarded(current: TrackedIntent | undefined, next: TrackedIntent | undefined): TrackedIntent | undefined {
  if (!next) return undefined;
  if (allowed(current?.phase, next.phase)) return next;
  console.error('tracker: transition refused', { from: current?.phase ?? 'none', to: next.phase, intentId: next.intentId });
  return undefined;
}

/**
 * The kinds of error the tracker records (`TrackingError.kind`): a transport error's `SvcErrorKind`, or one of the
 * tracker's own. The user's text is chosen by kind (`lib/format/tracking-error.ts`); the English message is for logs
 * and exports only.
 */
export type TrackingErrorKind =
  | 'service'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'bad-body'
  | 'validation'
  | 'foreign-receipt'
  | 'not-found'
  | 'not-found-yet'
  | 'expired'
  | 'not-configured'
  | 'key-rejected'
  | 'origin-rejected'
  | 'unknown';

/** A tracking error of `kind` at `at`, with its English message for logs and exports. */
export function trackingError(kind: TrackingErrorKind, at: number, message: string = MESSAGES[kind] ?? kind): TrackingError {
  return { kind, message, at };
}

const MESSAGES: Partial<Record<TrackingErrorKind, string>> = {
  'not-found': 'The service does not know this intent ID (NotFound).',
  'not-found-yet': 'The service does not know this intent yet; checking again',
  expired: EXPIRED_MESSAGE,
  'not-configured': 'Set the service URL and access key in the settings.',
};

/** track(): a new record, or a stopped one (not found, expired) tracked again; anything else is left as it is. */
export function tracked(
  current: TrackedIntent | undefined,
  intentId: string,
  now: number,
  extra: Pick<TrackedIntent, 'source' | 'estimatedDuration'> = {},
): TrackedIntent | undefined {
  if (current) {
    return guarded(
      current,
      current.phase === 'not-found' || current.phase === 'expired'
        ? { ...current, phase: 'tracking', retry: undefined, lastError: undefined, addedAt: now, notFoundGrace: undefined }
        : undefined,
    );
  }
  return guarded(current, { intentId, addedAt: now, lastStates: [], phase: 'tracking', notification: 'none', ...extra });
}

/** retryNow(): back-off cleared and a stopped intent tracked again; a final one is left alone. */
export function retried(t: TrackedIntent | undefined, now: number): TrackedIntent | undefined {
  if (!t || t.phase === 'final') return undefined;
  return guarded(t, {
    ...t,
    phase: 'tracking',
    retry: undefined,
    nextCheckAt: undefined,
    addedAt: t.phase === 'not-found' ? now : t.addedAt,
    ...(t.phase === 'not-found' ? { notFoundGrace: undefined } : {}),
    ...(t.phase !== 'tracking' ? { resumedAt: now } : {}),
  });
}

/** What an answer did: the record to write and whether it told something new. */
export interface Answered {
  next: TrackedIntent | undefined;
  news: boolean;
}

/**
 * An answer about this intent (already checked to be about it): only a final status moves the intent to `final`,
 * with its notification pending when the status notifies — a `done` flag alone never does. `states` undefined: the
 * answer carried no leg states (a single read). `nextCheckAt`: no long-poll before then (unchanged or flapping).
 * An answer whose status is behind the believed one ({@link isStatusBehind}) is stale: only `lastCheckedAt` moves.
 */
export function answered(
  t: TrackedIntent | undefined,
  receipt: IntentReceipt,
  states: TransactionStatus[] | undefined,
  now: number,
  nextCheckAt: number | undefined,
): Answered {
  if (t?.phase !== 'tracking') return { next: undefined, news: false };
  // A status behind the one believed (COMMITTED after EXECUTING) is a stale answer: it counts as a check, but the
  // record keeps what it knew (status, receipt, leg states), so no watchdog acts on the older status.
  if (isStatusBehind(receipt.status, t.status)) {
    const next: TrackedIntent = { ...t, lastCheckedAt: now, lastError: undefined, retry: undefined, nextCheckAt };
    return { next: guarded(t, next), news: false };
  }
  const final = isFinalStatus(receipt.status);
  const newStates = states ?? t.lastStates;
  const news = isNews(t, receipt.status, states, final);
  const changed = receipt.status !== t.status || !sameStates(newStates, t.lastStates);
  const next: TrackedIntent = {
    ...t,
    receipt,
    status: receipt.status,
    lastStates: newStates,
    lastCheckedAt: now,
    ...(changed ? { lastChangeAt: now } : {}),
    lastError: undefined,
    retry: undefined,
    nextCheckAt: final ? undefined : nextCheckAt,
    phase: final ? 'final' : 'tracking',
    notification: final && t.notification === 'none' && NOTIFYING_STATUSES.includes(receipt.status) ? 'pending' : t.notification,
  };
  return { next: guarded(t, next), news };
}

/** What a failure means for one intent (the tracker-wide ones — rejected key, rate limit — are handled apart). */
export interface Failure {
  /** NotFound (8000) from the service. */
  notFound: boolean;
  kind: TrackingErrorKind;
  /** The error's English message (logs and exports). */
  message: string;
  /** Retry-After (ms; 0 when none). */
  retryAfterMs: number;
  /** Random in [0, 1) for the jitter. */
  random: number;
  /**
   * A 429: the tracker-wide pause (its Retry-After, at least one back-off step) is the whole wait, for this intent too;
   * it gets no back-off of its own, so it is asked again as the pause ends (I1 holds from the hold's end).
   */
  rateLimited?: boolean;
}

/**
 * A failed check: NotFound for an intent never seen is retried until the grace is served (./not-found-grace: running
 * workers' time since it was added, counted within this worker's life from `lifeStartedAt`, the engine's start on
 * the same steady clock as `now`), then `not-found`; a 429 waits for the tracker-wide pause alone (`rateLimited`); any
 * other error backs off (full jitter over the errors in a row, NotFound answers before them not counted; Retry-After
 * honoured).
 */
export function failed(
  t: TrackedIntent | undefined,
  failure: Failure,
  now: number,
  tuning: Pick<TrackerTuning, 'notFoundGraceMs' | 'backoffBaseMs' | 'backoffCapMs'>,
  lifeStartedAt: number,
): TrackedIntent | undefined {
  if (t?.phase !== 'tracking') return undefined;
  const notFoundYet = failure.notFound && !t.receipt;
  // Failures of one kind in a row: a run of NotFound answers (the grace's own delays) does not lengthen the back-off
  // of an error after it, nor a run of errors the grace's delays.
  const sameRun = (t.lastError?.kind === 'not-found-yet') === notFoundYet;
  const attempt = (sameRun ? (t.retry?.attempt ?? 0) : 0) + 1;
  if (notFoundYet) {
    const served = graceServed(t, now, lifeStartedAt);
    const notFoundGrace = graceAt(served, now, lifeStartedAt);
    if (served >= tuning.notFoundGraceMs) {
      const lastError = trackingError('not-found', now);
      return guarded(t, { ...t, phase: 'not-found', retry: undefined, gaveUpAt: now, lastError, notFoundGrace });
    }
    // The last try falls at the end of the grace.
    const nextAt = now + Math.min(notFoundDelay(attempt, failure.random), tuning.notFoundGraceMs - served);
    return guarded(t, { ...t, retry: { attempt, nextAt, at: now }, lastError: trackingError('not-found-yet', now), notFoundGrace });
  }
  // A 429 counts as a failure (a next error backs off from it) but waits for the tracker-wide pause alone: the jittered
  // back-off of errors in a row reaches the 60 s cap whatever the hold — unasked past S(N) after a `Retry-After: 0`.
  const delay = failure.rateLimited
    ? 0
    : backoffDelay(attempt, failure.random, tuning.backoffBaseMs, tuning.backoffCapMs, failure.retryAfterMs);
  return guarded(t, {
    ...t,
    retry: { attempt, nextAt: now + delay, at: now },
    lastError: trackingError(failure.kind, now, failure.message),
  });
}

/**
 * The NotFound grace served so far written down (`now`, `lifeStartedAt` as for {@link failed}) for an intent the
 * service has not known yet, while no check of it runs (a Retry-After pause): a worker that stops before its next
 * check then loses at most the time since this checkpoint. Undefined for any other record.
 */
export function graceKept(t: TrackedIntent | undefined, now: number, lifeStartedAt: number): TrackedIntent | undefined {
  if (t?.phase !== 'tracking' || t.receipt) return undefined;
  return guarded(t, { ...t, notFoundGrace: graceAt(graceServed(t, now, lifeStartedAt), now, lifeStartedAt) });
}

/** The expiry watchdog: a COMMITTED intent past its window (on a fresh answer, I2) is `expired`. */
export function expired(t: TrackedIntent | undefined, now: number): TrackedIntent | undefined {
  return t?.phase === 'tracking' && t.status === 'COMMITTED'
    ? guarded(t, { ...t, phase: 'expired', lastError: trackingError('expired', now) })
    : undefined;
}

/** The stuck watchdog: the one warning is marked (once). */
export function stuckWarned(t: TrackedIntent | undefined, now: number): TrackedIntent | undefined {
  return t && t.stuckNotifiedAt === undefined ? guarded(t, { ...t, stuckNotifiedAt: now }) : undefined;
}

/** No transport configured: the intent says so (once). */
export function notConfigured(t: TrackedIntent | undefined, now: number): TrackedIntent | undefined {
  return t && t.lastError?.kind !== 'not-configured' ? guarded(t, { ...t, lastError: trackingError('not-configured', now) }) : undefined;
}

/** The ETA baseline found after tracking started; fields already set are kept. */
export function baselineSet(
  t: TrackedIntent | undefined,
  baseline: Pick<TrackedIntent, 'estimatedDuration' | 'routeDuration'>,
): TrackedIntent | undefined {
  return t && t.estimatedDuration === undefined && t.routeDuration === undefined ? guarded(t, { ...t, ...baseline }) : undefined;
}

/** The popup was opened: a finished intent is seen. */
export function seen(t: TrackedIntent | undefined): TrackedIntent | undefined {
  return t?.phase === 'final' && !t.seen ? guarded(t, { ...t, seen: true }) : undefined;
}

/** remove(): the record goes (allowed from every phase); true when there is one to remove. */
export function removable(t: TrackedIntent | undefined): boolean {
  return t !== undefined && allowed(t.phase, 'removed');
}
