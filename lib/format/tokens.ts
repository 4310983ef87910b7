/**
 * A small list of well-known tokens (mainnet addresses) for pickers: the history token filter and the routes
 * lookup. Anything else can be pasted as an address.
 */

/** A known token; `decimals` scales raw amounts to display units. */
export interface KnownToken {
  chainId: number;
  address: string;
  symbol: string;
  decimals: number;
}

const NATIVE = '0x0000000000000000000000000000000000000000';

export const KNOWN_TOKENS: readonly KnownToken[] = [
  { chainId: 1, address: NATIVE, symbol: 'ETH', decimals: 18 },
  { chainId: 1, address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', decimals: 6 },
  { chainId: 1, address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', symbol: 'USDT', decimals: 6 },
  { chainId: 10, address: NATIVE, symbol: 'ETH', decimals: 18 },
  { chainId: 10, address: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', symbol: 'USDC', decimals: 6 },
  { chainId: 56, address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', symbol: 'USDC', decimals: 18 },
  { chainId: 137, address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', symbol: 'USDC', decimals: 6 },
  { chainId: 8453, address: NATIVE, symbol: 'ETH', decimals: 18 },
  { chainId: 8453, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', decimals: 6 },
  { chainId: 42161, address: NATIVE, symbol: 'ETH', decimals: 18 },
  { chainId: 42161, address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', symbol: 'USDC', decimals: 6 },
  { chainId: 42161, address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', symbol: 'USDT', decimals: 6 },
  { chainId: 43114, address: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', symbol: 'USDC', decimals: 6 },
];

/** A 0x address: 0x and 40 hex digits. */
export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** True for a well-formed 0x address. */
export function isAddress(text: string): boolean {
  return ADDRESS.test(text);
}

/** The known token at (chainId, address), address compared case-insensitively. */
export function knownToken(chainId: number | null | undefined, address: string | null | undefined): KnownToken | undefined {
  if (chainId === null || chainId === undefined || !address) return undefined;
  const a = address.toLowerCase();
  return KNOWN_TOKENS.find((t) => t.chainId === chainId && t.address.toLowerCase() === a);
}
