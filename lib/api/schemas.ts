/**
 * zod schemas for the receipt side of the Svc intent service (spec `intent-service-interface.md` §2.2–2.4, §4.1,
 * §4.2), tolerant of the deployed drift listed in `deployed-wire-notes.md`:
 *
 * - raw token amounts arrive as decimal strings (deployed) or JSON numbers (spec); both are kept as an exact
 *   decimal string (`RawAmount`), never a JS float;
 * - enum values are any string: the known names are typed, unknown ones are kept as they came;
 * - unknown fields are kept (loose objects), `null` is accepted wherever a field may be absent.
 */
import * as z from 'zod/mini';

export {
  FINAL_INTENT_STATUSES,
  INTENT_STATUSES,
  type IntentStatus,
  type KnownIntentStatus,
  type KnownTransactionStatus,
  LEG_KINDS,
  type LegKind,
  legOf,
  TRANSACTION_STATUSES,
  type TransactionStatus,
} from './types';

import type { IntentStatus, TransactionStatus } from './types';

const intentStatus = z.string() as unknown as z.ZodMiniType<IntentStatus>;
const transactionStatus = z.string() as unknown as z.ZodMiniType<TransactionStatus>;

/**
 * A raw token amount in the token's smallest unit, as an exact base-10 integer string ("7845000000000000000").
 * Accepts a string, a JSON number or a bigint (the client's lossless JSON parser hands integers above 2^53 over as
 * strings). Non-integer or non-numeric strings are kept as they are; formatting shows them as unknown rather than
 * guessing.
 */
export const RawAmount = z.pipe(
  z.union([z.string(), z.number(), z.bigint()]),
  z.transform((v: string | number | bigint) =>
    typeof v === 'number' ? (Number.isInteger(v) ? BigInt(v).toString() : String(v)) : String(v),
  ),
);
/** Exact decimal string of a raw amount (smallest token unit). See {@link RawAmount}. */
export type RawAmount = z.output<typeof RawAmount>;

/** Optional field helper: absent, `null` or the given type. */
const opt = <T extends z.ZodMiniType>(s: T) => z.nullish(s);

/** TokenMetadata (spec §2.4): `decimals` scales raw amounts to display units. */
export const TokenMetadata = z.looseObject({
  chainId: opt(z.number()),
  tokenAddress: opt(z.string()),
  name: opt(z.string()),
  symbol: opt(z.string()),
  decimals: opt(z.number()),
  logoUri: opt(z.string()),
});
export type TokenMetadata = z.output<typeof TokenMetadata>;

/** TransactionPrecondition (spec §2.3); `minAmount` is a raw amount. */
export const TransactionPrecondition = z.looseObject({
  type: opt(z.string()),
  chainId: opt(z.number()),
  ownerAddress: opt(z.string()),
  tokenAddress: opt(z.string()),
  minAmount: opt(RawAmount),
});
export type TransactionPrecondition = z.output<typeof TransactionPrecondition>;

/** DepositIntentEntry (spec §2.3): deposit signature details. Deadlines are Unix seconds. */
export const DepositIntentEntry = z.looseObject({
  feeAmount: opt(z.string()),
  feeToken: opt(z.string()),
  feeCollector: opt(z.string()),
  deadline: opt(z.number()),
  intentSignature: opt(z.string()),
  permitSignature: opt(z.string()),
  permitDeadline: opt(z.number()),
  permitAmount: opt(RawAmount),
  userNonce: opt(z.number()),
});
export type DepositIntentEntry = z.output<typeof DepositIntentEntry>;

/**
 * IntentTransaction (spec §2.3): one leg of an intent (deposit, origin, destination or refund).
 * `tokenAmount` and `bridgeGas` are raw amounts; `txnMinedAt` is an ISO 8601 string. A `txnHash` ending in ten or
 * more zeros is a placeholder (wire notes).
 */
export const IntentTransaction = z.looseObject({
  id: opt(z.number()),
  intentId: opt(z.string()),
  chainId: opt(z.number()),
  fromAddress: opt(z.string()),
  toAddress: opt(z.string()),
  tokenAddress: opt(z.string()),
  tokenAmount: opt(RawAmount),
  status: opt(transactionStatus),
  statusReason: opt(z.string()),
  bridgeGas: opt(RawAmount),
  calldata: opt(z.string()),
  metaTxnId: opt(z.string()),
  metaTxnFeeQuote: opt(z.string()),
  precondition: opt(TransactionPrecondition),
  depositIntentEntry: opt(DepositIntentEntry),
  txnHash: opt(z.string()),
  txnMinedAt: opt(z.string()),
  updatedAt: opt(z.string()),
  createdAt: opt(z.string()),
});
export type IntentTransaction = z.output<typeof IntentTransaction>;

