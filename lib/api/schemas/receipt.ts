/**
 * Receipts (docs/protocol.md §5): what an intent did, leg by leg, as GetIntentReceipt and WaitIntentReceipt return
 * it. Unknown fields are kept; amounts are exact decimal strings (see `./fields`).
 */
import * as z from 'zod/mini';
import { intentStatus, opt, RawAmount, SvcNumber, transactionStatus } from './fields';

/** TokenMetadata: `decimals` scales raw amounts to display units. */
export const TokenMetadata = z.looseObject({
  chainId: opt(SvcNumber),
  tokenAddress: opt(z.string()),
  name: opt(z.string()),
  symbol: opt(z.string()),
  decimals: opt(SvcNumber),
  logoUri: opt(z.string()),
});
export type TokenMetadata = z.output<typeof TokenMetadata>;

/** TransactionPrecondition; `minAmount` is a raw amount. */
export const TransactionPrecondition = z.looseObject({
  type: opt(z.string()),
  chainId: opt(SvcNumber),
  ownerAddress: opt(z.string()),
  tokenAddress: opt(z.string()),
  minAmount: opt(RawAmount),
});
export type TransactionPrecondition = z.output<typeof TransactionPrecondition>;

/** DepositIntentEntry: deposit signature details. Deadlines are Unix seconds. */
export const DepositIntentEntry = z.looseObject({
  feeAmount: opt(z.string()),
  feeToken: opt(z.string()),
  feeCollector: opt(z.string()),
  deadline: opt(SvcNumber),
  intentSignature: opt(z.string()),
  permitSignature: opt(z.string()),
  permitDeadline: opt(SvcNumber),
  permitAmount: opt(RawAmount),
  userNonce: opt(SvcNumber),
});
export type DepositIntentEntry = z.output<typeof DepositIntentEntry>;

/**
 * IntentTransaction: one leg of an intent (deposit, origin, destination or refund).
 * `tokenAmount` and `bridgeGas` are raw amounts; `txnMinedAt` is an ISO 8601 string. A `txnHash` ending in ten or
 * more zeros is a placeholder.
 */
export const IntentTransaction = z.looseObject({
  id: opt(SvcNumber),
  intentId: opt(z.string()),
  chainId: opt(SvcNumber),
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

/** IntentReceiptSummary. Token amounts are raw amounts; times are ISO 8601 strings. */
export const IntentReceiptSummary = z.looseObject({
  intentId: opt(z.string()),
  ownerAddress: opt(z.string()),
  originChainId: opt(SvcNumber),
  destinationChainId: opt(SvcNumber),
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

/** IntentReceipt: status and every leg of one intent. `intentId` and `status` are required. */
export const IntentReceipt = z.looseObject({
  id: opt(SvcNumber),
  projectId: opt(SvcNumber),
  intentId: z.string(),
  status: intentStatus,
  ownerAddress: opt(z.string()),
  originChainId: opt(SvcNumber),
  destinationChainId: opt(SvcNumber),
  depositTransactionId: opt(SvcNumber),
  depositTransaction: opt(IntentTransaction),
  originTransactionId: opt(SvcNumber),
  originTransaction: opt(IntentTransaction),
  summary: opt(IntentReceiptSummary),
  destinationTransactionId: opt(SvcNumber),
  destinationTransaction: opt(IntentTransaction),
  refundTransactionId: opt(SvcNumber),
  refundTransaction: opt(IntentTransaction),
  updatedAt: opt(z.string()),
  createdAt: opt(z.string()),
});
export type IntentReceipt = z.output<typeof IntentReceipt>;

/** GetIntentReceipt request. */
export const GetIntentReceiptRequest = z.object({ intentId: z.string() });
export type GetIntentReceiptRequest = z.input<typeof GetIntentReceiptRequest>;
/** GetIntentReceipt response. */
export const GetIntentReceiptResponse = z.looseObject({ intentReceipt: IntentReceipt });
export type GetIntentReceiptResponse = z.output<typeof GetIntentReceiptResponse>;

/**
 * WaitIntentReceipt request. `lastReceiptStates` is the previous response's `receiptStates`:
 * TransactionStatus by position [deposit, origin, destination]; empty on the first call.
 */
export const WaitIntentReceiptRequest = z.object({
  intentId: z.string(),
  lastReceiptStates: z.optional(z.array(transactionStatus)),
});
export type WaitIntentReceiptRequest = z.input<typeof WaitIntentReceiptRequest>;
/**
 * WaitIntentReceipt response. `done` is true once the intent is SUCCEEDED or FAILED; false means the
 * server's wait timed out or states changed and the client should call again with `receiptStates`.
 */
export const WaitIntentReceiptResponse = z.looseObject({
  intentReceipt: IntentReceipt,
  receiptStates: opt(z.array(transactionStatus)),
  done: z.boolean(),
});
export type WaitIntentReceiptResponse = z.output<typeof WaitIntentReceiptResponse>;
