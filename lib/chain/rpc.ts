/**
 * The verifier's JSON-RPC transport: one observation of one transaction on one chain, with viem's HTTP JSON-RPC
 * client (`getHttpRpcClient` on the platform's `fetch`: its request ids, body limit and error classes; each request's
 * time-out runs on the platform's timers, so that a read an endpoint never answers ends on virtual time too),
 * viem's receipt formatter and its hex decoding (a transaction's `value`: viem's transaction formatter, 1.5 KB of
 * minified code, for one field). It sends only JSON-RPC bodies: no access key, no cookies, no header of
 * the extension's own, and no retries: the verifier checks again on its own cadence and budget. Neither
 * `createClient` nor the actions are used: their request pipeline (retries, dedupe, batching, and the error-code
 * classes it maps every RPC error to) costs the worker about 3 KB gzip and does nothing the verifier needs.
 */
import {
  formatTransactionReceipt,
  type Hash,
  hexToBigInt,
  hexToNumber,
  numberToHex,
  type RpcBlock,
  RpcRequestError,
  type RpcTransaction,
  type RpcTransactionReceipt,
  TimeoutError,
} from 'viem';
import { getHttpRpcClient } from 'viem/utils';
import type { Timers } from '../platform';
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

/** One JSON-RPC method of the verifier, with its params and its `result` (null: the chain does not know it). */
interface Methods {
  eth_chainId: { params: []; result: `0x${string}` };
  eth_blockNumber: { params: []; result: `0x${string}` };
  eth_getBlockByNumber: { params: [`0x${string}`, false]; result: RpcBlock | null };
  eth_getTransactionReceipt: { params: [Hash]; result: RpcTransactionReceipt | null };
  eth_getTransactionByHash: { params: [Hash]; result: RpcTransaction | null };
}

/**
 * A {@link ChainReader} for the JSON-RPC endpoint `url`, sending with `fetchFn` (the platform's fetch) and giving up
 * on a request after `timeoutMs` milliseconds (default 10 s) of `timers` (the platform's: monotonic, virtual in the
 * campaign), aborting its fetch. A network failure, a time-out, a non-2xx answer or a JSON-RPC `error` rejects with
 * viem's `HttpRequestError`, `TimeoutError` or `RpcRequestError`.
 */
export function createChainReader(url: string, fetchFn: typeof fetch, timers: Timers, timeoutMs = 10_000): ChainReader {
  // viem's own time-out (a global setTimeout) is off: the platform's timer aborts the request instead.
  const rpc = getHttpRpcClient(url, { fetchFn, timeout: 0 });
  async function request<M extends keyof Methods>(method: M, ...params: Methods[M]['params']): Promise<Methods[M]['result']> {
    const body = { method, params };
    const timeout = new AbortController();
    let timer: unknown;
    // The time-out ends the request even when the fetch does not heed the abort.
    const timedOut = new Promise<never>((_, reject) => {
      timer = timers.setTimeout(() => {
        timeout.abort();
        reject(new TimeoutError({ body, url }));
      }, timeoutMs);
    });
    try {
      const { error, result } = await Promise.race([rpc.request({ body, fetchOptions: { signal: timeout.signal } }), timedOut]);
      if (error) throw new RpcRequestError({ body, error, url });
      return result as Methods[M]['result'];
    } catch (err) {
      if (timeout.signal.aborted) throw new TimeoutError({ body, url });
      throw err;
    } finally {
      timers.clearTimeout(timer);
    }
  }
  return {
    async observe(hash, withValue) {
      const raw = await request('eth_getTransactionReceipt', hash);
      const receipt = raw ? formatTransactionReceipt(raw) : null;
      const [chainId, head, block, tx] = await Promise.all([
        request('eth_chainId').then(hexToNumber),
        request('eth_blockNumber').then((n) => hexToBigInt(n)),
        receipt ? request('eth_getBlockByNumber', numberToHex(receipt.blockNumber), false) : undefined,
        receipt && withValue ? request('eth_getTransactionByHash', hash) : undefined,
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
        ...(tx?.value ? { value: hexToBigInt(tx.value) } : {}),
      };
    },
  };
}
