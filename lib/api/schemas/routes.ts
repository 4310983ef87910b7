/**
 * Routes and prices (docs/protocol.md §9): which origin tokens can pay for an exact amount of a destination token
 * (GetExactOutputRoutes), and USD prices of tokens (GetTokenPrices).
 */
import * as z from 'zod/mini';
import { opt, SvcNumber } from './fields';

/** TokenInfo. */
export const TokenInfo = z.looseObject({
  chainId: z.number(),
  address: z.string(),
  name: z.string(),
  symbol: z.string(),
  decimals: z.number(),
  featured: z.boolean(),
  featureIndex: z.number(),
  supportsBridging: opt(z.boolean()),
  logoUri: opt(z.string()),
});
export type TokenInfo = z.output<typeof TokenInfo>;

/** GetExactOutputRoutes request. */
export const GetExactOutputRoutesRequest = z.object({
  destinationChainId: z.number(),
  destinationTokenAddress: z.string(),
  originChainId: z.optional(z.number()),
  originTokenAddress: z.optional(z.string()),
  ownerAddress: z.optional(z.string()),
});
export type GetExactOutputRoutesRequest = z.input<typeof GetExactOutputRoutesRequest>;
/** GetExactOutputRoutes response: empty when no route exists. */
export const GetExactOutputRoutesResponse = z.looseObject({ tokens: z.array(TokenInfo) });
export type GetExactOutputRoutesResponse = z.output<typeof GetExactOutputRoutesResponse>;

/** GetTokenPrices request/response; `priceUsd` in USD, absent when unknown. */
export const GetTokenPricesRequest = z.object({ tokens: z.array(z.object({ chainId: z.number(), tokenAddress: z.string() })) });
export type GetTokenPricesRequest = z.input<typeof GetTokenPricesRequest>;
export const GetTokenPricesResponse = z.looseObject({
  tokenPrices: z.array(
    z.looseObject({
      token: z.looseObject({ chainId: opt(SvcNumber), tokenAddress: opt(z.string()) }),
      priceUsd: opt(SvcNumber),
      updatedAt: opt(z.string()),
    }),
  ),
});
export type GetTokenPricesResponse = z.output<typeof GetTokenPricesResponse>;
