/**
 * zod schemas of the Intent resources (spec §2.5–2.8) and of every operation's request and response (spec §4, and
 * the deployed shapes of `deployed-wire-notes.md` for GetIntent, QuoteIntent, ExecuteIntent, GetTokenPrices).
 *
 * Same tolerance as `./schemas`: raw amounts kept as exact decimal strings, unknown enum strings kept, unknown
 * fields passed through, `null` accepted for absent fields. USD values, ids, chainIds and deadlines are numbers.
 */
import * as z from 'zod/mini';
import { IntentReceipt, type IntentStatus, RawAmount, TransactionPrecondition } from './schemas';

const opt = <T extends z.ZodMiniType>(s: T) => z.nullish(s);
const str = () => opt(z.string());
const num = () => opt(z.number());
const bool = () => opt(z.boolean());
const raw = () => opt(RawAmount);
const intentStatus = z.string() as unknown as z.ZodMiniType<IntentStatus>;

/** QuoteRequest.options (spec §2.7). `slippageTolerance` is a fraction (0.005 = 0.5 %). */
export const QuoteRequestOptions = z.looseObject({
  swapProviderFallback: bool(),
  bridgeProviderFallback: bool(),
  slippageTolerance: num(),
  svcAddressOverrides: opt(
    z.looseObject({
      svcWalletFactoryAddress: str(),
      svcWalletMainModuleAddress: str(),
      svcWalletMainModuleUpgradableAddress: str(),
      svcWalletGuestModuleAddress: str(),
      svcWalletUtilsAddress: str(),
    }),
  ),
});

/** QuoteRequest (spec §2.7). Token amounts and the call value are raw amounts. */
export const QuoteRequest = z.looseObject({
  ownerAddress: str(),
  originChainId: num(),
  originTokenAddress: str(),
  destinationChainId: num(),
  destinationTokenAddress: str(),
  destinationToAddress: str(),
  destinationApproveAddress: str(),
  destinationCallData: str(),
  destinationCallValue: raw(),
  originTokenAmount: raw(),
  destinationTokenAmount: raw(),
  onlyNativeGasFee: bool(),
  options: opt(QuoteRequestOptions),
});

/** IntentDeposit (spec §2.7): what to deposit; `amount` and `value` are raw amounts. */
export const IntentDeposit = z.looseObject({
  toAddress: str(),
  tokenAddress: str(),
  amount: raw(),
  chainId: num(),
  to: str(),
  data: str(),
  value: raw(),
  decimals: num(),
});

/** Call (spec §2.7); `value` in wei (raw). */
export const Call = z.looseObject({
  to: str(),
  value: raw(),
  data: str(),
  gasLimit: raw(),
  delegateCall: bool(),
  onlyFallback: bool(),
  behaviorOnError: num(),
});

/** CallBundle (spec §2.7). */
export const CallBundle = z.looseObject({ chainId: num(), calls: opt(z.array(Call)), space: raw(), nonce: raw() });

/** MetaTxn (spec §2.7). */
export const MetaTxn = z.looseObject({
  id: str(),
  chainId: num(),
  walletAddress: str(),
  contract: str(),
  input: str(),
  bridgeGas: raw(),
});

/** Contracts (spec §2.7). */
export const Contracts = z.looseObject({
  svcIntentEntrypointAddress: str(),
  svcRouterAddress: str(),
  svcRouterShimAddress: str(),
  svcUtilsAddress: str(),
});

const PriceImpactPart = z.looseObject({ priceImpact: num(), priceImpactUsd: num() });

/**
 * Quote (spec §2.7). from/to amounts are raw amounts of the origin/destination token; `*Usd` are USD;
 * `maxSlippage` and price impacts as the service sends them; `estimatedDuration` in seconds.
 */
export const Quote = z.looseObject({
  routeProviders: opt(z.array(z.unknown())),
  routeProvidersRequestIds: opt(z.array(z.string())),
  routeProvidersFeeUsd: opt(z.array(z.number())),
  fromAmount: raw(),
  fromAmountMin: raw(),
  fromAmountUsd: num(),
  fromAmountMinUsd: num(),
  toAmount: raw(),
  toAmountMin: raw(),
  toAmountUsd: num(),
  toAmountMinUsd: num(),
  maxSlippage: num(),
  priceImpact: num(),
  priceImpactUsd: num(),
  priceImpactDetails: opt(
    z.looseObject({
      executionPriceImpact: opt(PriceImpactPart),
      marketPriceImpact: opt(PriceImpactPart),
      providerFeesPriceImpact: opt(PriceImpactPart),
      svcFeesPriceImpact: opt(PriceImpactPart),
      netPriceImpact: opt(PriceImpactPart),
    }),
  ),
  estimatedDuration: num(),
});

/** GasFee (spec §2.7): `totalFeeAmount` raw in the native token; `totalFeeUsd` a USD string. */
export const GasFee = z.looseObject({
  chainId: num(),
  totalGasLimit: raw(),
  gasPrice: raw(),
  nativeTokenSymbol: str(),
  totalFeeAmount: raw(),
  totalFeeUsd: opt(z.union([z.string(), z.number()])),
  metaTxnFeeDetails: opt(z.looseObject({ metaTxnId: str(), estimatedGasLimit: raw(), feeNative: raw() })),
  metaTxnGasQuote: str(),
  nativeTokenPriceUsd: num(),
});

