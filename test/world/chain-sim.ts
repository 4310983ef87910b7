/**
 * Simulated chains for the verifier's world runs (test/world/chain-campaign.ts): each chain keeps its canonical blocks
 * (number → hash) and the transactions in them, answers the JSON-RPC methods the verifier sends
 * (`eth_getTransactionReceipt`, `eth_blockNumber`, `eth_getBlockByNumber`, `eth_getTransaction`, `eth_chainId`) in
 * the node's wire format, and can re-org: blocks from a height are replaced by new ones, the transactions in them are
 * dropped, and any may be included again later. {@link rpcFetch} is the platform's `fetch` to the chains' RPC
 * origins, with a fault drawn per request (its method and params) by the caller: an HTTP 500, a JSON-RPC error, a time-out, or the answer of
 * another chain (a wrong-chain endpoint). Pure data, no timers: the run advances heads itself.
 */
import fc from 'fast-check';

/** A transaction the chain has included. */
export interface SimTx {
  hash: string;
  block: number;
  status: 'success' | 'reverted';
  /** The ERC-20 token, its recipient and amount (raw units) of the transfer it made (reverted: none). */
  token: string;
  to: string;
  amount: bigint;
}

/** What a request gets instead of the right answer. */
export type RpcFault = 'http500' | 'rpcError' | 'timeout' | 'wrongChain';

/** Re-orgs of Base, as both chain campaigns draw them: when (ms after the destination is mined), how deep, and after how many blocks a dropped tx is back (null: never). */
export const reorgsArb = fc.array(
  fc.record({
    afterMs: fc.integer({ min: 0, max: 40_000 }),
    depth: fc.integer({ min: 1, max: 4 }),
    backAfterBlocks: fc.option(fc.integer({ min: 0, max: 3 })),
  }),
  { maxLength: 2 },
);
/** The share of RPC requests that fail, and how, as both chain campaigns draw them. */
export const rpcFaultsArb = {
  faultRate: fc.constantFrom(0, 0.05, 0.3),
  faults: fc.subarray(['http500', 'rpcError', 'timeout'] as RpcFault[], { minLength: 1 }),
};

export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const word = (v: string | bigint) => `0x${(typeof v === 'bigint' ? v.toString(16) : v.slice(2).toLowerCase()).padStart(64, '0')}`;

/** One chain. */
export class SimChain {
  private readonly blocks: string[] = [];
  private readonly txs = new Map<string, SimTx>();
  private forks = 0;

  constructor(
    readonly chainId: number,
    genesisHeight = 100,
  ) {
    for (let i = 0; i <= genesisHeight; i++) this.blocks.push(this.blockHash(i));
  }

  /** The head's number. */
  get head(): number {
    return this.blocks.length - 1;
  }

  /** Mines `n` empty blocks. */
  mine(n = 1): void {
    for (let i = 0; i < n; i++) this.blocks.push(this.blockHash(this.blocks.length));
  }

  /** Includes `tx` in a new block at the head; returns the block number. */
  include(tx: Omit<SimTx, 'block'>): number {
    this.mine(1);
    this.txs.set(tx.hash.toLowerCase(), { ...tx, block: this.head });
    return this.head;
  }

  /** The transaction as the canonical chain has it now (undefined: not included, or re-orged out). */
  tx(hash: string): SimTx | undefined {
    return this.txs.get(hash.toLowerCase());
  }

  /** Replaces the last `depth` blocks by as many new ones (and one more): their transactions are dropped; returned. */
  reorg(depth: number): SimTx[] {
    const from = Math.max(1, this.head - depth + 1);
    this.forks += 1;
    const dropped = [...this.txs.values()].filter((t) => t.block >= from);
    for (const t of dropped) this.txs.delete(t.hash.toLowerCase());
    const height = this.head;
    this.blocks.length = from;
    while (this.head < height + 1) this.blocks.push(this.blockHash(this.blocks.length));
    return dropped;
  }

  /** The answer to one JSON-RPC call (`result`), in the node's wire format. */
  answer(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'eth_chainId':
        return hex(this.chainId);
      case 'eth_blockNumber':
        return hex(this.head);
      case 'eth_getBlockByNumber': {
        const n = Number(BigInt(params[0] as string));
        const hash = this.blocks[n];
        return hash
          ? { number: hex(n), hash, parentHash: this.blocks[n - 1] ?? word('0x0'), timestamp: hex(n * 2), transactions: [] }
          : null;
      }
      case 'eth_getTransactionReceipt': {
        const t = this.tx(params[0] as string);
        if (!t) return null;
        const base = { blockHash: this.blocks[t.block], blockNumber: hex(t.block), transactionHash: t.hash, transactionIndex: '0x0' };
        const logs =
          t.status === 'success'
            ? [
                {
                  ...base,
                  address: t.token,
                  topics: [TRANSFER_TOPIC, word('0x01'), word(t.to)],
                  data: word(t.amount),
                  logIndex: '0x0',
                  removed: false,
                },
              ]
            : [];
        return {
          ...base,
          status: t.status === 'success' ? '0x1' : '0x0',
          to: t.token,
          from: '0x01',
          logs,
          gasUsed: '0x1',
          cumulativeGasUsed: '0x1',
          type: '0x2',
        };
      }
      case 'eth_getTransaction': {
        const t = this.tx(params[0] as string);
        return t
          ? {
              hash: t.hash,
              blockNumber: hex(t.block),
              blockHash: this.blocks[t.block],
              to: t.token,
              value: '0x0',
              input: '0x',
              nonce: '0x0',
              type: '0x2',
            }
          : null;
      }
      default:
        throw new Error(`SimChain: no method ${method}`);
    }
  }

  private blockHash(n: number): string {
    return word(BigInt(this.chainId) * 2n ** 100n + BigInt(this.forks) * 2n ** 64n + BigInt(n));
  }
}

/**
 * The platform's `fetch` for the chains' RPC origins (`origins`: origin → chain): a JSON-RPC body answered by its
 * chain, or by `fault(body)`'s fault. A time-out rejects as a fetch aborted by its time-out does.
 */
export function rpcFetch(
  origins: ReadonlyMap<string, SimChain>,
  fault: (method: string, params: readonly unknown[]) => RpcFault | undefined,
): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const chain = origins.get(url.origin);
    if (!chain) throw new TypeError(`fetch failed: no route to ${url.origin}`);
    const body = JSON.parse(String(init?.body)) as { id: number; method: string; params?: unknown[] };
    const f = fault(body.method, body.params ?? []);
    // An endpoint that never answers: the request ends only when its caller's time-out (or a death) aborts it.
    if (f === 'timeout')
      return new Promise<Response>((_, reject) => {
        const signal = init?.signal;
        const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
        if (signal?.aborted) abort();
        else signal?.addEventListener('abort', abort, { once: true });
      });
    if (f === 'http500') return new Response('upstream unavailable', { status: 500 });
    if (f === 'rpcError') return Response.json({ jsonrpc: '2.0', id: body.id, error: { code: -32000, message: 'header not found' } });
    const answering = f === 'wrongChain' ? new SimChain(chain.chainId + 1, chain.head + 7) : chain;
    return Response.json({ jsonrpc: '2.0', id: body.id, result: answering.answer(body.method, body.params ?? []) });
  };
}
