/**
 * Hostile schedules for the chain verifier (docs/chain.md "In the worker": a leg is read only when due; after an RPC
 * failure a back-off of 12 s, 24 s, 48 s, then 60 s, so no leg is left behind; 30 requests a minute per RPC origin,
 * burst 8). Written by a tester who did not write the code.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { CHAIN_VERDICT_PREFIX, readChainVerdict } from '@/lib/store/chain';
import { CHAIN_PREFERENCES_KEY, createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { rpcFetch, SimChain } from '../world/chain-sim';
import { ARB_RPC, armedChains, BASE_RPC, receipt as baseReceipt, quietPlatform, TO, TOKEN } from './chain-fixtures';

const SEC = 1_000;
const MIN = 60 * SEC;

/** Intent `i`'s receipt at its `n`th answer: two legs on Arbitrum One, one on Base. */
const receipt = (i: number, n: number) => {
  const h = (k: number) => `0x${(i * 16 + k).toString(16).padStart(64, '0')}`;
  return IntentReceipt.parse({
    intentId: `0x${(i + 1).toString(16).padStart(64, '0')}`,
    status: 'EXECUTING',
    updatedAt: new Date(1_800_000_000_000 + n * 2_000).toISOString(),
    depositTransaction: { chainId: 42161, txnHash: h(1), status: 'SUCCEEDED' },
    originTransaction: { chainId: 42161, txnHash: h(2), status: 'SUCCEEDED' },
    destinationTransaction: { chainId: 8453, txnHash: h(3), status: 'MINING', tokenAmount: '1' },
    summary: { destinationToAddress: TO, destinationTokenAddress: TOKEN, destinationTokenMetadata: { symbol: 'USDC', decimals: 6 } },
  });
};

beforeEach(() => armedChains(60));

describe('an RPC origin that times out on every request, for 10 minutes', () => {
  it('each of its legs is still asked to the end, on the back-off (no more), and the origin within its budget', async () => {
    let now = 0;
    const arbAt: number[] = [];
    const legAt = new Map<string, number[]>();
    const chains = rpcFetch(
      new Map([
        [ARB_RPC, new SimChain(42161)],
        [BASE_RPC, new SimChain(8453)],
      ]),
      // Base answers; Arbitrum One's origin is answered below (a time-out, every method).
      () => undefined,
    );
    const platform = quietPlatform(
      async (input, init) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.origin !== ARB_RPC) return chains(input, init);
        arbAt.push(now);
        const body = JSON.parse(String(init?.body)) as { method: string; params?: unknown[] };
        if (body.method === 'eth_getTransactionReceipt') {
          const hash = String(body.params?.[0]);
          legAt.set(hash, [...(legAt.get(hash) ?? []), now]);
        }
        throw new DOMException('The operation timed out.', 'TimeoutError');
      },
      () => now,
    );
    const verifier = createChainVerifierOnPlatform(platform, { notify: async () => {}, hasPermission: async () => true });
    // Four intents (8 legs on the failing origin), their receipts changing every 2 s.
    for (let n = 0; now <= 10 * MIN; n++, now += 2 * SEC) {
      for (let i = 0; i < 4; i++) await verifier.onReceipt(receipt(i, n));
    }
    // The budget: 30 a minute with a burst of 8, in any 60 s window.
    for (const t of arbAt) expect(arbAt.filter((x) => x >= t && x < t + MIN).length).toBeLessThanOrEqual(38);
    // Every leg of the failing origin is still asked in the last 2 minutes (never left behind)...
    const failingLegs = [0, 1, 2, 3].flatMap((i) => [1, 2].map((k) => `0x${(i * 16 + k).toString(16).padStart(64, '0')}`));
    for (const hash of failingLegs) {
      const at = legAt.get(hash) ?? [];
      expect(at.some((t) => t >= 8 * MIN)).toBe(true);
      // ...and no more often than the back-off allows: 0, 12 s, 36 s, 84 s, then every 60 s → at most 12 in 10 min
      // (a tick of 2 s late each time only makes fewer).
      expect(at.length).toBeLessThanOrEqual(12);
      for (let j = 1; j < at.length; j++) expect(at[j]! - at[j - 1]!).toBeGreaterThanOrEqual(12 * SEC);
    }
  });
});

describe('a new worker life and a receipt whose leg changed while no check ran', () => {
  const ID = `0x${'1'.repeat(64)}`;
  const OLD = `0x${'d'.repeat(64)}`;
  const NEW = `0x${'e'.repeat(64)}`;
  /** The service's SUCCEEDED receipt with its destination leg `hash` on Base. */
  const succeeded = (hash: string) => baseReceipt('SUCCEEDED', { intentId: ID, txnHash: hash, txnMinedAt: '2026-11-26T00:00:00Z' });
  /** One worker life whose tracker holds `receipt`; Base holds only OLD, final. Logs each RPC method and hash asked. */
  const life = (receipt: IntentReceipt) => {
    const base = new SimChain(8453);
    base.include({ hash: OLD, status: 'success', token: TOKEN, to: TO, amount: 249_100_000n });
    base.mine(20);
    const asked: string[] = [];
    const chainFetch = rpcFetch(new Map([[BASE_RPC, base]]), () => undefined);
    const platform = quietPlatform((input, init) => {
      const body = JSON.parse(String(init?.body)) as { method: string; params?: unknown[] };
      if (body.method === 'eth_getTransactionReceipt') asked.push(String(body.params?.[0]).toLowerCase());
      return chainFetch(input, init);
    });
    const tracked = { intentId: ID, receipt };
    const verifier = createChainVerifierOnPlatform(platform, {
      notify: async () => {},
      hasPermission: async () => true,
      intents: async () => [tracked],
      intent: async (id) => (id === ID ? tracked : undefined),
    });
    return { verifier, asked };
  };
  const verdict = async () =>
    readChainVerdict((await fakeBrowser.storage.local.get(`${CHAIN_VERDICT_PREFIX}${ID}`))[`${CHAIN_VERDICT_PREFIX}${ID}`]);

  // docs/chain.md: resume() re-checks every receipt its stored verdict does not cover; DEVELOPERS.md: each leg of a
  // receipt verified on its own chain. A verdict made for another transaction does not cover this one.
  it('the destination leg’s txnHash was rewritten (same status) and the worker died before checking it: the new transaction is asked', async () => {
    await fakeBrowser.storage.local.set({ [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: BASE_RPC, finalityDepth: 10 } } });
    const first = life(succeeded(OLD));
    await first.verifier.resume();
    expect(await verdict()).toMatchObject({ verified: true, settled: true });
    // The service now names another destination transaction, one Base never saw; this life died before its check.
    const second = life(succeeded(NEW));
    await second.verifier.resume();
    expect(second.asked).toContain(NEW);
  });
});
