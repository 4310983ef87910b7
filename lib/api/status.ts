/**
 * The status names of the service (docs/protocol.md, "Statuses"), without zod, so that the popup can use them.
 * The service may send names not listed here: they are kept as plain strings and shown as they came.
 */

/** IntentStatus names. */
export const INTENT_STATUSES = ['QUOTED', 'COMMITTED', 'EXECUTING', 'FAILED', 'SUCCEEDED', 'ABORTED', 'REFUNDED', 'INVALID'] as const;
/** A known IntentStatus name. */
export type KnownIntentStatus = (typeof INTENT_STATUSES)[number];
/** IntentStatus as received: a known name, or any other string the service sends. */
export type IntentStatus = KnownIntentStatus | (string & {});

/** TransactionStatus names: the specified ones (RELAYED only from the early client) and the deployed ones. */
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
/** TransactionStatus as received: a known name or any other string. */
export type TransactionStatus = KnownTransactionStatus | (string & {});

/** Intent statuses after which no more progress is expected (the official client's list), so tracking stops. */
export const FINAL_INTENT_STATUSES: readonly IntentStatus[] = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID'];
