/**
 * Words and figures describing an intent, shared by the popup, the notifications and the demo.
 */

import type { LegKind } from '../api/legs';
import { legOf } from '../api/legs';
import type { IntentReceipt } from '../api/schemas/receipt';
import { t } from '../i18n';
import { formatTokenAmountWithSymbol } from './amount';
import { chainName } from './chains';
import { outcomeOf } from './outcomes';

/** "0x1234…cdef" for long ids and hashes; short strings unchanged. */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}

/** Origin and destination chain ids of a receipt (top-level fields first, then the summary). */
export function routeChains(receipt: IntentReceipt): { origin: number | undefined; destination: number | undefined } {
  return {
    origin: receipt.originChainId ?? receipt.summary?.originChainId ?? undefined,
    destination: receipt.destinationChainId ?? receipt.summary?.destinationChainId ?? undefined,
  };
}

/** "Arbitrum One → Base". */
export function routeText(receipt: IntentReceipt): string {
  const { origin, destination } = routeChains(receipt);
  return `${chainName(origin)} → ${chainName(destination)}`;
}

/** Origin amount in display units with symbol, e.g. "250.00 USDC" ("unknown amount" when not known). */
export function originAmountText(receipt: IntentReceipt): string {
  const s = receipt.summary;
  const meta = s?.originTokenMetadata;
  return formatTokenAmountWithSymbol(s?.originTokenAmount ?? legOf(receipt, 'origin')?.tokenAmount, meta?.decimals, meta?.symbol);
}

/** Destination amount in display units with symbol, or undefined when the receipt does not say. */
export function destinationAmountText(receipt: IntentReceipt): string | undefined {
  const s = receipt.summary;
  if (!s?.destinationTokenAmount) return undefined;
  const meta = s.destinationTokenMetadata;
  return formatTokenAmountWithSymbol(s.destinationTokenAmount, meta?.decimals, meta?.symbol);
}

/**
 * The reason an intent failed: `statusReason` of the first failed leg, origin first (docs/protocol.md §5), then any leg
 * that carries one. Undefined when no leg says.
 */
export function failureReason(receipt: IntentReceipt): string | undefined {
  const legs = [legOf(receipt, 'origin'), legOf(receipt, 'deposit'), legOf(receipt, 'destination'), legOf(receipt, 'refund')];
  const failed = legs.find((l) => l?.statusReason && l.status !== 'SUCCEEDED');
  return (failed ?? legs.find((l) => l?.statusReason))?.statusReason ?? undefined;
}

/**
 * Human word for an intent status ("Succeeded", "Failed", …): the final ones from the table of outcomes
 * (`lib/notify/outcomes.ts`); unknown statuses are shown as they came.
 */
export function statusLabel(status: string | undefined): string {
  switch (status) {
    case undefined:
      return t('statusChecking');
    case 'QUOTED':
      return t('statusQuoted');
    case 'COMMITTED':
      return t('statusCommitted');
    case 'EXECUTING':
      return t('statusExecuting');
    default: {
      // Final outcomes: their words are in the one table of outcomes.
      const outcome = outcomeOf(status);
      return outcome ? t(outcome.words) : status;
    }
  }
}

/** The name of a leg ("Deposit", "Origin", "Destination", "Refund") in the browser's language. */
export function legName(kind: LegKind): string {
  return t(`leg_${kind}`);
}

/** Colour family of a status chip: good, bad, warn (refund/abort), busy (in progress) or neutral. */
export function statusTone(status: string | undefined): 'good' | 'bad' | 'warn' | 'busy' | 'neutral' {
  switch (status) {
    case 'SUCCEEDED':
      return 'good';
    case 'FAILED':
    case 'INVALID':
    case 'ERRORED':
    case 'REVERTED':
      return 'bad';
    case 'REFUNDED':
    case 'ABORTED':
    case 'ON_HOLD':
      return 'warn';
    case 'COMMITTED':
    case 'EXECUTING':
    case 'PENDING':
    case 'RELAYING':
    case 'RELAYED':
    case 'SENT':
    case 'MINING':
      return 'busy';
    default:
      return 'neutral';
  }
}
