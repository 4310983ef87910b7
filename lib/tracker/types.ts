/** What the tracker depends on (transport, notifier, stores, clock) and its tuning. Times in milliseconds. */
import type { CallOptions } from '../api/http';
import type { HistoryLiteRequest, HistoryLiteResponse } from '../api/schemas/history';
import type {
  GetIntentReceiptRequest,
  GetIntentReceiptResponse,
  WaitIntentReceiptRequest,
  WaitIntentReceiptResponse,
} from '../api/schemas/receipt';
import type { IntentStore, TrackedIntent, TrackerState, TrackerStateStore } from '../store';
import type { Clock } from '../time/clock';
import type { ServiceClock } from './service-clock';

/** What the tracker needs from the service; SvcReadClient implements it. Without `getIntentHistoryLite` no history sweep runs. */
export interface ReceiptTransport {
  waitIntentReceipt(request: WaitIntentReceiptRequest, options?: CallOptions): Promise<WaitIntentReceiptResponse>;
  getIntentReceipt(request: GetIntentReceiptRequest, options?: CallOptions): Promise<GetIntentReceiptResponse>;
  getIntentHistoryLite?(request: HistoryLiteRequest, options?: CallOptions): Promise<HistoryLiteResponse>;
}

import type { Notifier } from '../notify/notifier';

export type { Notifier };

/**
 * Tuning of the tracker; every field has a default (see {@link DEFAULT_TUNING}). docs/tracking.md "Invariants I1–I6"
 * states the invariants these values give.
 */
export interface TrackerTuning {
  /** Most requests in flight at once: `maxConcurrent - 1` long-poll slots and one sweeper slot (default 4). */
  maxConcurrent: number;
  /** Client time-out of one WaitIntentReceipt; past it the slot reads the receipt instead (default 48 000). */
  waitCapMs: number;
  /** Shortest time between two long-polls of one intent that came back unchanged (default 5 000). */
  minWaitCycleMs: number;
  /** Long-polls that learn nothing may start at most this many times a minute, all slots together (default 18). */
  longPollsPerMinute: number;
  /** Gap after a sweeper request that learnt nothing, while idle (default 2 500: 24 a minute). */
  sweepGapMs: number;
  /**
   * Gap after a sweeper request that learnt nothing, while busy (default 500: a history page every half second for the
   * 10 s after news, when further intents are most likely to end; the bench's notification tail came from this pace).
   */
  busySweepGapMs: number;
  /** The tracker is busy for this long after any answer that changed something (default 10 000). */
  busyForMs: number;
  /** One individual check (GetIntentReceipt) of an intent outside the long-poll slots at most this often (default 5 000). */
  individualEveryMs: number;
  /** An intent outside the slots is read again once its last answer is this old (default 40 000). */
  recheckAfterMs: number;
  /** A watchdog acts only on an answer younger than this (default 29 000: under the 30 s of invariant I2); otherwise it asks first. */
  freshForMs: number;
  /** GetIntentHistory pages per cycle before starting over (default 5). */
  maxBatchPages: number;
  /** Back-off: first delay ceiling and largest delay (defaults 1 000 and 60 000). */
  backoffBaseMs: number;
  backoffCapMs: number;
  /** How long NotFound is retried after the intent was added (default 10 min). */
  notFoundGraceMs: number;
  /** After this long in COMMITTED an intent is expired (default 11 min: the 10-minute window plus slack). */
  commitWindowMs: number;
  /** EXECUTING longer than max(this, 2 × the expected duration, lib/eta) raises one stuck warning (default 15 min). */
  stuckAfterMs: number;
}

/** Default tuning. */
export const DEFAULT_TUNING: TrackerTuning = {
  maxConcurrent: 4,
  waitCapMs: 48_000,
  minWaitCycleMs: 5_000,
  longPollsPerMinute: 18,
  sweepGapMs: 2_500,
  busySweepGapMs: 500,
  busyForMs: 10_000,
  individualEveryMs: 5_000,
  recheckAfterMs: 40_000,
  freshForMs: 29_000,
  maxBatchPages: 5,
  backoffBaseMs: 1_000,
  backoffCapMs: 60_000,
  notFoundGraceMs: 10 * 60_000,
  commitWindowMs: 11 * 60_000,
  stuckAfterMs: 15 * 60_000,
};

/** Dependencies of the tracker, plus any tuning to override. */
export interface TrackerDeps extends Partial<TrackerTuning> {
  store: IntentStore;
  /** Where the tracker-wide state (rate-limit pause, rejected key) is kept; in memory when omitted. */
  stateStore?: TrackerStateStore;
  /** The transport for the current settings, or undefined while the extension is not configured. */
  transport(): Promise<ReceiptTransport | undefined>;
  notifier: Notifier;
  clock: Clock;
  /**
   * The service's time estimated from its answers, for every comparison with a timestamp the service wrote (expiry,
   * the stuck warning). Shared with the worker's HTTP client, which feeds it the `Date` headers; when omitted the
   * tracker keeps its own, fed by receipts' `updatedAt` only.
   */
  serviceClock?: ServiceClock;
  /** Random source in [0, 1) for back-off jitter (tests inject a fixed one). */
  random?: () => number;
  /** Called after a tracked record changed (e.g. to tell an open popup). */
  onChange?: (intentId: string) => void;
  /** Called when the tracker-wide state changes (badge, popup banner). */
  onStateChange?: (state: TrackerState) => void;
}

/** Result of adding an intent. */
export type TrackResult = { added: boolean; intent: TrackedIntent };
