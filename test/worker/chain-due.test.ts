/**
 * Each leg's RPC reads happen only when that leg is due (lib/chain/verifier.ts `verify(ref, { whenDue })`,
 * lib/chain/cadence.ts): however often its receipt changes, a leg is asked again about when its missing confirmations
 * should be complete at its chain's block time (at most 60 s later), after a back-off (12 s, 24 s, 48 s, 60 s) when its RPC
 * failed, and never once final. Counted at the platform's fetch, against simulated chains (test/world/chain-sim.ts)
 * whose blocks come on time, through the production wiring and its default budget.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { backoffDelay } from '@/lib/chain/cadence';
import { createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { rpcFetch, SimChain } from '../world/chain-sim';
import {
  ARB_RPC,
  armedChains,
  BASE_RPC,
  baseOnly,
  chainVerification,
  observations,
  quietPlatform,
  scriptedReader,
  TO,
  TOKEN,
} from './chain-fixtures';

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

beforeEach(() => armedChains(60));

describe('a leg is read only when it is due', () => {
  it('over two and a half minutes of receipt changes every 2 s: the final deposit once, the failing origin on its back-off, the destination on its cadence', async () => {
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
        [ARB_RPC, arb],
        [BASE_RPC, base],
      ]),
      (method, params) => {
        if (method === 'eth_getTransactionReceipt') asked[String(params[0])]?.push(now);
        return params[0] === HASH.origin ? 'http500' : undefined;
      },
    );
    // The receipt changes more often than any leg is due: its own timers are not needed here.
    const platform = quietPlatform(chains, () => now);
    const verifier = createChainVerifierOnPlatform(platform, { notify: async () => {}, hasPermission: async () => true });
    for (let n = 0; now <= 150_000; n++, now += 2_000) {
      if (now > 0) base.mine();
      await verifier.onReceipt(receipt(n));
    }
    // Final at its first read: never asked again.
    expect(asked[HASH.deposit]).toEqual([0]);
    // Failing: asked at 0, then 12 s, 24 s, 48 s and 60 s later (36 s, 84 s, 144 s).
    expect(asked[HASH.origin]).toEqual([0, 12_000, 36_000, 84_000, 144_000]);
    // 1 of 60 confirmations at 2 s a block: 59.5 blocks to go are 119 s, so due at the 60 s bound (read then, with 31
    // confirmations), then after 29.5 blocks (59 s: read at the next change, 120 s, with 61: final), never again.
    expect(asked[HASH.destination]).toEqual([0, 60_000, 120_000]);
  });
});

describe('a disagreement is told from what the chain says now', () => {
  const received = observations().received(100n);
  const destinationOnly = (status: string) =>
    IntentReceipt.parse({ ...receipt(0), status, depositTransaction: undefined, originTransaction: undefined });

  it('asks the chain again before telling "arrived" from a verdict of 10 s ago, and tells the re-org it finds instead', async () => {
    const answers = [received, { receipt: null, head: 105n }];
    const told: string[] = [];
    const { newService, later } = chainVerification({
      reader: scriptedReader(answers),
      setting: baseOnly(BASE_RPC, 60),
      budget: {},
      notify: async (_id, d) => void told.push(d.kind),
    });
    const service = newService();
    // The transfer is in a block while the service says PENDING: nothing to tell; not due again for 29.5 s.
    await service.verifyReceipt(destinationOnly('PENDING'));
    later(10_000);
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
