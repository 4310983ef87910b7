/**
 * The notification pipeline: every desktop notification of the extension about an intent — a final outcome (alone,
 * grouped, or as its progress notification turned final), the progress notification, the "while you were away"
 * summary, "taking longer than expected" — and every plain information notification (what a user's action did) goes
 * through here. `./decide` says what to do with each event (show now ·
 * hold · update in place · skip); the outbox (`lib/store/outbox`, IndexedDB) keeps one job per notification with
 * its state; the adapter (`./browser`) makes the `browser.notifications` calls.
 *
 * Rules that make "told once, never missed" hold (docs/notifications.md "Invariants N1–N5"):
 * - A job is written before any call that shows it, with the notification id it will use: a retry or a restarted
 *   worker replays the same call, never a new one. Its state moves on only after what the state records happened.
 * - A rejected call leaves the job where it was, to be tried again with back-off (1 s doubling, at most 60 s), on
 *   every wake-up of the worker (the 30 s watchdog), and at once when a job is added. Nothing is dropped.
 * - A job found `showing` (the worker died in the call, or could not record its end) is settled by asking the
 *   browser: a mark outside IndexedDB (`./shown-marks`, written when the call resolved) says it was shown; else
 *   Chrome lists what is on screen (`getAll`); an id it lists was shown. Firefox cannot tell: there a job
 *   `showing` counts as shown (at most once, the window being the `create` call itself).
 * - The tracker's delivery asks `exists(intentId)` before `show`: true as soon as the intent has a final job in any
 *   state (held, queued, shown, summarised, skipped), so a record that stayed `pending` (its write failed, or the
 *   worker died) never makes a second notification: the outbox finishes what it started.
 * - Held jobs become lines of one away job in one outbox write: a line is in the summary or the intent has its own
 *   notification, never both, never neither.
 */

import type { TrackedIntent } from '../store';
import type { ChainNotice } from './chain';
import type { Notifier } from './notifier';
import * as calm from './pipeline-calm';
import { createPipelineCore, type PipelineDeps } from './pipeline-core';
import * as events from './pipeline-events';

export { isDue, retryDelay } from './outbox-changes';
export type { PipelineDeps } from './pipeline-core';

/** The pipeline: the tracker's Notifier, plus what the popup and the worker's events ask of it. */
export interface NotificationPipeline extends Notifier {
  /**
   * Queues the stuck warning of an intent as an outbox job (`stuck:<intentId>`, one per intent: queued again, it is
   * not shown again) unless switched off, muted, snoozed or in quiet hours; resolves once the job is written (or
   * skipped), delivery follows; rejects when the outbox cannot be written. `stillDue` false when the turn comes:
   * nothing queued, resolves `false`.
   */
  showStuck(intent: TrackedIntent, minutes: number, stillDue?: () => boolean): Promise<unknown>;
  /**
   * Queues a disagreement between a chain and the service about one intent (`./chain`) as an outbox job under its
   * own key (`chain:<intentId>:<kind>:<leg>`; a key already there is not queued again), unless `./decide` skips it;
   * held by a snooze or quiet hours (urgent ones) until they end. Shown as `svc-chain:<intentId>:<ms>` with "View
   * receipt"; a click opens the intent's receipt. Resolves once the job is written (or skipped); rejects when the
   * outbox cannot be written.
   */
  showChain(notice: ChainNotice): Promise<void>;
  /**
   * Shows a plain information notification (`message` under the extension's name; what a user's own action did, e.g.
   * the context menu's "Track intent"), as an outbox job like the others: retried until shown, shown once. Not held
   * by a snooze or quiet hours (it answers the user's action), no buttons, a click opens nothing. Resolves with its
   * notification id (`svc-info:<ms>:<n>`) after the first attempt to show it (shown, or rejected and left to the
   * retries); rejects when the outbox cannot be written.
   */
  inform(message: string): Promise<string>;
  /**
   * `forget` for intents about to be tracked anew (not tracked now): what the outbox and the mutes still hold of an
   * earlier tracking goes, so that the new one is told. A removal's own `forget` may have been lost (refused, or its
   * worker dead before it). Those in `keepMuted` (muted on purpose just before, by an import) stay muted. Writes
   * nothing when nothing names them; rejects when a read or write is refused.
   */
  forgetMany(intentIds: readonly string[], keepMuted?: ReadonlySet<string>): Promise<void>;
  /** Mutes (or unmutes) one intent: no desktop notification for it; its progress notification is removed. */
  mute(intentId: string, muted: boolean): Promise<void>;
  /** Snoozes every notification for `ms` (default one hour) from now. */
  snooze(ms?: number): Promise<void>;
  /** Ends the snooze now, and releases what it held unless quiet hours still hold it. */
  endSnooze(): Promise<void>;
  /** Turns held jobs into the away summary when nothing holds them any more (otherwise (re)sets the alarm); delivers. */
  release(): Promise<void>;
  /** Brings the progress notification of an intent up to date (called after its record changed). */
  progress(intentId: string): Promise<void>;
  /** Every start and wake-up: releases what is due and delivers every job left unfinished. */
  resume(): Promise<void>;
  /**
   * The explorer link ("Open in explorer") the notification `notificationId` was shown with, from its outbox job —
   * kept when its intent was removed since (`forget`); undefined when none is known.
   */
  explorerLinkOf(notificationId: string): Promise<string | undefined>;
  /**
   * The user clicked notification `notificationId` (body or button): proof that it was shown, so that a job still
   * `showing` (its worker died before recording it) is not shown again once the click cleared it. Call before the
   * click's `clear`; resolves once recorded (or refused); never rejects.
   */
  clicked(notificationId: string): Promise<void>;
}

/** The pipeline's interface under the name the worker's services use for it (mute, snooze, quiet hours, progress). */
export type CalmNotifier = NotificationPipeline;

/**
 * Creates the pipeline: what to do with each event is decided by `./decide` (pure), the outbox changes that follow
 * by `./outbox-changes` (pure), and they are carried out by `./pipeline-events`, `./pipeline-calm` and the delivery
 * (`./delivery`), all sharing one core (`./pipeline-core`).
 */
export function createNotificationPipeline(deps: PipelineDeps): NotificationPipeline {
  const core = createPipelineCore(deps);
  return {
    show: (intent) => events.showFinal(core, intent),
    explorerLinkOf: (notificationId) => events.explorerLinkOf(core, notificationId),
    clicked: (notificationId) => core.delivery.seen(notificationId),
    exists: (intentId) => events.exists(core, intentId),
    showStuck: (intent, minutes, stillDue) => events.showStuck(core, intent, minutes, stillDue),
    showChain: (notice) => events.showChain(core, notice),
    inform: (message) => events.inform(core, message),
    forget: (intentId) => calm.forget(core, [intentId]),
    forgetMany: (intentIds, keepMuted) => calm.forget(core, intentIds, keepMuted),
    mute: (intentId, muted) => calm.mute(core, intentId, muted),
    snooze: (ms) => calm.snooze(core, ms),
    endSnooze: () => calm.endSnooze(core),
    release: () => calm.release(core),
    resume: () => calm.resume(core),
    progress: (intentId) => events.progress(core, intentId),
  };
}
