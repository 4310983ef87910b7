/**
 * The verifier's JSON-RPC transport (lib/chain/rpc.ts) on a simulated chain's wire answers: what one observation
 * reads, and that a fault rejects (the verifier's back-off) rather than reads as "not on the chain" (its grace).
 */

import { TimeoutError } from 'viem';
import { describe, expect, it } from 'vitest';
import { createChainReader, requestsPerObservation } from '@/lib/chain/rpc';
import { realTimers, type Timers } from '@/lib/platform';
import { type RpcFault, rpcFetch, SimChain } from '../world/chain-sim';

const RPC = 'https://rpc.example';
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HASH = `0x${'ab'.repeat(32)}` as const;
const OTHER = `0x${'cd'.repeat(32)}` as const;

/** A chain of id 8453 holding HASH (a transfer of 5 to TO) three blocks under its head, and its methods asked. */
function setup(fault: (method: string) => RpcFault | undefined = () => undefined, timers: Timers = realTimers) {
  const chain = new SimChain(8453);
  const block = chain.include({ hash: HASH, status: 'success', token: TOKEN, to: TO, amount: 5n });
  chain.mine(3);
  const asked: string[] = [];
  const fetchFn = rpcFetch(new Map([[RPC, chain]]), (method) => {
    asked.push(method);
    return fault(method);
  });
  // A time-out of 50 ms on real timers: the `timeout` fault never answers.
  return { chain, block, asked, fetchFn, reader: createChainReader(RPC, fetchFn, timers, 50) };
}

/** Timers fired by hand: the delays asked, the timers still armed, and `fire()` to run them. */
function handTimers() {
  const armed = new Map<number, () => void>();
  const delays: number[] = [];
  let n = 0;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      delays.push(ms);
      armed.set(++n, fn);
      return n;
    },
    clearTimeout: (handle) => void armed.delete(handle as number),
  };
  const fire = () => {
    for (const [k, fn] of [...armed]) {
      armed.delete(k);
      fn();
    }
  };
  return { timers, delays, armed, fire };
}

describe('createChainReader', () => {
  it('reads an included transaction: its receipt formatted, the chain id, the head and the canonical block hash', async () => {
    const { chain, block, asked, reader } = setup();
    const blockHash = (chain.answer('eth_getBlockByNumber', [`0x${block.toString(16)}`]) as { hash: string }).hash;
    expect(await reader.observe(HASH, false)).toEqual({
      receipt: {
        status: 'success',
        blockNumber: BigInt(block),
        blockHash,
        logs: [{ address: TOKEN, topics: expect.any(Array), data: `0x${5n.toString(16).padStart(64, '0')}` }],
        to: TOKEN,
      },
      head: BigInt(block + 3),
      chainId: 8453,
      canonicalBlockHash: blockHash,
    });
    expect(asked.sort()).toEqual(['eth_blockNumber', 'eth_chainId', 'eth_getBlockByNumber', 'eth_getTransactionReceipt']);
    expect(asked.length).toBeLessThanOrEqual(requestsPerObservation(false));
  });

  it('sends the receipt request alone, then its burst beginning with the chain id (V1 pairs bursts by it)', async () => {
    // test/world/chain-family.ts pairs each burst with its read by the `eth_chainId` that opens it: the order of the
    // fetch calls, not only the set of methods, is what the world's oracle relies on.
    const { asked, reader } = setup();
    await reader.observe(HASH, false);
    expect(asked).toEqual(['eth_getTransactionReceipt', 'eth_chainId', 'eth_blockNumber', 'eth_getBlockByNumber']);
    asked.length = 0;
    await reader.observe(OTHER, false);
    expect(asked).toEqual(['eth_getTransactionReceipt', 'eth_chainId', 'eth_blockNumber']);
  });

  it('reads a transaction the chain does not know as no receipt, with the head and the chain id', async () => {
    const { chain, asked, reader } = setup();
    await expect(reader.observe(OTHER, true)).resolves.toEqual({ receipt: null, head: BigInt(chain.head), chainId: 8453 });
    expect(asked.sort()).toEqual(['eth_blockNumber', 'eth_chainId', 'eth_getTransactionReceipt']);
  });

  it('reads the native value, asked for, from eth_getTransactionByHash (wei, hex on the wire)', async () => {
    const { chain, asked } = setup();
    const answered = { ...(chain.answer('eth_getTransaction', [HASH]) as object), value: '0xde0b6b3a7640000' };
    const withTx = (value: unknown): typeof fetch => {
      const inner = rpcFetch(new Map([[RPC, chain]]), (method) => void asked.push(method));
      return async (input, init) => {
        const body = JSON.parse(String(init?.body)) as { id: number; method: string };
        if (body.method !== 'eth_getTransactionByHash') return inner(input, init);
        asked.push(body.method);
        return Response.json({ jsonrpc: '2.0', id: body.id, result: value });
      };
    };
    const seen = await createChainReader(RPC, withTx(answered), realTimers).observe(HASH, true);
    expect(seen.value).toBe(10n ** 18n);
    expect(asked).toContain('eth_getTransactionByHash');
    expect(asked.length).toBe(requestsPerObservation(true));
    // A transaction the node does not know (null) or answers without a value: no value read.
    expect(await createChainReader(RPC, withTx(null), realTimers).observe(HASH, true)).not.toHaveProperty('value');
    const { value: _, ...valueless } = answered;
    expect((await createChainReader(RPC, withTx(valueless), realTimers).observe(HASH, true)).value).toBeUndefined();
  });

  it.each<[string, RpcFault]>([
    ['eth_getTransactionReceipt', 'rpcError'],
    ['eth_getTransactionReceipt', 'http500'],
    ['eth_getTransactionReceipt', 'timeout'],
    ['eth_chainId', 'rpcError'],
    ['eth_blockNumber', 'rpcError'],
    ['eth_getBlockByNumber', 'rpcError'],
  ])('rejects when %s is answered with %s (an error, not "not found")', async (method, fault) => {
    const { reader } = setup((m) => (m === method ? fault : undefined));
    await expect(reader.observe(HASH, false)).rejects.toThrow();
  });

  it('times a request out on the platform timers it was given: an endpoint that never answers rejects with TimeoutError when they fire, not before', async () => {
    const hand = handTimers();
    const { reader } = setup((m) => (m === 'eth_getTransactionReceipt' ? 'timeout' : undefined), hand.timers);
    let settled: unknown;
    const read = reader.observe(HASH, false).then(
      (v) => (settled = v),
      (e: unknown) => (settled = e),
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBeUndefined();
    expect(hand.delays).toEqual([50]);
    hand.fire();
    await read;
    expect(settled).toBeInstanceOf(TimeoutError);
  });

  it('clears the timer of every answered request', async () => {
    const hand = handTimers();
    const { reader } = setup(undefined, hand.timers);
    await reader.observe(HASH, false);
    expect(hand.delays).toEqual([50, 50, 50, 50]);
    expect(hand.armed.size).toBe(0);
  });
});
