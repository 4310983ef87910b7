/**
 * "Where is my money now?" for an intent that ended without delivering (FAILED, REFUNDED, ABORTED): one plain
 * sentence, the link that proves it (a known explorer only), and what to do next. Pure; amounts are formatted from raw
 * units with the receipt's token metadata.
 */
import { legOf } from '../api/legs';
import type { BalanceEntry } from '../api/schemas/history';
import type { IntentReceipt, IntentTransaction } from '../api/schemas/receipt';
import { localized, t } from '../i18n';
import { formatTokenAmountWithSymbol } from './amount';
import { chainName, explorerAddressUrl, explorerTxUrl, isPlaceholderHash } from './chains';
import { shortId } from './intent';
import { GUIDED_STATUSES } from './outcomes';

/** The guidance: `where` the funds are, `proof` (an explorer link, or a hash to quote when there is no link), `next`. */
export interface MoneyGuidance {
  where: string;
  proof?: { label: string; url?: string };
  next: string;
}

/** Statuses that get guidance (the table of outcomes, `lib/notify/outcomes.ts`). */
export { GUIDED_STATUSES };

const support = () => t('guideSupport');
const yourWallet = (owner: string | undefined) => (owner ? shortId(owner) : t('yourWallet'));
const conjunction = localized((locale) => new Intl.ListFormat(locale, { type: 'conjunction' }));

function legAmount(receipt: IntentReceipt, leg: IntentTransaction): string {
  const s = receipt.summary;
  const toDestination = leg.chainId !== undefined && leg.chainId === (receipt.destinationChainId ?? s?.destinationChainId);
  const meta =
    toDestination && leg.chainId !== (receipt.originChainId ?? s?.originChainId) ? s?.destinationTokenMetadata : s?.originTokenMetadata;
  return formatTokenAmountWithSymbol(leg.tokenAmount, meta?.decimals, meta?.symbol);
}

function txProof(what: string, leg: IntentTransaction): MoneyGuidance['proof'] {
  const hash = leg.txnHash;
  if (!hash || isPlaceholderHash(hash)) return undefined;
  return { label: t('proofLabel', what, shortId(hash)), url: explorerTxUrl(leg.chainId, hash) };
}

/**
 * The guidance for `receipt`, or undefined when its status is not FAILED, REFUNDED or ABORTED. `holdings` are the
 * intent address's balances (GetIntentHistory with `includeBalances`); undefined when not known (yet).
 */
export function moneyGuidance(receipt: IntentReceipt, holdings?: readonly BalanceEntry[]): MoneyGuidance | undefined {
  if (!receipt.status || !GUIDED_STATUSES.includes(receipt.status)) return undefined;
  const owner = receipt.ownerAddress ?? receipt.summary?.ownerAddress ?? undefined;
  const held = (holdings ?? []).flatMap((entry) =>
    (entry.tokens ?? [])
      .filter((tok) => tok.balance && /^\d+$/.test(tok.balance) && BigInt(tok.balance) > 0n)
      .map((tok) => ({ entry, tok })),
  );
  if (held.length > 0) {
    const { entry } = held[0]!;
    const amounts = held.map(({ tok }) => formatTokenAmountWithSymbol(tok.balance, tok.decimals, tok.symbol));
    const amountList = conjunction().format(amounts);
    const chainId = entry.chainId ?? held[0]!.tok.chainId ?? undefined;
    const address = entry.intentAddress ?? undefined;
    return {
      where: t(held.length > 1 ? 'guideHeldMany' : 'guideHeldOne', amountList, address ? ` ${shortId(address)}` : '', chainName(chainId)),
      ...(address ? { proof: { label: t('guideHeldProof', shortId(address)), url: explorerAddressUrl(chainId, address) } } : {}),
      next: t('guideHeldNext', yourWallet(owner), support()),
    };
  }
  const refund = legOf(receipt, 'refund');
  if (refund) {
    const to = refund.toAddress ?? owner;
    const amount = legAmount(receipt, refund);
    const where = t('guideRefundTarget', to ? shortId(to) : t('theOwner'), chainName(refund.chainId));
    if (refund.status === 'SUCCEEDED') {
      return {
        where: t('guideRefunded', amount, where),
        proof: txProof(t('guideRefundTx'), refund),
        next: t('guideRefundedNext'),
      };
    }
    return {
      where: t('guideRefundUnderway', amount, where, refund.status ?? t('noStatusYet')),
      proof: txProof(t('guideRefundTx'), refund),
      next: t('guideRefundWaitNext', support()),
    };
  }
  const deposit = legOf(receipt, 'deposit');
  if (deposit?.status !== 'SUCCEEDED') {
    return {
      where: t('guideNoDeposit', yourWallet(owner)),
      next: t('guideNoDepositNext'),
    };
  }
  const address = deposit.toAddress ?? receipt.summary?.originIntentAddress ?? undefined;
  const at = t('guideAt', address ? `${shortId(address)} ` : '', chainName(deposit.chainId));
  if (receipt.status === 'REFUNDED') {
    return {
      where: t('guideMarkedRefunded', at),
      proof: txProof(t('guideDepositTx'), deposit),
      next: t('guideCheckRefundNext', yourWallet(owner), support()),
    };
  }
  if (holdings !== undefined) {
    return {
      where: t('guideDepositEmpty', legAmount(receipt, deposit), at),
      proof: txProof(t('guideDepositTx'), deposit),
      next: t('guideSupportWithDeposit'),
    };
  }
  return {
    where: t('guideDepositPending', legAmount(receipt, deposit), at),
    proof: txProof(t('guideDepositTx'), deposit),
    next: t('guideRefundMayFollow', support()),
  };
}
