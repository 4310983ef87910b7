/**
 * Intents (docs/protocol.md §8): the Intent resource with its quote and fees, as QuoteIntent, GetIntent and
 * SearchIntents return it, and the operations that quote, commit and execute one. Raw amounts are exact decimal
 * strings; USD values, ids, chainIds and deadlines are numbers.
 */
import * as z from 'zod/mini';
import { intentStatus, opt, RawAmount, SvcNumber } from './fields';
import { TransactionPrecondition } from './receipt';
import { listAnswer } from './rows';

/** QuoteRequest.options. `slippageTolerance` is a fraction (0.005 = 0.5 %). */
export const QuoteRequestOptions = z.looseObject({
  swapProviderFallback: opt(z.boolean()),
  bridgeProviderFallback: opt(z.boolean()),
  slippageTolerance: opt(SvcNumber),
  svcAddressOverrides: opt(
    z.looseObject({
      svcWalletFactoryAddress: opt(z.string()),
      svcWalletMainModuleAddress: opt(z.string()),
      svcWalletMainModuleUpgradableAddress: opt(z.string()),
      svcWalletGuestModuleAddress: opt(z.string()),
      svcWalletUtilsAddress: opt(z.string()),
    }),
  ),
});

/** QuoteRequest. Token amounts and the call value are raw amounts. */
export const QuoteRequest = z.looseObject({
  ownerAddress: opt(z.string()),
  originChainId: opt(SvcNumber),
  originTokenAddress: opt(z.string()),
  destinationChainId: opt(SvcNumber),
  destinationTokenAddress: opt(z.string()),
  destinationToAddress: opt(z.string()),
  destinationApproveAddress: opt(z.string()),
  destinationCallData: opt(z.string()),
  destinationCallValue: opt(RawAmount),
  originTokenAmount: opt(RawAmount),
  destinationTokenAmount: opt(RawAmount),
  onlyNativeGasFee: opt(z.boolean()),
  options: opt(QuoteRequestOptions),
});

/** IntentDeposit: what to deposit; `amount` and `value` are raw amounts. */
export const IntentDeposit = z.looseObject({
  toAddress: opt(z.string()),
  tokenAddress: opt(z.string()),
  amount: opt(RawAmount),
  chainId: opt(SvcNumber),
  to: opt(z.string()),
  data: opt(z.string()),
  value: opt(RawAmount),
  decimals: opt(SvcNumber),
});

/** Call; `value` in wei (raw). */
export const Call = z.looseObject({
  to: opt(z.string()),
  value: opt(RawAmount),
  data: opt(z.string()),
  gasLimit: opt(RawAmount),
  delegateCall: opt(z.boolean()),
  onlyFallback: opt(z.boolean()),
  behaviorOnError: opt(SvcNumber),
});

/** CallBundle. */
export const CallBundle = z.looseObject({
  chainId: opt(SvcNumber),
  calls: opt(z.array(Call)),
  space: opt(RawAmount),
  nonce: opt(RawAmount),
});

/** MetaTxn. */
export const MetaTxn = z.looseObject({
  id: opt(z.string()),
  chainId: opt(SvcNumber),
  walletAddress: opt(z.string()),
  contract: opt(z.string()),
  input: opt(z.string()),
  bridgeGas: opt(RawAmount),
});

/** Contracts. */
export const Contracts = z.looseObject({
  svcIntentEntrypointAddress: opt(z.string()),
  svcRouterAddress: opt(z.string()),
  svcRouterShimAddress: opt(z.string()),
  svcUtilsAddress: opt(z.string()),
});

const PriceImpactPart = z.looseObject({ priceImpact: opt(SvcNumber), priceImpactUsd: opt(SvcNumber) });

/**
 * Quote. from/to amounts are raw amounts of the origin/destination token; `*Usd` are USD;
 * `maxSlippage` and price impacts as the service sends them; `estimatedDuration` in seconds.
 */