/** IntentReceiptSummary (spec §2.4). Token amounts are raw amounts; times are ISO 8601 strings. */
export const IntentReceiptSummary = z.looseObject({
  intentId: opt(z.string()),
  ownerAddress: opt(z.string()),
  originChainId: opt(z.number()),
  destinationChainId: opt(z.number()),
  routeProviders: opt(z.array(z.unknown())),
  originIntentAddress: opt(z.string()),
  originTokenAddress: opt(z.string()),
  originTokenAmount: opt(RawAmount),
  originTokenMetadata: opt(TokenMetadata),
  destinationIntentAddress: opt(z.string()),
  destinationTokenMetadata: opt(TokenMetadata),
  destinationHasCallData: opt(z.boolean()),
  destinationHasCallValue: opt(z.boolean()),
  createdAt: opt(z.string()),
  expiresAt: opt(z.string()),
  destinationTokenAddress: opt(z.string()),
  destinationTokenAmount: opt(RawAmount),
  destinationToAddress: opt(z.string()),
  memo: opt(z.string()),
  startedAt: opt(z.string()),
  finishedAt: opt(z.string()),
  quotedOriginTokenAmount: opt(RawAmount),
  quotedDestinationTokenAmount: opt(RawAmount),
});
export type IntentReceiptSummary = z.output<typeof IntentReceiptSummary>;

/** IntentReceipt (spec §2.2): status and every leg of one intent. `intentId` and `status` are required. */
export const IntentReceipt = z.looseObject({
  id: opt(z.number()),
  projectId: opt(z.number()),
  intentId: z.string(),
  status: intentStatus,
  ownerAddress: opt(z.string()),
  originChainId: opt(z.number()),
  destinationChainId: opt(z.number()),
  depositTransactionId: opt(z.number()),
  depositTransaction: opt(IntentTransaction),
  originTransactionId: opt(z.number()),
  originTransaction: opt(IntentTransaction),
  summary: opt(IntentReceiptSummary),
  destinationTransactionId: opt(z.number()),
  destinationTransaction: opt(IntentTransaction),
  refundTransactionId: opt(z.number()),
  refundTransaction: opt(IntentTransaction),
  updatedAt: opt(z.string()),
  createdAt: opt(z.string()),
});
export type IntentReceipt = z.output<typeof IntentReceipt>;

/** GetIntentReceipt request (spec §4.2). */
export const GetIntentReceiptRequest = z.object({ intentId: z.string() });
export type GetIntentReceiptRequest = z.input<typeof GetIntentReceiptRequest>;
/** GetIntentReceipt response (spec §4.2). */
export const GetIntentReceiptResponse = z.looseObject({ intentReceipt: IntentReceipt });
export type GetIntentReceiptResponse = z.output<typeof GetIntentReceiptResponse>;

/**
 * WaitIntentReceipt request (spec §4.1). `lastReceiptStates` is the previous response's `receiptStates`:
 * TransactionStatus by position [deposit, origin, destination] (wire notes); empty on the first call.
 */
export const WaitIntentReceiptRequest = z.object({
  intentId: z.string(),
  lastReceiptStates: z.optional(z.array(transactionStatus)),
});
export type WaitIntentReceiptRequest = z.input<typeof WaitIntentReceiptRequest>;
/**
 * WaitIntentReceipt response (spec §4.1). `done` is true once the intent is SUCCEEDED or FAILED; false means the
 * server's wait timed out or states changed and the client should call again with `receiptStates`.
 */
export const WaitIntentReceiptResponse = z.looseObject({
  intentReceipt: IntentReceipt,
  receiptStates: opt(z.array(transactionStatus)),
  done: z.boolean(),
});
export type WaitIntentReceiptResponse = z.output<typeof WaitIntentReceiptResponse>;

/**
 * A light reading of a GetIntentHistory response (spec §4.3): only what the tracker's batch refresh needs
 * (intentId, status, receipt, nextPage). The full schema is in `./operations`.
 */
export const HistoryLiteResponse = z.looseObject({
  intents: z.array(z.looseObject({ intentId: z.string(), status: intentStatus, receipt: opt(IntentReceipt) })),
  nextPage: opt(z.looseObject({ after: opt(z.number()), more: opt(z.boolean()) })),
});
export type HistoryLiteResponse = z.output<typeof HistoryLiteResponse>;

/** A light reading of a SearchIntents response: intentIds and the quote's estimated duration (seconds). */
export const SearchLiteResponse = z.looseObject({
  intents: z.array(z.looseObject({ intentId: z.string(), quote: opt(z.looseObject({ estimatedDuration: opt(z.number()) })) })),
});
export type SearchLiteResponse = z.output<typeof SearchLiteResponse>;
