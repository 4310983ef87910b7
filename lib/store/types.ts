/**
 * Every persisted shape of the extension, in one place. Stored in IndexedDB through idb-keyval (see `./index`).
 * Times are milliseconds since the epoch unless a name says otherwise.
 */
import type { IntentReceipt } from '../api/schemas/receipt';
import type { IntentStatus, TransactionStatus } from '../api/status';

/** Connection settings saved from the options page. */
export interface Settings {
  /** Base URL of the service (no `/rpc/Svc`), https except for localhost/127.0.0.1. */
  baseUrl: string;
  /** The access key (sent only to `baseUrl`'s origin). */
  accessKey: string;
  /** The user's own owner addresses (0x + 40 hex), offered as "My addresses" in the History filters. */
  watchedAddresses?: string[];
  /** Of those, the ones whose new intents are tracked automatically (lower-case). */
  autoTrackAddresses?: string[];
  /**
   * `<address>:<token>` per ticked address (lower-case): a token made when it was ticked, new when it is ticked again
   * (`./ticks.ts`); the watched-address check starts an address whose token changed from that moment. Set by the
   * settings store on every save.
   */
  autoTrackTicks?: string[];
  /** Which outcomes raise a desktop notification, and whether it makes a sound. Everything on when absent. */
  notify?: NotifySettings;
  /** Whether the synced keys (`./sync.ts`) follow the user through `storage.sync`; on unless false. This device only. */
  syncSettings?: boolean;
}

/** Notification preferences (options page). */
export interface NotifySettings {
  succeeded: boolean;
  failed: boolean;
  /** REFUNDED and ABORTED. */
  refunded: boolean;
  /** "Taking longer than expected". */
  stuck: boolean;
  sound: boolean;
  /** One notification per intent in flight, updated as its legs complete and turned into the final one (off when absent). */
  progress?: boolean;
  /** Quiet hours, local time: final notifications due inside are held and summarised when they end (off when absent). */
  quietHours?: QuietHours;
}

/** A daily quiet period in local time, "HH:MM" 24-hour; `end` before `start` spans midnight, equal means none. */
export interface QuietHours {
  start: string;
  end: string;
}

/** A final notification held back by quiet hours or a snooze, to be counted in the "while you were away" summary. */
export interface HeldNotification {
  intentId: string;
  /** The final status it would have announced. */
  status: string;
  /** When it was held (ms). */
  heldAt: number;
}

/** The progress notification on screen for an intent in flight. */
export interface ProgressMark {
  /** Its notification id (`svc-progress:<intentId>:<ms>`). */
  notificationId: string;
  /** Its title and message as shown (to update it only when they change). */
  message: string;
  /** It was turned into the intent's final notification (so that one counts as shown). */
  final?: boolean;
}

/**
 * The user's "calm" state, kept in IndexedDB so that a restarted worker keeps it: muted intentIds (no desktop
 * notification, status still tracked), the snooze end (ms), the notifications held for the summary and the progress
 * notifications on screen. Only the worker writes it.
 */
export interface CalmState {
  muted: string[];
  snoozeUntil?: number;
  held: HeldNotification[];
  progress: Record<string, ProgressMark>;
}

/** Nothing muted, snoozed, held or in progress. */
export const EMPTY_CALM: CalmState = { muted: [], held: [], progress: {} };

/** Every notification on, with sound. */
export const DEFAULT_NOTIFY: NotifySettings = { succeeded: true, failed: true, refunded: true, stuck: true, sound: true };

/**
 * Where the tracker stands with one intent:
 * - `tracking`: checked by the tracker (long-poll or sweep), or backing off after an error;
 * - `final`: the intent reached a final status; no more calls;
 * - `not-found`: the service kept answering NotFound (8000) for the whole grace period; stopped until the user retries;
 * - `expired`: COMMITTED for longer than the 10-minute execution window (docs/protocol.md §8); stopped.
 * A rejected key pauses the whole tracker instead (see TrackerState).
 */
export type TrackingPhase = 'tracking' | 'final' | 'not-found' | 'expired';

/**
 * Notification state, written in the same record as the status so that it survives worker restarts:
 * `none` (nothing to tell yet), `pending` (final status recorded, notification not confirmed shown),
 * `shown` (shown once; never again).
 */
export type NotificationState = 'none' | 'pending' | 'shown';

/** The last error met while tracking an intent (message is user-facing and never contains the access key). */
export interface TrackingError {
  /** Error kind: an SvcErrorKind, or 'key-rejected' / 'origin-rejected' / 'not-configured'. */
  kind: string;
  message: string;
  at: number;
}