/** ProviderFee (spec §2.7): fee amounts raw, `*Usd` in USD. */
export const ProviderFee = z.looseObject({
  quoteProvider: str(),
  quoteProviderFee: raw(),
  quoteProviderFeeUsd: num(),
  svcFee: raw(),
  svcFeeUsd: num(),
  quoteProviderWithSvcFee: raw(),
  providerWithSvcFeeUsd: num(),
  totalFeeAmount: raw(),
  totalFeeUsd: num(),
});

/** Fees (spec §2.7): totals raw (fee token units), `*Usd` in USD. */
export const Fees = z.looseObject({
  originGas: opt(GasFee),
  destinationGas: opt(GasFee),
  provider: opt(ProviderFee),
  feeTokenAddress: str(),
  feeTokenAmount: raw(),
  feeTokenUsd: num(),
  feeTokenTotal: raw(),
  gasFeeTotal: raw(),
  gasFeeUsd: num(),
  svcFeeTotal: raw(),
  svcFeeUsd: num(),
  collectorFeeTotal: raw(),
  collectorFeeUsd: num(),
  providerFeeTotal: raw(),
  providerFeeUsd: num(),
  totalFeeAmount: raw(),
  totalFeeUsd: num(),
});

/** FeeOption (spec §2.7): `amount` raw in the fee token. */
export const FeeOption = z.looseObject({
  tokenAddress: str(),
  tokenSymbol: str(),
  tokenDecimals: num(),
  amount: raw(),
  amountUsd: num(),
  feeCollectorAddress: str(),
  is2612: bool(),
  isPassthroughEligible: bool(),
});

/** GasFeeOptions (spec §2.7). */
export const GasFeeOptions = z.looseObject({
  gasEstimate: opt(z.looseObject({ totalGas: raw(), gasPrice: raw(), nativeCost: raw(), nativeCostUsd: num() })),
  feeOptions: opt(z.array(FeeOption)),
  expiresAt: str(),
  feeCollectorAddress: str(),
});

/** Intent (spec §2.7): returned by SearchIntents, GetIntent and QuoteIntent, sent back to CommitIntent. */
export const Intent = z.looseObject({
  id: num(),
  projectId: num(),
  intentId: z.string(),
  status: opt(intentStatus),
  quoteRequest: opt(QuoteRequest),
  ownerAddress: str(),
  originChainId: num(),
  destinationChainId: num(),
  originTokenAddress: str(),
  destinationTokenAddress: str(),
  originIntentAddress: str(),
  salt: raw(),
  depositTransaction: opt(IntentDeposit),
  originCalls: opt(CallBundle),
  originPrecondition: opt(TransactionPrecondition),
  originMetaTxn: opt(MetaTxn),
  quote: opt(Quote),
  fees: opt(Fees),
  svcVersion: str(),
  svcContracts: opt(Contracts),
  expiresAt: str(),
  destinationIntentAddress: str(),
  passthrough: bool(),
  destinationCalls: opt(CallBundle),
  destinationPrecondition: opt(TransactionPrecondition),
  destinationMetaTxn: opt(MetaTxn),
  gasFeeOptions: opt(GasFeeOptions),
  updatedAt: str(),
  createdAt: str(),
});
export type Intent = z.output<typeof Intent>;

/** TokenBalance (spec §2.5): `balance` raw; `balanceUsd`/`priceUsd` USD strings. */
export const TokenBalance = z.looseObject({
  contractAddress: str(),
  balance: raw(),
  balanceUsd: opt(z.union([z.string(), z.number()])),
  priceUsd: opt(z.union([z.string(), z.number()])),
  decimals: num(),
  chainId: num(),
  symbol: str(),
});
export type TokenBalance = z.output<typeof TokenBalance>;

/** BalanceEntry (spec §2.5): what an intent address holds on one chain. */
export const BalanceEntry = z.looseObject({ intentAddress: str(), chainId: num(), tokens: opt(z.array(TokenBalance)) });
export type BalanceEntry = z.output<typeof BalanceEntry>;

/** IntentHistory (spec §2.5): one row of GetIntentHistory with its full receipt. */
export const IntentHistory = z.looseObject({
  intentId: z.string(),
  status: intentStatus,
  expiresAt: str(),
  receipt: opt(IntentReceipt),
  updatedAt: str(),
  createdAt: str(),
  hasBalance: bool(),
  balances: opt(z.array(BalanceEntry)),
});
export type IntentHistory = z.output<typeof IntentHistory>;

/** SortOrder and SortBy (spec §2.6). */
export const SortBy = z.looseObject({ column: z.string(), order: z.string() as unknown as z.ZodMiniType<'ASC' | 'DESC'> });
export type SortBy = z.output<typeof SortBy>;

/**
 * Page (spec §2.6): `column` is `id` or `createdAt`; `after`/`before` are cursors (values of `column`; ms since the
 * epoch for createdAt); `pageSize` defaults to 20; `more` tells whether another page exists.
 */
