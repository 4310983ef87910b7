/**
 * Which legs of a receipt the verifier can check, and what each should show on its chain (docs/chain.md): a leg with a
 * chainId and a real transaction hash (0x + 64 hex digits, not a placeholder). The destination leg also carries the
 * transfer the receipt promises: `tokenAmount` of the destination token to the summary's `destinationToAddress`.
 * Pure.
 */
import { LEG_KINDS, type LegKind, legOf } from '../api/legs';
import type { IntentReceipt } from '../api/schemas/receipt';
import { isPlaceholderHash } from '../format/chains';
import type { ExpectedTransfer } from './transfer';

/** One leg to verify. */
export interface LegRef {
  leg: LegKind;
  chainId: number;
  /** The transaction hash, lower case. */
  txnHash: `0x${string}`;
  /** The service says the leg is mined: `txnMinedAt` is set, or its TransactionStatus is SUCCEEDED. */
  serviceMined: boolean;
  /** Destination leg only, when the receipt names the recipient, the token and an integer amount. */
  transfer?: ExpectedTransfer;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const INTEGER = /^[0-9]+$/;

/** The expected transfer of the destination leg, or undefined when the receipt lacks a part of it. */
function expectedTransfer(receipt: IntentReceipt): ExpectedTransfer | undefined {
  const leg = receipt.destinationTransaction;
  const to = receipt.summary?.destinationToAddress;
  const token = receipt.summary?.destinationTokenAddress ?? leg?.tokenAddress;
  const amount = leg?.tokenAmount ?? receipt.summary?.destinationTokenAmount;
  if (!to || !ADDRESS.test(to) || !token || !ADDRESS.test(token) || !amount || !INTEGER.test(amount)) return undefined;
  return { to, token, amount: BigInt(amount) };
}

/** The verifiable legs of `receipt`, in display order (deposit, origin, destination, refund). */
export function verifiableLegs(receipt: IntentReceipt): LegRef[] {
  const refs: LegRef[] = [];
  for (const kind of LEG_KINDS) {
    const tx = legOf(receipt, kind);
    const hash = tx?.txnHash;
    if (!tx || typeof tx.chainId !== 'number' || !hash || !HASH.test(hash) || isPlaceholderHash(hash)) continue;
    const transfer = kind === 'destination' ? expectedTransfer(receipt) : undefined;
    refs.push({
      leg: kind,
      chainId: tx.chainId,
      txnHash: hash.toLowerCase() as `0x${string}`,
      serviceMined: Boolean(tx.txnMinedAt) || tx.status === 'SUCCEEDED',
      ...(transfer ? { transfer } : {}),
    });
  }
  return refs;
}
