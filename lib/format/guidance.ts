/**
 * "Where is my money now?" for an intent that ended without delivering (FAILED, REFUNDED, ABORTED): one plain
 * sentence, the link that proves it (a known explorer only), and what to do next. Pure; amounts are formatted from raw
 * units with the receipt's token metadata.
 */
import { legOf } from '../api/legs';
import type { BalanceEntry } from '../api/schemas/history';
import type { IntentReceipt, IntentTransaction } from '../api/schemas/receipt';
import { formatTokenAmountWithSymbol } from './amount';
import { chainName, explorerAddressUrl, explorerTxUrl, isPlaceholderHash } from './chains';
import { shortId } from './intent';

/** The guidance: `where` the funds are, `proof` (an explorer link, or a hash to quote when there is no link), `next`. */
export interface MoneyGuidance {
  where: string;
  proof?: { label: string; url?: string };
  next: string;
}

/** Statuses that get guidance. */
export const GUIDED_STATUSES: readonly string[] = ['FAILED', 'REFUNDED', 'ABORTED'];

const SUPPORT = 'contact Svc support with the intent ID';

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
  return { label: `${what} ${shortId(hash)}`, url: explorerTxUrl(leg.chainId, hash) };
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
    const amounts = held.map(({ tok }) => formatTokenAmountWithSymbol(tok.balance, tok.decimals, tok.symbol)).join(' and ');
    const chainId = entry.chainId ?? held[0]!.tok.chainId ?? undefined;
    const address = entry.intentAddress ?? undefined;
    return {
      where: `${amounts} ${held.length > 1 ? 'are' : 'is'} still held at the intent address${address ? ` ${shortId(address)}` : ''} on ${chainName(chainId)}, and can be recovered.`,
      ...(address ? { proof: { label: `intent address ${shortId(address)}`, url: explorerAddressUrl(chainId, address) } } : {}),
      next: `Nothing is lost: to get it back to ${owner ? shortId(owner) : 'your wallet'}, ${SUPPORT}. It is listed under Stuck funds too.`,
    };
  }
  const refund = legOf(receipt, 'refund');
  if (refund) {
    const to = refund.toAddress ?? owner;
    const amount = legAmount(receipt, refund);
    const where = `${to ? shortId(to) : 'the owner'} on ${chainName(refund.chainId)}`;
    if (refund.status === 'SUCCEEDED') {
      return {
        where: `Refunded: ${amount} went back to ${where}.`,
        proof: txProof('refund transaction', refund),
        next: 'Nothing to do: the funds are in that wallet. To try again, get a new quote.',
      };
    }
    return {
      where: `A refund of ${amount} to ${where} is under way (${refund.status ?? 'no status yet'}).`,
      proof: txProof('refund transaction', refund),
      next: `Wait for the refund to be mined; if it fails, ${SUPPORT}.`,
    };
  }
  const deposit = legOf(receipt, 'deposit');
  if (deposit?.status !== 'SUCCEEDED') {
    return {
      where: `The deposit never completed, so the funds did not leave ${owner ? shortId(owner) : 'your wallet'}.`,
      next: 'Nothing to recover. To try again, get a new quote.',
    };
  }
  const address = deposit.toAddress ?? receipt.summary?.originIntentAddress ?? undefined;
  const at = `the intent address ${address ? `${shortId(address)} ` : ''}on ${chainName(deposit.chainId)}`;
  if (receipt.status === 'REFUNDED') {
    return {
      where: `Marked refunded, but the receipt carries no refund transaction: the deposit went to ${at}.`,
      proof: txProof('deposit transaction', deposit),
      next: `Check ${owner ? shortId(owner) : 'your wallet'} for the refund; if it is not there, ${SUPPORT}.`,
    };
  }
  if (holdings !== undefined) {
    return {
      where: `The deposit of ${legAmount(receipt, deposit)} reached ${at}, which holds nothing now, and no refund is in the receipt.`,
      proof: txProof('deposit transaction', deposit),
      next: `${SUPPORT[0]!.toUpperCase()}${SUPPORT.slice(1)} and the deposit transaction.`,
    };
  }
  return {
    where: `The deposit of ${legAmount(receipt, deposit)} reached ${at}; no refund is in the receipt yet.`,
    proof: txProof('deposit transaction', deposit),
    next: `A refund may still follow; if none comes, ${SUPPORT}.`,
  };
}
