/**
 * The words of on-chain verification (docs/chain.md "What the user sees"), in the browser's language: one line per leg
 * ("Confirmed on Base · block 24,117,902 · 12 confirmations", "Reverted on Arbitrum One"), the destination's transfer
 * ("Received 249.10 USDC at 0x1234…abcd") and each disagreement's notification text. Pure apart from i18n.
 */
import type { DisagreementKind } from '../chain/disagreement';
import type { TransferCheck } from '../chain/transfer';
import type { LegCheck } from '../chain/verify';
import { t } from '../i18n';
import { formatNumber, formatTokenAmountWithSymbol } from './amount';
import { chainName } from './chains';
import { shortId } from './intent';

/** The verdict on a leg of `chainId` in words, with the block number and confirmations where the leg is in a block. */
export function legCheckText(check: LegCheck, chainId: number): string {
  const chain = chainName(chainId);
  switch (check.kind) {
    case 'not-seen':
      return t('chainNotSeen', chain);
    case 'missing':
      return t('chainMissing', chain);
    case 'reorged':
      return t('chainReorged', chain);
    case 'reverted':
      return t('chainReverted', chain);
    case 'final':
      return t('chainFinal', chain, formatNumber(Number(check.blockNumber)), formatNumber(check.confirmations));
    case 'confirmed':
      return check.confirmations === 1
        ? t('chainConfirmedOne', chain, formatNumber(Number(check.blockNumber)))
        : t('chainConfirmed', chain, formatNumber(Number(check.blockNumber)), formatNumber(check.confirmations));
  }
}

/**
 * What the destination transaction really moved, with the token's `symbol` and `decimals` (the receipt's destination
 * token metadata): "Received 249.10 USDC at 0x7099…79c8", or what arrived against what the receipt says.
 */
export function transferText(transfer: TransferCheck, symbol: string | undefined, decimals: number | undefined): string {
  const amount = (raw: bigint) => formatTokenAmountWithSymbol(raw.toString(), decimals, symbol);
  const to = shortId(transfer.expected.to);
  switch (transfer.kind) {
    case 'received':
      return t('chainReceived', amount(transfer.amount), to);
    case 'none':
      return t('chainReceivedNone', to, amount(transfer.expected.amount));
    default:
      return t('chainReceivedOther', amount(transfer.amount), to, amount(transfer.expected.amount));
  }
}

const DISAGREEMENT_KEYS = {
  'arrived-early': 'chainArrivedEarly',
  'destination-reverted': 'chainDisagreeReverted',
  'destination-missing': 'chainDisagreeMissing',
  'amount-differs': 'chainDisagreeAmount',
  reorged: 'chainDisagreeReorged',
} as const;

/** The notification text of a disagreement on a leg of `chainId` ("Arrived on Base — the service has not caught up yet"). */
export function disagreementText(kind: DisagreementKind, chainId: number): string {
  return t(DISAGREEMENT_KEYS[kind], chainName(chainId));
}

/** "Verified on-chain": the tracked list's and the notification's mark once the destination leg is final. */
export function verifiedText(): string {
  return t('chainVerified');
}