export const Quote = z.looseObject({
  routeProviders: opt(z.array(z.unknown())),
  routeProvidersRequestIds: opt(z.array(z.string())),
  routeProvidersFeeUsd: opt(z.array(SvcNumber)),
  fromAmount: opt(RawAmount),
  fromAmountMin: opt(RawAmount),
  fromAmountUsd: opt(SvcNumber),
  fromAmountMinUsd: opt(SvcNumber),
  toAmount: opt(RawAmount),
  toAmountMin: opt(RawAmount),
  toAmountUsd: opt(SvcNumber),
  toAmountMinUsd: opt(SvcNumber),
  maxSlippage: opt(SvcNumber),
  priceImpact: opt(SvcNumber),
  priceImpactUsd: opt(SvcNumber),
  priceImpactDetails: opt(
    z.looseObject({
      executionPriceImpact: opt(PriceImpactPart),
      marketPriceImpact: opt(PriceImpactPart),
      providerFeesPriceImpact: opt(PriceImpactPart),
      svcFeesPriceImpact: opt(PriceImpactPart),
      netPriceImpact: opt(PriceImpactPart),
    }),
  ),
  estimatedDuration: opt(SvcNumber),
});

/** GasFee: `totalFeeAmount` raw in the native token; `totalFeeUsd` a USD string. */
export const GasFee = z.looseObject({
  chainId: opt(SvcNumber),
  totalGasLimit: opt(RawAmount),
  gasPrice: opt(RawAmount),
  nativeTokenSymbol: opt(z.string()),
  totalFeeAmount: opt(RawAmount),
  totalFeeUsd: opt(z.union([z.string(), z.number()])),
  metaTxnFeeDetails: opt(z.looseObject({ metaTxnId: opt(z.string()), estimatedGasLimit: opt(RawAmount), feeNative: opt(RawAmount) })),
  metaTxnGasQuote: opt(z.string()),
  nativeTokenPriceUsd: opt(SvcNumber),
});

/** ProviderFee: fee amounts raw, `*Usd` in USD. */
export const ProviderFee = z.looseObject({
  quoteProvider: opt(z.string()),
  quoteProviderFee: opt(RawAmount),
  quoteProviderFeeUsd: opt(SvcNumber),
  svcFee: opt(RawAmount),
  svcFeeUsd: opt(SvcNumber),
  quoteProviderWithSvcFee: opt(RawAmount),
  providerWithSvcFeeUsd: opt(SvcNumber),
  totalFeeAmount: opt(RawAmount),
  totalFeeUsd: opt(SvcNumber),
});

/** Fees: totals raw (fee token units), `*Usd` in USD. */
export const Fees = z.looseObject({
  originGas: opt(GasFee),
  destinationGas: opt(GasFee),
  provider: opt(ProviderFee),
  feeTokenAddress: opt(z.string()),
  feeTokenAmount: opt(RawAmount),
  feeTokenUsd: opt(SvcNumber),
  feeTokenTotal: opt(RawAmount),
  gasFeeTotal: opt(RawAmount),
  gasFeeUsd: opt(SvcNumber),
  svcFeeTotal: opt(RawAmount),
  svcFeeUsd: opt(SvcNumber),
  collectorFeeTotal: opt(RawAmount),
  collectorFeeUsd: opt(SvcNumber),
  providerFeeTotal: opt(RawAmount),
  providerFeeUsd: opt(SvcNumber),
  totalFeeAmount: opt(RawAmount),
  totalFeeUsd: opt(SvcNumber),
});

/** FeeOption: `amount` raw in the fee token. */
export const FeeOption = z.looseObject({
  tokenAddress: opt(z.string()),
  tokenSymbol: opt(z.string()),
  tokenDecimals: opt(SvcNumber),
  amount: opt(RawAmount),
  amountUsd: opt(SvcNumber),
  feeCollectorAddress: opt(z.string()),
  is2612: opt(z.boolean()),
  isPassthroughEligible: opt(z.boolean()),
});

/** GasFeeOptions. */
export const GasFeeOptions = z.looseObject({
  gasEstimate: opt(
    z.looseObject({ totalGas: opt(RawAmount), gasPrice: opt(RawAmount), nativeCost: opt(RawAmount), nativeCostUsd: opt(SvcNumber) }),
  ),
  feeOptions: opt(z.array(FeeOption)),
  expiresAt: opt(z.string()),
  feeCollectorAddress: opt(z.string()),
});

