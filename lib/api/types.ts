/**
 * Plain names and helpers of the receipt side (spec §2.1, §2.2), without zod, for code that must stay small (the
 * popup). The zod schemas in `./schemas` re-export these.
 */
import type { IntentReceipt, IntentTransaction } from './schemas';

/** IntentStatus names of spec §2.1. The service may send others; they are kept as plain strings. */
export const INTENT_STATUSES = ['QUOTED', 'COMMITTED', 'EXECUTING', 'FAILED', 'SUCCEEDED', 'ABORTED', 'REFUNDED', 'INVALID'] as const;
/** A known IntentStatus name (spec §2.1). */
export type KnownIntentStatus = (typeof INTENT_STATUSES)[number];
/** IntentStatus as received: a known name, or any other string the service sends (shown as it is). */
export type IntentStatus = KnownIntentStatus | (string & {});

/**
 * TransactionStatus names: the spec's (§2.1, including RELAYED from the early client) and the deployed ones
 * (ON_HOLD, SENT, ERRORED, ABORTED, REVERTED).
 */
export const TRANSACTION_STATUSES = [
  'UNKNOWN',
  'ON_HOLD',
  'PENDING',
  'RELAYING',
  'RELAYED',
  'SENT',
  'MINING',
  'SUCCEEDED',
  'ERRORED',
  'FAILED',
  'ABORTED',
  'REVERTED',
] as const;
/** A known TransactionStatus name. */
export type KnownTransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** TransactionStatus as received: a known name or any other string (kept, shown as it is). */
export type TransactionStatus = KnownTransactionStatus | (string & {});

/**
 * Intent statuses the official client also treats as final (wire notes): no more progress is expected, so the
 * tracker stops waiting on them.
 */
export const FINAL_INTENT_STATUSES: readonly IntentStatus[] = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID'];

/** The legs of a receipt in display order, with the receipt field each comes from. */
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
