/**
 * The worker's verifier on its platform, against a real local chain (anvil with Base's chain id): preferences and the
 * told-set in storage.local (fakeBrowser), the platform's fetch, virtual timers. Off until the user turns the chain on
 * and grants its RPC origin.
 */
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Platform } from '@/lib/platform';
import { CHAIN_PREFERENCES_KEY, CHAIN_TOLD_KEY, createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { ACCOUNTS } from '../../simulator/chain/anvil';
import { anvilOnBase, receipt } from './chain-fixtures';

const chain = anvilOnBase();

/** A platform on the real fetch (counted), a monotonic clock at 0 and timers that only record what was asked. */
function platform() {
  const requests: string[] = [];
  const timers: number[] = [];
  const p: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'> = {
    fetch: (input, init) => {
      requests.push(String(input));
      return fetch(input, init);
    },
    clock: { now: () => 0, monotonic: () => 0, sleep: async () => {} },
    timers: { setTimeout: (_fn, ms) => timers.push(ms), clearTimeout: () => {} },
    browser: fakeBrowser as unknown as Platform['browser'],
  };
  return { p, requests, timers };
}

/** The service's receipt at `status`: its destination `hash` on the local chain, paying the user in its token. */
const receiptFor = (hash: string, status: string) =>
  receipt(status, { txnHash: hash, destinationStatus: 'MINING', to: ACCOUNTS.user, token: chain.token.address });

describe('the worker’s verifier on its platform', () => {
  it('sends nothing while the chain is off, or on without the RPC origin’s permission', async () => {
    const hash = await chain.paid();
    const { p, requests } = platform();
    const granted = new Set<string>();
    const verifier = createChainVerifierOnPlatform(p, { notify: async () => {}, hasPermission: async (pattern) => granted.has(pattern) });
    expect((await verifier.onReceipt(receiptFor(hash, 'EXECUTING')))?.legs).toEqual([]);
    await fakeBrowser.storage.local.set({ [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: chain.anvil.url } } });
    expect((await verifier.onReceipt(receiptFor(hash, 'EXECUTING')))?.legs).toEqual([]);
    expect(requests).toEqual([]);
    granted.add('http://127.0.0.1/*');
    expect((await verifier.onReceipt(receiptFor(hash, 'EXECUTING')))?.legs).toHaveLength(1);
    expect(requests.every((url) => url.startsWith(chain.anvil.url))).toBe(true);
  });

  it('tells the transfer that arrived ahead of the service once, remembered in storage, and re-checks on the cadence', async () => {
    const hash = await chain.paid();
    await fakeBrowser.storage.local.set({
      [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: chain.anvil.url, finalityDepth: 60 } },
    });
    const { p, timers } = platform();
    const told: string[] = [];
    const verifier = createChainVerifierOnPlatform(p, {
      notify: async (_id, _d, text) => void told.push(text),
      hasPermission: async () => true,
    });
    const result = await verifier.onReceipt(receiptFor(hash, 'EXECUTING'));
    expect(result?.legs[0]).toMatchObject({
      text: expect.stringMatching(/^Confirmed on Base · block \d+ · 1 confirmation$/),
      transfer: 'Received 249.10 USDC at 0x7099…79C8',
    });
    await verifier.onReceipt(receiptFor(hash, 'EXECUTING'));
    // A new worker life: the told-set in storage keeps it from being said again.
    const restarted = createChainVerifierOnPlatform(platform().p, {
      notify: async (_id, _d, text) => void told.push(text),
      hasPermission: async () => true,
    });
    await restarted.onReceipt(receiptFor(hash, 'EXECUTING'));
    expect(told).toEqual(['Arrived on Base — the service has not caught up yet']);
    expect(((await fakeBrowser.storage.local.get(CHAIN_TOLD_KEY))[CHAIN_TOLD_KEY] as string[]).length).toBe(1);
    // 59 blocks to go at Base's 2 s (and half a block): 119 s, capped at 60 s.
    expect(timers.at(-1)).toBe(60_000);
  });
});
