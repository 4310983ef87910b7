/**
 * The verifier's JSON-RPC transport: one observation of one transaction on one chain, with viem (`createClient`, the
 * `http` transport on the platform's `fetch`, and the tree-shakable actions of `viem/actions`, which cost about a
 * tenth of `createPublicClient`'s bundle). It sends only JSON-RPC bodies: no access key, no cookies, no header of
 * the extension's own. viem's own retries are off: the verifier checks again on its own cadence and budget.
 */
import { type Client, createClient, type Hash, hexToBigInt, hexToNumber, http, numberToHex, type PublicRpcSchema } from 'viem';
import { getTransaction, getTransactionReceipt } from 'viem/actions';
import type { LegObservation } from './verify';

/** Reads transactions of one chain. */
export interface ChainReader {
  /**
   * Observes transaction `hash`: its receipt (null when the chain does not know it), the chain id the endpoint
   * answers for (`eth_chainId`, asked with every observation: an RPC URL may point at, or be routed to, another
   * chain), the head, the canonical hash of the receipt's block and, when `withValue`, the transaction's native value. Rejects on a network or RPC error
   * (the caller keeps its last verdict).
   */
  observe(hash: Hash, withValue: boolean): Promise<LegObservation>;
}

/**
 * JSON-RPC requests one {@link ChainReader.observe} sends at most: receipt, chain id, head, block, and the value when
 * asked.
 */
export function requestsPerObservation(withValue: boolean): number {
  return withValue ? 5 : 4;
}

/** True for viem's "not found" errors, which are answers (null), not failures. */
function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === 'TransactionReceiptNotFoundError' || name === 'BlockNotFoundError' || name === 'TransactionNotFoundError';
}

async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/**
 * A {@link ChainReader} for the JSON-RPC endpoint `url`, sending with `fetchFn` (the platform's fetch) and giving up
 * on a request after `timeoutMs` (default 10 s).
 */
export function createChainReader(url: string, fetchFn: typeof fetch, timeoutMs = 10_000): ChainReader {
  const client: Client = createClient({ transport: http(url, { fetchFn, retryCount: 0, timeout: timeoutMs }) });
  const request = client.request as Client<never, never, never, PublicRpcSchema>['request'];
  return {
    async observe(hash, withValue) {
      const receipt = await orNull(getTransactionReceipt(client, { hash }));
      // The chain id, the head and the block's hash as raw JSON-RPC: viem's actions for them would bring the block
      // formatter and the block-number cache into the worker for three fields.
      const [chainId, head, block, tx] = await Promise.all([
        request({ method: 'eth_chainId' }).then(hexToNumber),
        request({ method: 'eth_blockNumber' }).then((n) => hexToBigInt(n)),
        receipt ? request({ method: 'eth_getBlockByNumber', params: [numberToHex(receipt.blockNumber), false] }) : undefined,
        receipt && withValue ? orNull(getTransaction(client, { hash })) : undefined,
      ]);
      if (!receipt) return { receipt: null, head, chainId };
      return {
        receipt: {
          status: receipt.status,
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash,
          logs: receipt.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })),
          to: receipt.to,
        },
        head,
        chainId,
        canonicalBlockHash: block?.hash ?? null,
        ...(tx ? { value: tx.value } : {}),
      };
    },
  };
}
