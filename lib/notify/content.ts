/**
 * What desktop notifications say (pure; no browser API). Built from receipts only, never from settings, so the
 * access key cannot end up in a notification.
 */
import { LEG_KINDS, type LegKind, legOf } from '../api/legs';
import { explorerTxUrl } from '../format/chains';
import { destinationAmountText, failureReason, legName, originAmountText, routeText, shortId, statusLabel } from '../format/intent';
import { t } from '../i18n';
import type { TrackedIntent } from '../store';

/** Title and message of a notification. */
export interface NotificationContent {
  title: string;
  message: string;
}

/**
 * Content for a final intent: title with the outcome and the short intentId; message with origin → destination
 * chain, amount and symbol (and the destination amount when known), and for FAILED the `statusReason`.
 */
export function notificationContent(intent: TrackedIntent): NotificationContent {
  const receipt = intent.receipt;
  const outcome = statusLabel(intent.status);
  const title = t('notifyTitle', outcome.toLowerCase(), shortId(intent.intentId));
  if (!receipt) return { title, message: t('notifyOpenForDetails') };
  const dest = destinationAmountText(receipt);
  const origin = originAmountText(receipt);
  const amounts = dest && dest !== origin ? `${origin} → ${dest}` : origin;
  let message = `${routeText(receipt)}: ${amounts}`;
  if (intent.status === 'FAILED') message += `\n${t('notifyReason', failureReason(receipt) ?? t('notifyReasonNotGiven'))}`;
  return { title, message };
}

/** The line of one intent in a summary of several: "0x1234…abcd: Arbitrum One → Base" (or its outcome). */
export function groupLine(intent: Pick<TrackedIntent, 'intentId' | 'status' | 'receipt'>): string {
  return `${shortId(intent.intentId)}: ${intent.receipt ? routeText(intent.receipt) : statusLabel(intent.status)}`;
}

/**
 * One summary for several intents that finished together: "3 intents finished: 2 succeeded, 1 failed", then the
 * first three lines ({@link groupLine}) and "and N more".
 */
export function groupContentOf(items: ReadonlyArray<{ status?: string | undefined; line: string }>): NotificationContent {
  const counts = new Map<string, number>();
  for (const i of items) {
    const word = statusLabel(i.status).toLowerCase();
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const summary = [...counts.entries()].map(([word, n]) => t('countedWord', n, word)).join(t('listSeparator'));
  const lines = items.slice(0, 3).map((i) => i.line);
  const more = items.length > 3 ? `\n${t('andMore', items.length - 3)}` : '';
  return { title: t('groupTitle', items.length, summary), message: `${lines.join('\n')}${more}` };
}

/** {@link groupContentOf} for tracked intents. */
export function groupContent(intents: readonly TrackedIntent[]): NotificationContent {
  return groupContentOf(intents.map((i) => ({ status: i.status, line: groupLine(i) })));
}

/** The leg still in progress of an EXECUTING intent: the first that exists and has not succeeded, or the next missing. */
export function pendingLeg(intent: TrackedIntent): { kind: LegKind; status: string } | undefined {
  const r = intent.receipt;
  if (!r) return undefined;
  for (const kind of LEG_KINDS.slice(0, 3)) {
    const leg = legOf(r, kind);
    if (!leg) return { kind, status: 'not started' };
    if (leg.status !== 'SUCCEEDED') return { kind, status: leg.status ?? 'UNKNOWN' };
  }
  return undefined;
}

/** "Taking longer than expected" for an intent EXECUTING past its expected time: what is known, which leg waits. */
export function stuckContent(intent: TrackedIntent, minutes: number): NotificationContent {
  const r = intent.receipt;
  const leg = pendingLeg(intent);
  const waiting = leg
    ? t('stuckWaitingOnLeg', legName(leg.kind).toLowerCase(), leg.status === 'not started' ? t('notStarted') : leg.status)
    : t('stuckStillExecuting');
  return {
    title: t('stuckTitle', shortId(intent.intentId)),
    message: `${r ? `${routeText(r)}: ${originAmountText(r)}\n` : ''}${t('stuckExecutingFor', minutes)} ${waiting}`,
  };
}

/**
 * Explorer link of the leg that settled or failed the intent: destination (or refund) when it succeeded or was
 * refunded, otherwise the first failed leg. Undefined when that leg's chain has no known explorer or its hash is a
 * placeholder.
 */
export function outcomeExplorerUrl(intent: TrackedIntent): string | undefined {
  const r = intent.receipt;
  if (!r) return undefined;
  const order: LegKind[] =
    intent.status === 'SUCCEEDED'
      ? ['destination', 'origin']
      : intent.status === 'REFUNDED'
        ? ['refund']
        : ['origin', 'destination', 'deposit', 'refund'];
  for (const kind of order) {
    const leg = legOf(r, kind);
    if (!leg) continue;
    if (intent.status !== 'SUCCEEDED' && intent.status !== 'REFUNDED' && leg.status === 'SUCCEEDED') continue;
    const url = explorerTxUrl(leg.chainId, leg.txnHash);
    if (url) return url;
  }
  return undefined;
}
