/**
 * One RPC origin that does not answer (down, or slow up to the transport's time-out) delays no read of a leg on
 * another chain (docs/chain.md, "In the worker"): the legs of a receipt are read side by side, the receipts of a
 * resume too, a leg whose read is still under way is not asked again meanwhile, and a check overtaken by a newer
 * receipt's stores nothing. Arbitrum One's endpoint holds every request until released; Base is a simulated chain
 * (test/world/chain-sim.ts) behind the platform's fetch.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { Platform } from '@/lib/platform';
import { CHAIN_VERDICT_PREFIX, readChainVerdict } from '@/lib/store/chain';
import { CHAIN_PREFERENCES_KEY, CHAIN_TOLD_KEY, createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { rpcFetch, SimChain } from '../world/chain-sim';

const ARB = 'https://arb.rpc.example';
const BASE = 'https://base.rpc.example';
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const HASH = { origin: `0x${'b2'.repeat(32)}`, destination: `0x${'c3'.repeat(32)}`, other: `0x${'c4'.repeat(32)}` };
const ID = { one: `0x${'1'.repeat(64)}`, two: `0x${'2'.repeat(64)}` };
const summary = { destinationToAddress: TO, destinationTokenAddress: TOKEN, destinationTokenMetadata: { symbol: 'USDC', decimals: 6 } };
const originLeg = { chainId: 42161, txnHash: HASH.origin, status: 'SUCCEEDED' };
const destinationLeg = { chainId: 8453, txnHash: HASH.destination, status: 'SUCCEEDED', tokenAmount: '249100000' };

const receipt = (intentId: string, legs: { origin?: boolean; destination?: boolean }) =>
  IntentReceipt.parse({
    intentId,
    status: 'EXECUTING',
    ...(legs.origin ? { originTransaction: originLeg } : {}),
    ...(legs.destination ? { destinationTransaction: destinationLeg } : {}),
    summary,
  });

/** Lets every promise chain that can go on go on (the held requests stay held). */
const settle = async () => {
  for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
};

function world(tracked: Array<{ intentId: string; receipt: IntentReceipt }> = []) {
  const base = new SimChain(8453);
  base.include({ hash: HASH.destination, status: 'success', token: TOKEN, to: TO, amount: 249_100_000n });
  base.include({ hash: HASH.other, status: 'success', token: TOKEN, to: TO, amount: 249_100_000n });
  base.mine(5);
  const baseFetch = rpcFetch(new Map([[BASE, base]]), () => undefined);
  const held: Array<() => void> = [];
  const baseAsked: string[] = [];
  const platform: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'> = {
    fetch: (input, init) => {
      const url = String(input);
      if (url.startsWith(ARB)) return new Promise((_, reject) => held.push(() => reject(new TypeError('fetch failed: connection reset'))));
      baseAsked.push(JSON.parse(String(init?.body)).method);
      return baseFetch(input, init);
    },
    clock: { now: () => 0, monotonic: () => 0, sleep: async () => {} },
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    browser: fakeBrowser as unknown as Platform['browser'],
  };
  const told: string[] = [];
  const verifier = createChainVerifierOnPlatform(platform, {
    notify: async (intentId, d) => void told.push(`${intentId.slice(0, 4)} ${d.kind} ${d.leg}`),
    hasPermission: async () => true,
    intents: async () => tracked,
  });
  const verdict = async (id: string) =>
    readChainVerdict((await fakeBrowser.storage.local.get(`${CHAIN_VERDICT_PREFIX}${id}`))[`${CHAIN_VERDICT_PREFIX}${id}`]);
  const release = async () => {
    for (const r of held.splice(0)) r();
    await settle();
  };
  return { verifier, baseAsked, held, verdict, release, told };
}

beforeEach(async () => {
  fakeBrowser.reset();
  await fakeBrowser.storage.local.set({
    [CHAIN_PREFERENCES_KEY]: {
      42161: { enabled: true, rpcUrl: ARB, finalityDepth: 20 },
      8453: { enabled: true, rpcUrl: BASE, finalityDepth: 3 },
    },
  });
});

