/**
 * What the worker keeps of its on-chain verification, against a real local chain (anvil with Base's chain id): each
 * intent's verdict in storage.local for the popup (plain words, no bigint), checks started again by a new worker life
 * for verdicts not settled, and everything of an intent dropped when the tracker no longer holds it.
 */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { Platform } from '@/lib/platform';
import type { TrackedIntent } from '@/lib/store';
import { CHAIN_PREFERENCES_KEY, CHAIN_TOLD_KEY, chainVerdictKey, loadChainVerdicts } from '@/lib/store/chain';
import { createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { ACCOUNTS, mine } from '../../simulator/chain/anvil';
import { anvilOnBase, receipt } from './chain-fixtures';

const chain = anvilOnBase();

/** A platform on the real fetch (counted), a monotonic clock moved by `later` and timers that only count what is pending. */
function platform() {
  let now = 0;
  const requests: string[] = [];
  const pending = new Set<number>();
  let n = 0;
  const p: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'> = {
    fetch: (input, init) => {
      requests.push(String(input));
      return fetch(input, init);
    },
    clock: { now: () => now, monotonic: () => now, sleep: async () => {} },
    timers: {
      setTimeout: () => {
        pending.add(++n);
        return n;
      },
      clearTimeout: (h) => void pending.delete(h as number),
    },
    browser: fakeBrowser as unknown as Platform['browser'],
  };
  return { p, requests, pending, later: (ms: number) => (now += ms) };
}

const ID = `0x${'1'.repeat(64)}`;
/** The service's receipt at `status`: its destination `hash` on the local chain, paying the user in its token. */
const receiptFor = (hash: string, status: string) =>
  receipt(status, { intentId: ID, txnHash: hash, destinationStatus: 'SUCCEEDED', to: ACCOUNTS.user, token: chain.token.address });
const tracked = (receipt: IntentReceipt): Pick<TrackedIntent, 'intentId' | 'receipt'> => ({ intentId: ID, receipt });