/** Intent: returned by SearchIntents, GetIntent and QuoteIntent, sent back to CommitIntent. */
export const Intent = z.looseObject({
  id: opt(SvcNumber),
  projectId: opt(SvcNumber),
  intentId: z.string(),
  status: opt(intentStatus),
  quoteRequest: opt(QuoteRequest),
  ownerAddress: opt(z.string()),
  originChainId: opt(SvcNumber),
  destinationChainId: opt(SvcNumber),
  originTokenAddress: opt(z.string()),
  destinationTokenAddress: opt(z.string()),
  originIntentAddress: opt(z.string()),
  salt: opt(RawAmount),
  depositTransaction: opt(IntentDeposit),
  originCalls: opt(CallBundle),
  originPrecondition: opt(TransactionPrecondition),
  originMetaTxn: opt(MetaTxn),
  quote: opt(Quote),
  fees: opt(Fees),
  svcVersion: opt(z.string()),
  svcContracts: opt(Contracts),
  expiresAt: opt(z.string()),
  destinationIntentAddress: opt(z.string()),
  passthrough: opt(z.boolean()),
  destinationCalls: opt(CallBundle),
  destinationPrecondition: opt(TransactionPrecondition),
  destinationMetaTxn: opt(MetaTxn),
  gasFeeOptions: opt(GasFeeOptions),
  updatedAt: opt(z.string()),
  createdAt: opt(z.string()),
});
export type Intent = z.output<typeof Intent>;

/** SearchIntents request; at least one filter. */
export const SearchIntentsRequest = z.object({
  byIntentId: z.optional(z.string()),
  byProjectId: z.optional(z.number()),
  byTransactionHash: z.optional(z.string()),
  byOwnerAddress: z.optional(z.string()),
  byOriginIntentAddress: z.optional(z.string()),
  byDestinationIntentAddress: z.optional(z.string()),
  byQueryString: z.optional(z.string()),
});
export type SearchIntentsRequest = z.input<typeof SearchIntentsRequest>;
/** SearchIntents response: not paginated; read row by row (`./rows`): a row that is not an Intent is set aside. */
export const SearchIntentsResponse = listAnswer(Intent);
export type SearchIntentsResponse = z.output<typeof SearchIntentsResponse>;

/** CommitIntent response. */
export const CommitIntentResponse = z.looseObject({ intentId: z.string() });
export type CommitIntentResponse = z.output<typeof CommitIntentResponse>;

/** A light reading of a SearchIntents response: intentIds and the quote's estimated duration (seconds). */
const SearchLiteRow = z.looseObject({ intentId: z.string(), quote: opt(z.looseObject({ estimatedDuration: opt(SvcNumber) })) });
/** Read row by row as {@link SearchIntentsResponse}. */
export const SearchLiteResponse = listAnswer(SearchLiteRow);
export type SearchLiteResponse = z.output<typeof SearchLiteResponse>;

/** GetIntent: `{intentId}` → `{intent}`. */
export const GetIntentRequest = z.object({ intentId: z.string() });
export type GetIntentRequest = z.input<typeof GetIntentRequest>;
export const GetIntentResponse = z.looseObject({ intent: Intent });
export type GetIntentResponse = z.output<typeof GetIntentResponse>;

/** QuoteIntent request. Amounts are raw (smallest unit) decimal strings. */
export const QuoteIntentRequest = z.object({
  ownerAddress: z.string(),
  originChainId: z.number(),
  originTokenAddress: z.string(),
  destinationChainId: z.number(),
  destinationTokenAddress: z.string(),
  destinationToAddress: z.optional(z.string()),
  originTokenAmount: z.optional(z.string()),
  destinationTokenAmount: z.optional(z.string()),
  tradeType: z.optional(z.enum(['EXACT_INPUT', 'EXACT_OUTPUT'])),
  options: z.optional(QuoteRequestOptions),
});
export type QuoteIntentRequest = z.input<typeof QuoteIntentRequest>;
/** QuoteIntent response. */
export const QuoteIntentResponse = z.looseObject({ intent: Intent, gasFeeOptions: opt(GasFeeOptions) });
export type QuoteIntentResponse = z.output<typeof QuoteIntentResponse>;

/** ExecuteIntent request/response. */
export const ExecuteIntentRequest = z.object({
  intentId: z.string(),
  depositTransactionHash: z.optional(z.string()),
  depositSignature: z.optional(z.string()),
});
export type ExecuteIntentRequest = z.input<typeof ExecuteIntentRequest>;
export const ExecuteIntentResponse = z.looseObject({ intentId: z.string(), intentStatus: intentStatus });
export type ExecuteIntentResponse = z.output<typeof ExecuteIntentResponse>;