describe('an RPC origin that does not answer', () => {
  it('does not hold back the read of another leg of the receipt on a healthy chain', async () => {
    const w = world();
    const check = w.verifier.onReceipt(receipt(ID.one, { origin: true, destination: true }));
    await settle();
    expect(w.held.length).toBeGreaterThan(0);
    expect(w.baseAsked).toContain('eth_getTransactionReceipt');
    await w.release();
    expect((await check)?.legs.map((l) => `${l.leg} ${l.check.kind}`)).toEqual(['destination final']);
  });

  it('stores and tells a leg’s verdict as its chain answers, while another leg’s read is under way', async () => {
    const w = world();
    const check = w.verifier.onReceipt(receipt(ID.one, { origin: true, destination: true }));
    await settle();
    expect(w.held.length).toBeGreaterThan(0);
    // Base answered: its leg is on the receipt, and the transfer that arrived while the service says EXECUTING told.
    expect(await w.verdict(ID.one)).toMatchObject({
      settled: false,
      legs: [{ leg: 'destination', kind: 'final', txnHash: HASH.destination }],
    });
    expect(w.told).toEqual(['0x11 arrived-early destination']);
    const asked = w.baseAsked.length;
    await w.release();
    await check;
    // The origin's read failed: nothing more asked of Base, nothing told twice, Base's line kept.
    expect(w.baseAsked.length).toBe(asked);
    expect(w.told).toEqual(['0x11 arrived-early destination']);
    expect(await w.verdict(ID.one)).toMatchObject({ settled: false, legs: [{ leg: 'destination', kind: 'final' }] });
  });

  it('tells the disagreements of receipts checked side by side once each, none lost from the told-set', async () => {
    const other = receipt(ID.two, { destination: true });
    other.destinationTransaction = { ...other.destinationTransaction!, txnHash: HASH.other };
    const w = world([
      { intentId: ID.one, receipt: receipt(ID.one, { destination: true }) },
      { intentId: ID.two, receipt: other },
    ]);
    await w.verifier.resume();
    expect([...w.told].sort()).toEqual(['0x11 arrived-early destination', '0x22 arrived-early destination']);
    const told = (await fakeBrowser.storage.local.get(CHAIN_TOLD_KEY))[CHAIN_TOLD_KEY];
    expect([...(told as string[])].sort()).toEqual([
      `chain:${ID.one}:arrived-early:destination`,
      `chain:${ID.two}:arrived-early:destination`,
    ]);
  });

  it('does not hold back the check of another receipt in a resume', async () => {
    const w = world([
      { intentId: ID.one, receipt: receipt(ID.one, { origin: true }) },
      { intentId: ID.two, receipt: receipt(ID.two, { destination: true }) },
    ]);
    const resumed = w.verifier.resume();
    await settle();
    expect(w.held.length).toBeGreaterThan(0);
    expect(await w.verdict(ID.two)).toMatchObject({ settled: true, legs: [{ leg: 'destination', kind: 'final' }] });
    await w.release();
    await resumed;
  });

  it('does not hold back a new leg on a healthy chain while the read of an older leg is under way', async () => {
    const w = world();
    const first = w.verifier.onReceipt(receipt(ID.one, { origin: true }));
    await settle();
    const asked = w.held.length;
    expect(asked).toBeGreaterThan(0);
    // The service names the destination on Base: read and stored now, the origin's read not sent again.
    let second: Awaited<typeof first> | 'held' = 'held';
    void w.verifier.onReceipt(receipt(ID.one, { origin: true, destination: true })).then((v) => (second = v));
    await settle();
    expect(second).not.toBe('held');
    expect(w.held.length).toBe(asked);
    expect(await w.verdict(ID.one)).toMatchObject({ legs: [{ leg: 'destination', kind: 'final' }] });
    // The older check, ending after the newer one, does not store its older receipt's verdict over it.
    await w.release();
    await first;
    expect(await w.verdict(ID.one)).toMatchObject({ legs: [{ leg: 'destination', kind: 'final' }] });
  });
});
