/** The legs of an intent (docs/protocol.md, "Receipts"), without zod, so that the popup can use them. */
import type { IntentReceipt, IntentTransaction } from './schemas/receipt';

/** The legs of a receipt in display order. */
export const LEG_KINDS = ['deposit', 'origin', 'destination', 'refund'] as const;
/** One of the four legs of an intent. */
export type LegKind = (typeof LEG_KINDS)[number];

/** Returns the transaction of the given leg, or undefined when the receipt does not carry it. */
export function legOf(receipt: IntentReceipt, kind: LegKind): IntentTransaction | undefined {
  const tx =
    kind === 'deposit'
      ? receipt.depositTransaction
      : kind === 'origin'
        ? receipt.originTransaction
        : kind === 'destination'
          ? receipt.destinationTransaction
          : receipt.refundTransaction;
  return tx ?? undefined;
}

/** True when a leg of `receipt` has the transaction hash `hash` (compared case-insensitively). */
export function hasLegHash(receipt: IntentReceipt, hash: string): boolean {
  const wanted = hash.toLowerCase();
  return LEG_KINDS.some((kind) => legOf(receipt, kind)?.txnHash?.toLowerCase() === wanted);
}