/** One intent the user tracks. */
export interface TrackedIntent {
  intentId: string;
  addedAt: number;
  /** The latest receipt received. */
  receipt?: IntentReceipt;
  /** Convenience copy of `receipt.status`. */
  status?: IntentStatus;
  /** `receiptStates` of the last WaitIntentReceipt answer, passed back as `lastReceiptStates`. */
  lastStates: TransactionStatus[];
  phase: TrackingPhase;
  notification: NotificationState;
  notifiedAt?: number;
  /** What the notification said (built from the receipt only; never holds the access key). */
  notified?: { title: string; message: string };
  /** When the service last answered for this intent (ms). */
  lastCheckedAt?: number;
  /**
   * When a retry brought it back to tracking from `expired` or `not-found` (ms, the user's clock): from then on it
   * is owed a check within S(N) (I1), whatever its last answer's age. The scheduler's order only; never "heard".
   */
  resumedAt?: number;
  lastError?: TrackingError;
  /**
   * Back-off after errors: consecutive failures, when the next attempt may start (ms) and when the back-off was set
   * (`at`, ms: its length is `nextAt - at`, which no jump of the wall clock stretches; lib/tracker/tracker-time.ts).
   */
  retry?: { attempt: number; nextAt: number; at?: number };
  /** Earliest time of the next check (ms), after a long-poll that came back unchanged too soon. */
  nextCheckAt?: number;
  /** When the status or a leg's state last changed (ms): ranks intents for the long-poll slots. */
  lastChangeAt?: number;
  /** When the tracker gave up on an intent the service never knew (ms). */
  gaveUpAt?: number;
  /**
   * The NotFound grace served so far, for an intent the service has not known yet (lib/tracker/not-found-grace.ts):
   * `servedMs`, ms of running workers' monotonic time since it was added, counted up to `at` (ms, the writing worker's
   * steady clock), by the worker whose engine started at `life` (ms, the same clock; absent for an import's start).
   * Absent: none counted yet (a record of an earlier version counts from `addedAt`).
   */
  notFoundGrace?: { servedMs: number; at: number; life?: number };
  /** The user has seen the final status in the popup (clears the badge). */
  seen?: boolean;
  /** When the "taking longer than expected" notification was shown (ms); it is shown once. */
  stuckNotifiedAt?: number;
  /** The quote's estimated duration in seconds, when known: the ETA's baseline and the stuck threshold (lib/eta). */
  estimatedDuration?: number;
  /** Without a quote estimate: the median duration in seconds of recent intents on the same chain pair (lib/eta). */
  routeDuration?: number;
  source?: 'user' | 'watched' | 'menu';
}

/**
 * The worker's latest on-chain verification of one tracked intent (docs/chain.md), kept in `storage.local` under
 * `chainVerdict:<intentId>` (`./chain.ts`) so that the popup shows it without the verifier's code. The words are
 * already in the browser's language (lib/format/verification.ts). This device only: never synced.
 */
export interface ChainVerdict {
  intentId: string;
  /** The service says SUCCEEDED and the destination leg is final with the exact transfer: "Verified on-chain". */
  verified: boolean;
  /** Every verifiable leg of the receipt has a verdict that no further block can change: no check is due again. */
  settled: boolean;
  /** The receipt's IntentStatus this verdict was made for (absent in verdicts stored before it was kept). */
  serviceStatus?: string;
  /** One line per verified leg, in receipt order. */
  legs: ChainVerdictLeg[];
}

/** One leg's verification as the receipt view shows it. */
export interface ChainVerdictLeg {
  /** deposit · origin · destination · refund. */
  leg: string;
  chainId: number;
  /** The transaction the verdict was made for (lower-case hex); absent in verdicts stored before it was kept. */
  txnHash?: string;
  /** The verdict's kind: not-seen · confirmed · final · reverted · missing · reorged. */
  kind: string;
  /** "Confirmed on Base · block 24,117,902 · 12 confirmations". */
  text: string;
  /** Destination leg: "Received 249.10 USDC at 0x1234…78ab". */
  transfer?: string;
  /**
   * In a block (kinds confirmed · final · reverted): the block's number (decimal string), its hash, the confirmations
   * at the time of the read and whether the leg was then final (a reverted one past the depth). A leg stored final is
   * taken as is by a later check or worker life, never read again (lib/worker/chain-kept.ts). Absent in verdicts
   * stored before they were kept: such a leg is read once more.
   */
  blockNumber?: string;
  blockHash?: string;
  confirmations?: number;
  final?: boolean;
  /** Destination leg in a block: the raw units of the destination token the transaction moved to the recipient. */
  received?: string;
  /**
   * With `received`: the recipient and the token (addresses) that amount was counted for. Absent in verdicts stored
   * before they were kept: such a destination is read once more, never compared with a recipient or token it was not
   * counted for.
   */
  recipient?: string;
  token?: string;
  /**
   * True: the line is the last verdict known from an earlier worker life, kept because this life could not re-check
   * the leg yet (its read failed or waits for the RPC budget); the popup adds "could not re-check". Absent: this
   * life's own verdict.
   */
  lastKnown?: boolean;
}

/**
 * Tracker-wide state, persisted so that a restarted worker keeps respecting it:
 * `pausedUntil` (ms) after a 429, with `pauseReason` and `pausedAt` (ms, when it was set: a wall-clock jump back
 * never stretches the pause past its length, lib/tracker/tracker-time.ts); `keyRejected` when the service refused
 * the access key or the origin (everything waits until the settings change).
 */
export interface TrackerState {
  pausedUntil?: number;
  pausedAt?: number;
  /** How much of the pause (ms) workers have served so far, written with each checkpoint of `pausedAt`. */
  pauseServedMs?: number;
  /**
   * How far (ms) the user's wall clock read ahead of the writing worker's steady clock (lib/tracker/tracker-time.ts)
   * when the pause was written (negative: behind); `pausedAt` and `pausedUntil` are on that steady clock.
   */
  pauseWallAheadMs?: number;
  pauseReason?: string;
  keyRejected?: TrackingError;
}

/**
 * Where the watched-address check of one address resumes: `fromTime` (Unix seconds) of its GetIntentHistory query,
 * oldest first; `after`, when the previous check stopped before the last page, is the page cursor (createdAt in ms)
 * to go on from.
 */
export interface WatchedCheckpoint {
  fromTime: number;
  after?: number;
  /**
   * The address was unticked (seen so by a check): ticked again, it starts from that moment, not from `fromTime`
   * (an address ticked again after 3 days must not auto-track its old intents).
   */
  unticked?: boolean;
  /** The `Settings.autoTrackTicks` token of the tick this checkpoint belongs to (none: ticked before tokens). */
  tick?: string;
}
