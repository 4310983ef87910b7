/**
 * What the tracker asks of the notification side (lib/tracker/engine.ts calls it; lib/notify/pipeline.ts implements
 * it). Here, below the tracker, so that the pipeline does not import the tracker's types (layers: docs/architecture.md).
 */
import type { TrackedIntent } from '../store';

/** Shows desktop notifications. Ids are stable per intent so a shown notification can be found again. */
export interface Notifier {
  /** Shows the notification for an intent that reached a notifying final status; resolves with what it said. */
  show(intent: TrackedIntent): Promise<{ title: string; message: string } | undefined>;
  /** True when the notification for this intent was already shown (asked when recovering `pending` records). */
  exists(intentId: string): Promise<boolean>;
  /**
   * Queues "taking longer than expected" for an intent EXECUTING for `minutes` (optional); resolves once the warning
   * is queued durably (shown later, retried until shown), rejects when it could not be queued. Queuing the warning of
   * an intent twice shows it once (the engine queues again after a worker died before its mark). `stillDue`, when
   * given, is asked just before the warning is queued: false, and nothing is queued and the call resolves `false`
   * (the intent's last answer no longer shows it EXECUTING: the tracker decides again on its next answer).
   */
  showStuck?(intent: TrackedIntent, minutes: number, stillDue?: () => boolean): Promise<unknown>;
  /** The intent is no longer tracked: forget that its notification was shown, so a later re-track may notify again. */
  forget?(intentId: string): Promise<void>;
}
