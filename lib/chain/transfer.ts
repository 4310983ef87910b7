/**
 * The transfer check of a destination leg (docs/chain.md): did `destinationToAddress` really receive the destination token,
 * and how much? Reads the ERC-20 `Transfer(address,address,uint256)` logs of the transaction's receipt, or, for the
 * chain's native token, the transaction's own value. Pure; amounts are raw token units (bigint).
 */

/** `keccak256("Transfer(address,address,uint256)")`, topic 0 of every ERC-20 Transfer log. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** Addresses the service (and most routers) use for a chain's native token. */
const NATIVE_TOKENS = new Set(['0x0000000000000000000000000000000000000000', '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee']);

/** True when `tokenAddress` stands for the chain's native token (ETH on Base and Arbitrum One, …). */
export function isNativeToken(tokenAddress: string): boolean {
  return NATIVE_TOKENS.has(tokenAddress.toLowerCase());
}

/** One log of a transaction receipt, as JSON-RPC gives it (hex strings). */
export interface ChainLog {
  /** The contract that emitted the log. */
  address: string;
  topics: readonly string[];
  data: string;
}

/** What the destination leg should have moved: `amount` (raw units) of `token` to `to`. */
export interface ExpectedTransfer {
  /** Token contract, or a native-token address ({@link isNativeToken}). */
  token: string;
  /** The intent's `destinationToAddress`. */
  to: string;
  /** The receipt's destination `tokenAmount`, raw units. */
  amount: bigint;
}

/**
 * How the transfer compares with the receipt: `received` (exactly the amount), `less` (some, but less), `more`,
 * `none` (nothing of that token reached that address in this transaction). `amount` is what arrived (raw units).
 */
export interface TransferCheck {
  kind: 'received' | 'less' | 'more' | 'none';
  amount: bigint;
  expected: ExpectedTransfer;
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The address held in a 32-byte topic (its last 20 bytes), lower case; undefined for a malformed topic. */
function topicAddress(topic: string | undefined): string | undefined {
  if (!topic || !/^0x[0-9a-fA-F]{64}$/.test(topic)) return undefined;
  return `0x${topic.slice(26).toLowerCase()}`;
}

/**
 * Sums what the transaction moved to `expected.to`: every Transfer log of `expected.token` whose `to` topic is that
 * address (a router may split one payment), or for a native token `value` when the transaction was sent to that
 * address (`txTo`). Logs that are not well-formed Transfers are ignored, never thrown on.
 */
export function checkTransfer(
  logs: readonly ChainLog[],
  expected: ExpectedTransfer,
  native?: { value: bigint; txTo: string | null },
): TransferCheck {
  let amount = 0n;
  if (isNativeToken(expected.token)) {
    if (native?.txTo && sameAddress(native.txTo, expected.to)) amount = native.value;
  } else {
    for (const log of logs) {
      if (!sameAddress(log.address, expected.token) || log.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
      if (topicAddress(log.topics[2]) !== expected.to.toLowerCase()) continue;
      if (!/^0x[0-9a-fA-F]{1,64}$/.test(log.data)) continue;
      amount += BigInt(log.data);
    }
  }
  return transferOf(amount, expected);
}

/** How `amount` (raw units, what reached `expected.to`) compares with the expected transfer. */
export function transferOf(amount: bigint, expected: ExpectedTransfer): TransferCheck {
  const kind = amount === 0n ? 'none' : amount === expected.amount ? 'received' : amount < expected.amount ? 'less' : 'more';
  return { kind, amount, expected };
}

/**
 * `amount` (raw units) known to have reached `was.to` in `was.token`, judged against `expected` (the receipt's transfer
 * now); undefined when `expected` names another recipient or token (addresses compared case-blind, the native token's
 * two addresses as one): what reached that one is unknown until the chain is read again.
 */
export function transferAgain(amount: bigint, was: Pick<ExpectedTransfer, 'to' | 'token'>, expected: ExpectedTransfer) {
  // The native token under either of its addresses is one token: the chain's value counts for both.
  const sameToken = sameAddress(was.token, expected.token) || (isNativeToken(was.token) && isNativeToken(expected.token));
  return sameAddress(was.to, expected.to) && sameToken ? transferOf(amount, expected) : undefined;
}
