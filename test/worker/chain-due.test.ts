/**
 * Each leg's RPC reads happen only when that leg is due (lib/chain/verifier.ts `verify(ref, { whenDue })`,
 * lib/chain/cadence.ts): however often its receipt changes, a leg is asked again after a quarter of the time its
 * missing confirmations take at its chain's block time, after a back-off (12 s, 24 s, 48 s, 60 s) when its RPC
 * failed, and never once final. Counted at the platform's fetch, against simulated chains (test/world/chain-sim.ts)
 * whose blocks come on time, through the production wiring and its default budget.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { RpcBudget } from '@/lib/chain/budget';
import { backoffDelay } from '@/lib/chain/cadence';
import type { ChainReader } from '@/lib/chain/rpc';
import { TRANSFER_TOPIC } from '@/lib/chain/transfer';
import { LegVerifier } from '@/lib/chain/verifier';
import type { LegObservation } from '@/lib/chain/verify';
import type { Platform } from '@/lib/platform';
import { realTimers } from '@/lib/platform';
import { createChainVerification } from '@/lib/worker/chain-verify';
import { CHAIN_PREFERENCES_KEY, createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { rpcFetch, SimChain } from '../world/chain-sim';

const ARB = 'https://arb.rpc.example';
const BASE = 'https://base.rpc.example';
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HASH = { deposit: `0x${'a1'.repeat(32)}`, origin: `0x${'b2'.repeat(32)}`, destination: `0x${'c3'.repeat(32)}` };
const ID = `0x${'1'.repeat(64)}`;

const receipt = (n: number) =>
  IntentReceipt.parse({
    intentId: ID,
    status: 'EXECUTING',
    // Another answer of the service each time (the tracker records each one): a change of the receipt.
    updatedAt: new Date(1_800_000_000_000 + n * 2_000).toISOString(),
    depositTransaction: { chainId: 42161, txnHash: HASH.deposit, status: 'SUCCEEDED' },
    originTransaction: { chainId: 42161, txnHash: HASH.origin, status: 'SUCCEEDED' },
    destinationTransaction: { chainId: 8453, txnHash: HASH.destination, status: 'MINING', tokenAmount: '249100000' },
    summary: { destinationToAddress: TO, destinationTokenAddress: TOKEN, destinationTokenMetadata: { symbol: 'USDC', decimals: 6 } },
  });

beforeEach(async () => {
  fakeBrowser.reset();
  await fakeBrowser.storage.local.set({
    [CHAIN_PREFERENCES_KEY]: {
      42161: { enabled: true, rpcUrl: ARB, finalityDepth: 20 },
      8453: { enabled: true, rpcUrl: BASE, finalityDepth: 60 },
    },
  });
});

describe('a leg is read only when it is due', () => {
  it('over a minute of receipt changes every 2 s: the final deposit once, the failing origin on its back-off, the destination on its cadence', async () => {
    const arb = new SimChain(42161);
    const base = new SimChain(8453);
    arb.include({ hash: HASH.deposit, status: 'success', token: TOKEN, to: TO, amount: 1n });
    arb.mine(30);
    base.include({ hash: HASH.destination, status: 'success', token: TOKEN, to: TO, amount: 249_100_000n });
    let now = 0;
    const asked: Record<string, number[]> = { [HASH.deposit]: [], [HASH.origin]: [], [HASH.destination]: [] };
    // Arbitrum One's endpoint fails every request about the origin leg's transaction.
    const chains = rpcFetch(
      new Map([
        [ARB, arb],
        [BASE, base],
      ]),
      (method, params) => {
        if (method === 'eth_getTransactionReceipt') asked[String(params[0])]?.push(now);
        return params[0] === HASH.origin ? 'http500' : undefined;
      },
    );
    const platform: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'> = {
      fetch: chains,
      clock: { now: () => now, monotonic: () => now, sleep: async () => {} },
      // The receipt changes more often than any leg is due: its own timers are not needed here.
      timers: { setTimeout: () => 0, clearTimeout: () => {} },
      browser: fakeBrowser as unknown as Platform['browser'],
    };
    const verifier = createChainVerifierOnPlatform(platform, { notify: async () => {}, hasPermission: async () => true });
    for (let n = 0; now <= 60_000; n++, now += 2_000) {
      if (now > 0) base.mine();
      await verifier.onReceipt(receipt(n));
    }
    // Final at its first read: never asked again.
    expect(asked[HASH.deposit]).toEqual([0]);
    // Failing: asked at 0, then 12 s and 24 s later (36 s); the next would be 48 s after that.
    expect(asked[HASH.origin]).toEqual([0, 12_000, 36_000]);
    // 1 of 60 confirmations at 2 s a block: due after a quarter of the 118 s to go (29.5 s, read at the next change,
    // 30 s, with 16 confirmations), then after a quarter of 88 s (22 s: 52 s).
    expect(asked[HASH.destination]).toEqual([0, 30_000, 52_000]);
  });
});

describe('a disagreement is told from what the chain says now', () => {
  const BLOCK = `0x${'1a'.repeat(32)}`;
  const pad = (a: string) => `0x${'0'.repeat(24)}${a.slice(2)}`;
  const received: LegObservation = {
    receipt: {
      status: 'success',
      blockNumber: 100n,
      blockHash: BLOCK,
      to: TOKEN,
      logs: [{ address: TOKEN, topics: [TRANSFER_TOPIC, pad(TOKEN), pad(TO)], data: `0x${249_100_000n.toString(16).padStart(64, '0')}` }],
    },
    head: 100n,
    canonicalBlockHash: BLOCK,
  };
  const destinationOnly = (status: string) =>
    IntentReceipt.parse({ ...receipt(0), status, depositTransaction: undefined, originTransaction: undefined });

  it('asks the chain again before telling "arrived" from a verdict of 10 s ago, and tells the re-org it finds instead', async () => {
    let now = 0;
    const answers = [received, { receipt: null, head: 105n }];
    const reader: ChainReader = { observe: async () => answers.shift() ?? Promise.reject(new Error('no more answers')) };
    const setting = (id: number) => (id === 8453 ? { rpcUrl: BASE, finalityDepth: 60 } : undefined);
    const verifier = new LegVerifier({
      timers: realTimers,
      fetch: () => Promise.reject(new Error('scripted')),
      monotonic: () => now,
      setting,
      budget: new RpcBudget({ monotonic: () => now }),
      reader: () => reader,
    });
    const told: string[] = [];
    const service = createChainVerification({
      verifier,
      setting,
      told: { has: async () => false, add: async () => {} },
      notify: async (_id, d) => void told.push(d.kind),
    });
    // The transfer is in a block while the service says PENDING: nothing to tell; not due again for 29.5 s.
    await service.verifyReceipt(destinationOnly('PENDING'));
    now += 10_000;
    // The service says EXECUTING: "arrived" would be told from a 10 s old answer; the chain is asked first.
    await service.verifyReceipt(destinationOnly('EXECUTING'));
    expect(answers).toEqual([]);
    expect(told).toEqual(['reorged']);
  });
});

describe('backoffDelay', () => {
  it('doubles from 12 s after each RPC failure in a row, up to a minute', () => {
    expect([1, 2, 3, 4, 5, 10].map(backoffDelay)).toEqual([12_000, 24_000, 48_000, 60_000, 60_000, 60_000]);
  });
});