export const Page = z.looseObject({
  column: str(),
  before: num(),
  after: num(),
  sort: opt(z.array(SortBy)),
  pageSize: num(),
  more: bool(),
});
export type Page = z.output<typeof Page>;

/** TokenInfo (spec §2.8). */
export const TokenInfo = z.looseObject({
  chainId: z.number(),
  address: z.string(),
  name: z.string(),
  symbol: z.string(),
  decimals: z.number(),
  featured: z.boolean(),
  featureIndex: z.number(),
  supportsBridging: bool(),
  logoUri: str(),
});
export type TokenInfo = z.output<typeof TokenInfo>;

// ---- Operations (spec §4) ----

/** GetIntentHistory request (spec §4.3); every field optional. `fromTime`/`toTime` are Unix seconds, inclusive. */
export const GetIntentHistoryRequest = z.object({
  page: z.optional(z.partial(Page)),
  byProjectId: z.optional(z.number()),
  byOwnerAddress: z.optional(z.string()),
  byStatus: z.optional(intentStatus),
  byStatuses: z.optional(z.array(intentStatus)),
  originChainId: z.optional(z.number()),
  originTokenAddress: z.optional(z.string()),
  destinationChainId: z.optional(z.number()),
  destinationTokenAddress: z.optional(z.string()),
  fromTime: z.optional(z.number()),
  toTime: z.optional(z.number()),
  includeBalances: z.optional(z.boolean()),
  onlyRecoverable: z.optional(z.boolean()),
});
export type GetIntentHistoryRequest = z.input<typeof GetIntentHistoryRequest>;
/** GetIntentHistory response (spec §4.3): `nextPage` absent or null on the last page. */
export const GetIntentHistoryResponse = z.looseObject({ intents: z.array(IntentHistory), nextPage: opt(Page) });
export type GetIntentHistoryResponse = z.output<typeof GetIntentHistoryResponse>;

/** SearchIntents request (spec §4.4); at least one filter. */
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
/** SearchIntents response (spec §4.4): not paginated. */
export const SearchIntentsResponse = z.looseObject({ intents: z.array(Intent) });
export type SearchIntentsResponse = z.output<typeof SearchIntentsResponse>;

/** CommitIntent response (spec §4.5). */
export const CommitIntentResponse = z.looseObject({ intentId: z.string() });
export type CommitIntentResponse = z.output<typeof CommitIntentResponse>;

/** GetExactOutputRoutes request (spec §4.6). */
export const GetExactOutputRoutesRequest = z.object({
  destinationChainId: z.number(),
  destinationTokenAddress: z.string(),
  originChainId: z.optional(z.number()),
  originTokenAddress: z.optional(z.string()),
  ownerAddress: z.optional(z.string()),
});
export type GetExactOutputRoutesRequest = z.input<typeof GetExactOutputRoutesRequest>;
/** GetExactOutputRoutes response (spec §4.6): empty when no route exists. */
export const GetExactOutputRoutesResponse = z.looseObject({ tokens: z.array(TokenInfo) });
export type GetExactOutputRoutesResponse = z.output<typeof GetExactOutputRoutesResponse>;

/** GetIntent request/response (wire notes: `{intentId}` → `{intent}`). */
export const GetIntentRequest = z.object({ intentId: z.string() });
export type GetIntentRequest = z.input<typeof GetIntentRequest>;
export const GetIntentResponse = z.looseObject({ intent: Intent });
export type GetIntentResponse = z.output<typeof GetIntentResponse>;

/** QuoteIntent request (wire notes). Amounts are raw (smallest unit) decimal strings. */
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
/** QuoteIntent response (wire notes). */
export const QuoteIntentResponse = z.looseObject({ intent: Intent, gasFeeOptions: opt(GasFeeOptions) });
export type QuoteIntentResponse = z.output<typeof QuoteIntentResponse>;

/** ExecuteIntent request/response (wire notes). */
export const ExecuteIntentRequest = z.object({
  intentId: z.string(),
  depositTransactionHash: z.optional(z.string()),
  depositSignature: z.optional(z.string()),
});
export type ExecuteIntentRequest = z.input<typeof ExecuteIntentRequest>;
export const ExecuteIntentResponse = z.looseObject({ intentId: z.string(), intentStatus: intentStatus });
export type ExecuteIntentResponse = z.output<typeof ExecuteIntentResponse>;

/** GetTokenPrices request/response (wire notes); `priceUsd` in USD, absent when unknown. */
export const GetTokenPricesRequest = z.object({ tokens: z.array(z.object({ chainId: z.number(), tokenAddress: z.string() })) });
export type GetTokenPricesRequest = z.input<typeof GetTokenPricesRequest>;
export const GetTokenPricesResponse = z.looseObject({
  tokenPrices: z.array(
    z.looseObject({
      token: z.looseObject({ chainId: num(), tokenAddress: str() }),
      priceUsd: num(),
      updatedAt: str(),
    }),
  ),
});
export type GetTokenPricesResponse = z.output<typeof GetTokenPricesResponse>;
