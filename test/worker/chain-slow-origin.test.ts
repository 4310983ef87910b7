/**
 * One RPC origin that does not answer (down, or slow up to the transport's time-out) delays no read of a leg on
 * another chain (docs/chain.md, "In the worker"): the legs of a receipt are read side by side, the receipts of a
 * resume too, a leg whose read is still under way is not asked again meanwhile, and a check overtaken by a newer
 * receipt's stores nothing. Arbitrum One's endpoint holds every request until released; Base is a simulated chain
 * (test/world/chain-sim.ts) behind the platform's fetch.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { CHAIN_TOLD_KEY, createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { rpcFetch } from '../world/chain-sim';
import {
  ARB_RPC,
  armedChains,
  BASE_RPC,
  receipt as baseReceipt,
  DEST_HASH,
  paidBase,
  quietPlatform,
  settle,
  storedVerdict,
} from './chain-fixtures';

/** The destination legs on Base: the fixtures' {@link DEST_HASH}, and another intent's. */
const HASH = { destination: DEST_HASH, other: `0x${'c4'.repeat(32)}` };
const ID = { one: `0x${'1'.repeat(64)}`, two: `0x${'2'.repeat(64)}` };

/** Intent `intentId`'s EXECUTING receipt, with an origin leg on Arbitrum One and a destination leg on Base, or either. */
const receipt = (intentId: string, legs: { origin?: boolean; destination?: boolean }) =>
  baseReceipt('EXECUTING', {
    intentId,
    withOrigin: legs.origin,
    originChainId: 42161,
    withDestination: legs.destination ?? false,
    destinationStatus: 'SUCCEEDED',
  });

function world(tracked: Array<{ intentId: string; receipt: IntentReceipt }> = []) {
  const base = paidBase(5, HASH.destination, HASH.other);
  const baseFetch = rpcFetch(new Map([[BASE_RPC, base]]), () => undefined);
  const held: Array<() => void> = [];
  const baseAsked: string[] = [];
  const platform = quietPlatform((input, init) => {
    const url = String(input);
    if (url.startsWith(ARB_RPC))
      return new Promise((_, reject) => held.push(() => reject(new TypeError('fetch failed: connection reset'))));
    baseAsked.push(JSON.parse(String(init?.body)).method);
    return baseFetch(input, init);
  });
  const told: string[] = [];
  const verifier = createChainVerifierOnPlatform(platform, {
    notify: async (intentId, d) => void told.push(`${intentId.slice(0, 4)} ${d.kind} ${d.leg}`),
    hasPermission: async () => true,
    intents: async () => tracked,
  });
  const release = async () => {
    for (const r of held.splice(0)) r();
    await settle();
  };
  return { verifier, baseAsked, held, verdict: storedVerdict, release, told };
}

beforeEach(() => armedChains(3));

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
    const other = baseReceipt('EXECUTING', { intentId: ID.two, txnHash: HASH.other, destinationStatus: 'SUCCEEDED' });
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
