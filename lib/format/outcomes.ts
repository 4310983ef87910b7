/**
 * The one table of outcomes: for each TransactionStatus an intent can end in (spec: TransactionStatus), the setting
 * that switches its notification on or off, the words it is told in (a `_locales` key), whether it is final and
 * whether it notifies. Every other list of "which statuses notify" is derived from here: the tracker's (which final
 * statuses leave a notification pending), the decision's (is this outcome switched on), the summary's order and the
 * guidance's ("where is my money" for the outcomes that did not deliver).
 */
import type { MessageKey } from '../i18n';
import type { NotifySettings } from '../store';

/** One row of {@link OUTCOMES}. */
export interface Outcome {
  /** The setting that switches its notification (`undefined`: it never notifies). */
  setting?: keyof Pick<NotifySettings, 'succeeded' | 'failed' | 'refunded'>;
  /** Its words, a key of `public/_locales/<locale>/messages.json`. */
  words: MessageKey;
  /** No further change is expected. */
  final: boolean;
  /** Reaching it raises a desktop notification (when its setting is on). */
  notifies: boolean;
  /** It ended without delivering the money: the receipt says where the money is. */
  guided: boolean;
}

/** Final outcomes, in the order a summary counts them. */
export const OUTCOMES: Readonly<Record<string, Outcome>> = {
  SUCCEEDED: { setting: 'succeeded', words: 'statusSucceeded', final: true, notifies: true, guided: false },
  FAILED: { setting: 'failed', words: 'statusFailed', final: true, notifies: true, guided: true },
  REFUNDED: { setting: 'refunded', words: 'statusRefunded', final: true, notifies: true, guided: true },
  ABORTED: { setting: 'refunded', words: 'statusAborted', final: true, notifies: true, guided: true },
  INVALID: { words: 'statusInvalid', final: true, notifies: false, guided: false },
};

/** The row of `status`, undefined for a status that is not final (QUOTED, COMMITTED, EXECUTING, unknown values). */
export function outcomeOf(status: string | undefined): Outcome | undefined {
  return status !== undefined && Object.hasOwn(OUTCOMES, status) ? OUTCOMES[status] : undefined;
}

/** Statuses whose reaching raises a notification: SUCCEEDED, FAILED, REFUNDED, ABORTED. */
export const NOTIFYING_STATUSES: readonly string[] = Object.keys(OUTCOMES).filter((s) => OUTCOMES[s]!.notifies);

/** Statuses that ended without delivering: FAILED, REFUNDED, ABORTED. */
export const GUIDED_STATUSES: readonly string[] = Object.keys(OUTCOMES).filter((s) => OUTCOMES[s]!.guided);

/** Whether the settings want a notification for this final status (false for any status that does not notify). */
export function wantsNotification(status: string | undefined, s: NotifySettings): boolean {
  const o = outcomeOf(status);
  return o?.notifies === true && o.setting !== undefined && s[o.setting] === true;
}

/** Rank of a status in a summary: the table's order, then anything else. */
export function outcomeRank(status: string): number {
  const keys = Object.keys(OUTCOMES);
  const i = keys.indexOf(status);
  return i < 0 ? keys.length : i;
}
