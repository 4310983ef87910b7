/**
 * The desktop notification of a disagreement between a chain and the service (docs/chain.md "The disagreement
 * notification"): what it says and under which outbox key it is told once. Pure apart from i18n; the pipeline
 * (`./pipeline`, `showChain`) decides and shows it, `lib/worker/chain-verify.ts` finds the disagreement.
 */
import type { IntentReceipt } from '../api/schemas/receipt';
import { type Disagreement, disagreementKey } from '../chain/disagreement';
import { originAmountText, routeText, shortId } from '../format/intent';
import { t } from '../i18n';
import type { NotificationContent } from './content';

/** One disagreement ready for the pipeline. */
export interface ChainNotice {
  /** Outbox key, one per intent, kind and leg: `chain:<intentId>:<kind>:<leg>` ({@link disagreementKey}). */
  key: string;
  intentId: string;
  /**
   * The chain contradicts the service (reverted, missing, another amount, re-orged): held through a snooze or quiet
   * hours. The good news (arrived before the service says so) is not: it is skipped then.
   */
  urgent: boolean;
  content: NotificationContent;
}

/**
 * The notice of `disagreement` on `intentId`: title "On-chain check of 0x1234…abcd", message `text` (the
 * disagreement in words, lib/format/verification.ts `disagreementText`) and, when the receipt is known, its route and
 * amount on a second line.
 */
export function chainNotice(
  intentId: string,
  disagreement: Pick<Disagreement, 'kind' | 'leg'>,
  text: string,
  receipt?: IntentReceipt,
): ChainNotice {
  const route = receipt ? `\n${routeText(receipt)}: ${originAmountText(receipt)}` : '';
  return {
    key: disagreementKey(intentId, disagreement),
    intentId,
    urgent: disagreement.kind !== 'arrived-early',
    content: { title: t('chainNotifyTitle', shortId(intentId)), message: `${text}${route}` },
  };
}
