/**
 * What a desktop notification says for an intent that reached a final status (pure; no browser API).
 * Built from the receipt only: never any setting, so the access key cannot end up in a notification.
 */
import { destinationAmountText, failureReason, originAmountText, routeText, shortId, statusLabel } from '../format/intent';
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
  const title = `Intent ${outcome.toLowerCase()} · ${shortId(intent.intentId)}`;
  if (!receipt) return { title, message: 'Open the tracker for details.' };
  const dest = destinationAmountText(receipt);
  const origin = originAmountText(receipt);
  const amounts = dest && dest !== origin ? `${origin} → ${dest}` : origin;
  let message = `${routeText(receipt)}: ${amounts}`;
  if (intent.status === 'FAILED') message += `\nReason: ${failureReason(receipt) ?? 'not given by the service'}`;
  return { title, message };
}