describe('the verdicts the worker keeps', () => {
  it('stores the verdict in words for the popup, settled and verified once the destination is final', async () => {
    const hash = await chain.paid();
    await fakeBrowser.storage.local.set({
      [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: chain.anvil.url, finalityDepth: 3 } },
    });
    let intents = [tracked(receiptFor(hash, 'SUCCEEDED'))];
    const { p, later } = platform();
    const verifier = createChainVerifierOnPlatform(p, {
      notify: async () => {},
      intents: async () => intents,
      hasPermission: async () => true,
    });
    await verifier.changed(ID);
    const first = (await loadChainVerdicts(fakeBrowser.storage.local, [ID])).get(ID);
    expect(first).toMatchObject({ verified: false, settled: false, legs: [{ leg: 'destination', chainId: 8453, kind: 'confirmed' }] });
    expect(first?.legs[0]?.text).toMatch(/^Confirmed on Base · block \d+ · 1 confirmation$/);
    expect(first?.legs[0]?.transfer).toBe('Received 249.10 USDC at 0x7099…79C8');
    await mine(chain.anvil, 2);
    // The leg is due again (its cadence: at most a minute); the record written again is checked then.
    later(60_000);
    intents = [tracked(receiptFor(hash, 'SUCCEEDED'))];
    await verifier.onReceipt(intents[0]!.receipt!);
    const second = (await loadChainVerdicts(fakeBrowser.storage.local, [ID])).get(ID);
    expect(second).toMatchObject({ verified: true, settled: true, legs: [{ kind: 'final' }] });
    expect(second?.legs[0]?.text).toMatch(/^Final on Base · block \d+ · 3 confirmations$/);
  });

  it('a new worker life checks again the intents whose verdict is not settled, and no other', async () => {
    const hash = await chain.paid();
    await fakeBrowser.storage.local.set({
      [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: chain.anvil.url, finalityDepth: 60 } },
    });
    const intents = [tracked(receiptFor(hash, 'EXECUTING'))];
    const before = createChainVerifierOnPlatform(platform().p, {
      notify: async () => {},
      intents: async () => intents,
      hasPermission: async () => true,
    });
    await before.changed(ID);
    // The worker dies; the next life resumes the check its timer would have made.
    const next = platform();
    const after = createChainVerifierOnPlatform(next.p, {
      notify: async () => {},
      intents: async () => intents,
      hasPermission: async () => true,
    });
    await after.resume();
    expect(next.requests.length).toBeGreaterThan(0);
    expect(next.pending.size).toBe(1);
    // Nothing to resume when every stored verdict is settled: the tracked intents are not even read.
    fakeBrowser.reset();
    let read = 0;
    const idle = createChainVerifierOnPlatform(platform().p, {
      notify: async () => {},
      intents: async () => {
        read++;
        return intents;
      },
      hasPermission: async () => true,
    });
    await fakeBrowser.storage.local.set({ [chainVerdictKey(ID)]: { intentId: ID, verified: true, settled: true, legs: [] } });
    await idle.resume();
    expect(read).toBe(0);
  });

  it('stores nothing while no chain is on; a verdict stored while one was on is still brought up to date after', async () => {
    const hash = await chain.paid();
    const { p, requests } = platform();
    let verdictWrites = 0;
    const set = fakeBrowser.storage.local.set.bind(fakeBrowser.storage.local);
    fakeBrowser.storage.local.set = async (items: Record<string, unknown>) => {
      if (chainVerdictKey(ID) in items) verdictWrites++;
      return set(items);
    };
    const verifier = createChainVerifierOnPlatform(p, { notify: async () => {}, hasPermission: async () => true });
    // No chain on (the default): receipt changes read no chain and write no verdict, nor a storage event to the popup.
    for (const status of ['EXECUTING', 'EXECUTING', 'SUCCEEDED']) await verifier.onReceipt(receiptFor(hash, status));
    expect(requests).toEqual([]);
    expect(verdictWrites).toBe(0);
    expect((await fakeBrowser.storage.local.get(null))[chainVerdictKey(ID)]).toBeUndefined();
    // On: verified and stored. Off again: the next change still rewrites it, its lines for the chain now off dropped.
    await fakeBrowser.storage.local.set({
      [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: chain.anvil.url, finalityDepth: 3 } },
    });
    await verifier.onReceipt(receiptFor(hash, 'SUCCEEDED'));
    expect((await loadChainVerdicts(fakeBrowser.storage.local, [ID])).get(ID)?.legs).toHaveLength(1);
    await fakeBrowser.storage.local.set({ [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: false, rpcUrl: chain.anvil.url } } });
    const before = verdictWrites;
    await verifier.onReceipt(receiptFor(hash, 'SUCCEEDED'));
    expect(verdictWrites).toBe(before + 1);
    expect((await loadChainVerdicts(fakeBrowser.storage.local, [ID])).get(ID)?.legs).toEqual([]);
  });

  it('drops an intent the tracker no longer holds: its verdict, its told keys, its pending check', async () => {
    const hash = await chain.paid();
    await fakeBrowser.storage.local.set({
      [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: chain.anvil.url, finalityDepth: 60 } },
      [CHAIN_TOLD_KEY]: ['chain:0xother:reorged:origin'],
    });
    let intents = [tracked(receiptFor(hash, 'EXECUTING'))];
    const told: Array<{ id: string; receipt: string }> = [];
    const { p, pending } = platform();
    const verifier = createChainVerifierOnPlatform(p, {
      notify: async (id, _d, _text, receipt) => void told.push({ id, receipt: receipt.intentId }),
      intents: async () => intents,
      hasPermission: async () => true,
    });
    await verifier.changed(ID);
    // The transfer arrived while the service says EXECUTING: told, with the receipt it is about.
    expect(told).toEqual([{ id: ID, receipt: ID }]);
    expect(pending.size).toBe(1);
    intents = [];
    await verifier.changed(ID);
    const stored = await fakeBrowser.storage.local.get(null);
    expect(stored[chainVerdictKey(ID)]).toBeUndefined();
    expect(stored[CHAIN_TOLD_KEY]).toEqual(['chain:0xother:reorged:origin']);
    expect(pending.size).toBe(0);
    expect(verifier.last(ID)).toBeUndefined();
  });
});
