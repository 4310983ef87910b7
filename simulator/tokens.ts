/**
 * The simulated world's chains and tokens: a catalogue with USD prices (for quotes and balances) and
 * `featured`/`featureIndex` (for GetExactOutputRoutes). Addresses are the real mainnet ones where known.
 */

/** A token of the simulated world. */
export interface SimToken {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  /** Price in USD (display figure, not a raw amount). */
  priceUsd: number;
  featured: boolean;
  featureIndex: number;
  supportsBridging: boolean;
  logoUri: string;
}

const NATIVE = '0x0000000000000000000000000000000000000000';

const t = (
  chainId: number,
  address: string,
  symbol: string,
  name: string,
  decimals: number,
  priceUsd: number,
  featureIndex = 0,
): SimToken => ({
  chainId,
  address,
  symbol,
  name,
  decimals,
  priceUsd,
  featured: featureIndex > 0,
  featureIndex,
  supportsBridging: true,
  logoUri: `https://assets.svc.example/tokens/${symbol.toLowerCase()}.png`,
});

/** Chain ids used by the data set (all in the explorer table of the wire notes). */
export const SIM_CHAINS = [1, 10, 56, 137, 8453, 42161, 43114] as const;

/** The token catalogue. */
export const CATALOGUE: readonly SimToken[] = [
  t(1, NATIVE, 'ETH', 'Ether', 18, 3200, 2),
  t(1, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'USDC', 'USD Coin', 6, 1, 1),
  t(1, '0xdAC17F958D2ee523a2206206994597C13D831ec7', 'USDT', 'Tether USD', 6, 1, 3),
  t(1, '0x6B175474E89094C44Da98b954EedeAC495271d0F', 'DAI', 'Dai Stablecoin', 18, 1),
  t(10, NATIVE, 'ETH', 'Ether', 18, 3200, 2),
  t(10, '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 'USDC', 'USD Coin', 6, 1, 1),
  t(10, '0x4200000000000000000000000000000000000006', 'WETH', 'Wrapped Ether', 18, 3200),
  t(56, NATIVE, 'BNB', 'BNB', 18, 600, 2),
  t(56, '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 'USDC', 'USD Coin', 18, 1, 1),
  t(137, NATIVE, 'POL', 'Polygon Ecosystem Token', 18, 0.5, 2),
  t(137, '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', 'USDC', 'USD Coin', 6, 1, 1),
  t(8453, NATIVE, 'ETH', 'Ether', 18, 3200, 2),
  t(8453, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC', 'USD Coin', 6, 1, 1),
  t(8453, '0x4200000000000000000000000000000000000006', 'WETH', 'Wrapped Ether', 18, 3200),
  t(42161, NATIVE, 'ETH', 'Ether', 18, 3200, 2),
  t(42161, '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', 'USDC', 'USD Coin', 6, 1, 1),
  t(42161, '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', 'USDT', 'Tether USD', 6, 1, 3),
  t(42161, '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', 'WETH', 'Wrapped Ether', 18, 3200),
  t(43114, NATIVE, 'AVAX', 'Avalanche', 18, 30, 2),
  t(43114, '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', 'USDC', 'USD Coin', 6, 1, 1),
];

/** The catalogue token at (chainId, address), address compared case-insensitively. */
export function findToken(chainId: number, address: string): SimToken | undefined {
  const a = address.toLowerCase();
  return CATALOGUE.find((x) => x.chainId === chainId && x.address.toLowerCase() === a);
}

/** A catalogue token by chain and symbol (throws when missing: a bug in the simulator's own tables). */
export function tokenBySymbol(chainId: number, symbol: string): SimToken {
  const found = CATALOGUE.find((x) => x.chainId === chainId && x.symbol === symbol);
  if (!found) throw new Error(`no ${symbol} on chain ${chainId}`);
  return found;
}

/**
 * Converts a raw amount of `from` into the raw amount of `to` of equal USD value, minus `feeBps` basis points.
 * Exact integer arithmetic (prices scaled to 1e-6 USD).
 */
export function convertRaw(amount: bigint, from: SimToken, to: SimToken, feeBps = 0): bigint {
  const micro = (p: number) => BigInt(Math.round(p * 1e6));
  const value = (amount * micro(from.priceUsd) * 10n ** BigInt(to.decimals)) / (micro(to.priceUsd) * 10n ** BigInt(from.decimals));
  return (value * BigInt(10_000 - feeBps)) / 10_000n;
}

/** USD value (display number, 2 decimals) of a raw amount. */
export function usdOf(amount: bigint, token: SimToken): number {
  const micro = (amount * BigInt(Math.round(token.priceUsd * 1e6))) / 10n ** BigInt(token.decimals);
  return Math.round(Number(micro) / 1e4) / 100;
}
