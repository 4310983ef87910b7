/**
 * The verifier against real local chains: two anvils with the chain ids of Base (8453) and Arbitrum One (42161), the
 * repository's ERC-20 on each, real transfers. The verdicts come from what anvil answers over JSON-RPC through the
 * production transport (lib/chain/rpc.ts) on a counting fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcBudget } from '@/lib/chain/budget';
import type { LegRef } from '@/lib/chain/legs';
import { LegVerifier } from '@/lib/chain/verifier';
import { realTimers } from '@/lib/platform';
import { ACCOUNTS, type Anvil, mine, mined, reorg, sendTransfer, startChains, type Token } from '../../simulator/chain/anvil';

const FINALITY = 5;
let base: { anvil: Anvil; token: Token };
let arbitrum: { anvil: Anvil; token: Token };

beforeAll(async () => {
  const chains = await startChains([8453, 42161]);
  base = chains[0]!;
  arbitrum = chains[1]!;
}, 30_000);
afterAll(async () => {
  await Promise.all([base?.anvil.stop(), arbitrum?.anvil.stop()]);
});

/** A verifier on both chains with a fetch that counts the JSON-RPC requests and keeps their headers. */
function verifierOn(missingGraceMs = 60_000) {
  const requests: Array<{ url: string; headers: Headers }> = [];
  const countingFetch: typeof fetch = (input, init) => {
    requests.push({ url: String(input), headers: new Headers(init?.headers) });
    return fetch(input, init);
  };
  const urls: Record<number, string> = { 8453: base.anvil.url, 42161: arbitrum.anvil.url };
  const verifier = new LegVerifier({
    timers: realTimers,
    fetch: countingFetch,
    monotonic: () => performance.now(),
    setting: (id) => (urls[id] ? { rpcUrl: urls[id]!, finalityDepth: FINALITY } : undefined),
    budget: new RpcBudget({ monotonic: () => performance.now(), perMinute: 6_000, burst: 100 }),
    missingGraceMs,
  });
  return { verifier, requests };
}

const destination = (txnHash: `0x${string}`, amount: bigint, token: Token, over: Partial<LegRef> = {}): LegRef => ({
  leg: 'destination',
  chainId: 8453,
  txnHash,
  serviceMined: true,
  transfer: { token: token.address, to: ACCOUNTS.user, amount },
  ...over,
});

describe('the verifier on real local chains', () => {
  it('a confirmed transfer: in its block with 1 confirmation, the exact amount received; final after the depth, then no request', async () => {
    const hash = await sendTransfer(base.anvil, base.token, ACCOUNTS.user, 249_100_000n);
    const { blockNumber } = await mined(base.anvil, hash);
    const { verifier, requests } = verifierOn();
    const first = await verifier.verify(destination(hash, 249_100_000n, base.token));
    expect(first).toMatchObject({
      check: { kind: 'confirmed', blockNumber, confirmations: 1, transfer: { kind: 'received', amount: 249_100_000n } },
    });
    await mine(base.anvil, FINALITY - 1);
    expect(await verifier.verify(destination(hash, 249_100_000n, base.token))).toMatchObject({
      check: { kind: 'final', blockNumber, confirmations: FINALITY },
    });
    const sent = requests.length;
    await mine(base.anvil, 1);
    await verifier.verify(destination(hash, 249_100_000n, base.token));
    expect(requests.length).toBe(sent);
    expect(requests.every((r) => r.url.startsWith(base.anvil.url) && !r.headers.has('x-access-key'))).toBe(true);
  });

  it('a reverting destination transaction is reported reverted', async () => {
    const hash = await sendTransfer(base.anvil, base.token, ACCOUNTS.user, 1n, { from: ACCOUNTS.intent, revert: true });
    expect((await mined(base.anvil, hash)).status).toBe('reverted');
    const { verifier } = verifierOn();
    expect(await verifier.verify(destination(hash, 1n, base.token))).toMatchObject({
      check: { kind: 'reverted', confirmations: 1, final: false },
    });
  });

  it('a smaller amount than the receipt’s is reported with what arrived', async () => {
    const hash = await sendTransfer(base.anvil, base.token, ACCOUNTS.user, 200_000_000n);
    await mined(base.anvil, hash);
    const { verifier } = verifierOn();
    expect(await verifier.verify(destination(hash, 249_100_000n, base.token))).toMatchObject({
      check: { kind: 'confirmed', transfer: { kind: 'less', amount: 200_000_000n } },
    });
  });

  it('a re-org: confirmed first, re-orged out once anvil replaces its block', async () => {
    const hash = await sendTransfer(base.anvil, base.token, ACCOUNTS.user, 5_000_000n);
    const { blockNumber } = await mined(base.anvil, hash);
    await mine(base.anvil, 1);
    const { verifier } = verifierOn();
    expect(await verifier.verify(destination(hash, 5_000_000n, base.token))).toMatchObject({
      check: { kind: 'confirmed', confirmations: 2 },
    });
    await reorg(base.anvil, 2);
    expect(await verifier.verify(destination(hash, 5_000_000n, base.token))).toEqual(
      expect.objectContaining({ check: { kind: 'reorged', blockNumber } }),
    );
  });

  it('not seen while pending; missing once the service has called a hash the chain never had mined past the grace', async () => {
    await base.anvil.test.setAutomine(false);
    try {
      const hash = await sendTransfer(base.anvil, base.token, ACCOUNTS.user, 1_000n);
      const { verifier } = verifierOn(0);
      expect(await verifier.verify(destination(hash, 1_000n, base.token, { serviceMined: false }))).toMatchObject({
        check: { kind: 'not-seen' },
      });
      const unknown = `0x${'5e'.repeat(32)}` as const;
      expect(await verifier.verify(destination(unknown, 1_000n, base.token))).toMatchObject({ check: { kind: 'missing' } });
    } finally {
      await base.anvil.test.setAutomine(true);
      await mine(base.anvil, 1);
    }
  });

  it('each leg on its own chain: a deposit on Arbitrum One is read from the Arbitrum One chain only', async () => {
    const hash = await sendTransfer(arbitrum.anvil, arbitrum.token, ACCOUNTS.intent, 250_000_000n);
    await mined(arbitrum.anvil, hash);
    const { verifier, requests } = verifierOn();
    const deposit: LegRef = { leg: 'deposit', chainId: 42161, txnHash: hash, serviceMined: true };
    expect(await verifier.verify(deposit)).toMatchObject({ check: { kind: 'confirmed', confirmations: 1 } });
    expect(await verifier.verify({ ...deposit, chainId: 8453 })).toMatchObject({ check: { kind: 'not-seen' } });
    // A check: receipt, chain id, head, block.
    expect(requests.filter((r) => r.url.startsWith(arbitrum.anvil.url))).toHaveLength(4);
  });
});
