/**
 * A new worker life resumes the on-chain checks its predecessor owed (lib/worker/chain-resume.ts, chain-wiring.ts):
 * receipts never verified, or verified for another service status, and reads refused by storage or IndexedDB tried
 * again. The platform: WXT's fakeBrowser, a simulated chain behind the platform's fetch (test/world/chain-sim.ts), a
 * monotonic clock and timers advanced by hand.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Platform } from '@/lib/platform';
import type { ChainVerdict } from '@/lib/store';
import { chainVerdictKey } from '@/lib/store/chain';
import { needsCheck } from '@/lib/worker/chain-resume';
import { createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { rpcFetch } from '../world/chain-sim';
import {
  armedChains,
  BASE_RPC,
  receipt as baseReceipt,
  DEST_HASH as HASH,
  paidBase,
  quietPlatform,
  settle,
  storedVerdict,
  TO,
  TOKEN,
} from './chain-fixtures';

const ID = `0x${'1'.repeat(64)}`;

/** The service's receipt of intent ID at `status`, its destination leg (HASH on Base) SUCCEEDED and mined. */
const receipt = (status: string) =>
  baseReceipt(status, { intentId: ID, destinationStatus: 'SUCCEEDED', txnMinedAt: '2026-11-26T00:00:00Z' });

/** The world: Base with the destination final, the platform on virtual time, the tracked intents (reads may be refused). */
function world(status = 'SUCCEEDED') {
  const base = paidBase(20);
  let now = 0;
  let timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let ids = 0;
  const requests: string[] = [];
  let failing = false;
  const chainFetch = rpcFetch(new Map([[BASE_RPC, base]]), () => (failing ? 'http500' : undefined));
  const platform: Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'> = {
    ...quietPlatform(
      (input, init) => {
        requests.push(JSON.parse(String(init?.body)).method);
        return chainFetch(input, init);
      },
      () => now,
    ),
    // Timers that fire, on the virtual clock, as `advance` passes them.
    timers: {
      setTimeout: (fn, ms) => {
        timers.push({ at: now + ms, fn, id: ++ids });
        return ids;
      },
      clearTimeout: (id) => {
        timers = timers.filter((t) => t.id !== id);
      },
    },
  };
  let refuse = 0;
  const tracked = { intentId: ID, receipt: receipt(status) };
  const told: string[] = [];
  const verifier = createChainVerifierOnPlatform(platform, {
    notify: async (_id, d) => void told.push(`${d.kind} ${d.leg}`),
    hasPermission: async () => true,
    intents: async () => {
      if (refuse-- > 0) throw new DOMException('svc-intents/intents: read refused', 'UnknownError');
      return [tracked];
    },
  });
  /** Runs the timers due within `ms`, in order, settling each one's work. */
  const advance = async (ms: number) => {
    const end = now + ms;
    for (let next = timers.sort((a, b) => a.at - b.at)[0]; next && next.at <= end; next = timers.sort((a, b) => a.at - b.at)[0]) {
      timers = timers.filter((t) => t !== next);
      now = next.at;
      next.fn();
      await settle();
    }
    now = end;
  };
  return {
    verifier,
    requests,
    advance,
    verdict: () => storedVerdict(ID),
    tracked,
    told,
    refuseReads: (n: number) => (refuse = n),
    failRpc: (on: boolean) => (failing = on),
  };
}

beforeEach(() => armedChains(10, { arbitrum: false }));

const stored = (v: Partial<ChainVerdict>) =>
  fakeBrowser.storage.local.set({ [chainVerdictKey(ID)]: { intentId: ID, verified: false, settled: false, legs: [], ...v } });

describe('a new worker life resumes the checks owed', () => {
  it('checks a receipt the last life recorded but never verified (no stored verdict)', async () => {
    const w = world();
    await w.verifier.resume();
    expect(await w.verdict()).toMatchObject({ verified: true, settled: true, legs: [{ leg: 'destination', kind: 'final' }] });
  });

  it('checks again a settled verdict made while the service said EXECUTING, now that it says SUCCEEDED', async () => {
    const w = world();
    await stored({
      settled: true,
      legs: [{ leg: 'destination', chainId: 8453, kind: 'final', text: 'Final on Base' }],
      serviceStatus: 'EXECUTING',
    });
    await w.verifier.resume();
    expect(await w.verdict()).toMatchObject({ verified: true, serviceStatus: 'SUCCEEDED' });
  });

  it('asks nothing again for a settled verdict of the same status and legs', async () => {
    const w = world();
    await w.verifier.resume();
    const again = world();
    await again.verifier.resume();
    expect(again.requests).toEqual([]);
  });

  it('tries again, in this life, a resume whose read of the tracked intents was refused', async () => {
    const w = world();
    await stored({ settled: false });
    w.refuseReads(2);
    await w.verifier.resume();
    expect(await w.verdict()).toMatchObject({ verified: false });
    await w.advance(5_000);
    expect(await w.verdict()).toMatchObject({ verified: false });
    await w.advance(10_000);
    expect(await w.verdict()).toMatchObject({ verified: true, settled: true });
  });

  it('tries again a change whose read of the tracked intents was refused', async () => {
    const w = world();
    w.refuseReads(1);
    await w.verifier.changed(ID);
    expect(await w.verdict()).toBeUndefined();
    await w.advance(5_000);
    expect(await w.verdict()).toMatchObject({ verified: true });
  });

  it('writes again a verdict whose write storage refused', async () => {
    const w = world();
    const set = vi.spyOn(fakeBrowser.storage.local, 'set').mockRejectedValueOnce(new Error('QUOTA_BYTES quota exceeded'));
    await w.verifier.changed(ID);
    expect(await w.verdict()).toBeUndefined();
    set.mockRestore();
    await w.verifier.onReceipt(w.tracked.receipt);
    expect(await w.verdict()).toMatchObject({ settled: true, verified: true });
  });
});

describe('a new worker life whose first read of a leg fails', () => {
  const line = { leg: 'destination', chainId: 8453, kind: 'confirmed', text: 'Confirmed on Base · block 1 · 5 confirmations' };

  it('keeps the leg’s last known line, marked as not re-checked, until a read succeeds', async () => {
    const w = world('EXECUTING');
    await stored({ serviceStatus: 'EXECUTING', legs: [{ ...line, txnHash: HASH }] });
    w.failRpc(true);
    await w.verifier.resume();
    expect(w.requests).not.toEqual([]);
    expect(await w.verdict()).toMatchObject({ settled: false, legs: [{ ...line, txnHash: HASH, lastKnown: true }] });
    // The back-off's first delay after an RPC failure: read again, and the line is this life's own.
    w.failRpc(false);
    await w.advance(12_000);
    const verdict = await w.verdict();
    expect(verdict?.legs).toEqual([expect.objectContaining({ leg: 'destination', kind: 'final', txnHash: HASH })]);
    expect(verdict?.legs[0]?.lastKnown).toBeUndefined();
  });

  it('does not keep a line made for another transaction of that leg', async () => {
    const w = world('EXECUTING');
    await stored({ serviceStatus: 'EXECUTING', legs: [{ ...line, txnHash: `0x${'e'.repeat(64)}` }] });
    w.failRpc(true);
    await w.verifier.resume();
    expect(await w.verdict()).toMatchObject({ settled: false, legs: [] });
  });
});

describe('needsCheck', () => {
  const on = () => true;
  const leg = { leg: 'destination', chainId: 8453, txnHash: HASH, kind: 'final', text: '' };
  it('wants a check without a verdict, with an unsettled one, another status, a missing leg or one of another transaction; not otherwise', () => {
    const r = receipt('SUCCEEDED');
    const v: ChainVerdict = { intentId: ID, verified: true, settled: true, serviceStatus: 'SUCCEEDED', legs: [leg] };
    expect(needsCheck(r, undefined, on)).toBe(true);
    expect(needsCheck(r, { ...v, settled: false }, on)).toBe(true);
    expect(needsCheck(r, { ...v, serviceStatus: 'EXECUTING' }, on)).toBe(true);
    expect(needsCheck(r, { ...v, legs: [] }, on)).toBe(true);
    // Made for another transaction or chain of that leg, or stored before the transaction was kept: not this one's.
    expect(needsCheck(r, { ...v, legs: [{ ...leg, txnHash: `0x${'e'.repeat(64)}` }] }, on)).toBe(true);
    expect(needsCheck(r, { ...v, legs: [{ ...leg, chainId: 42161 }] }, on)).toBe(true);
    expect(needsCheck(r, { ...v, legs: [{ leg: 'destination', chainId: 8453, kind: 'final', text: '' }] }, on)).toBe(true);
    expect(needsCheck(r, v, on)).toBe(false);
    expect(needsCheck(r, undefined, () => false)).toBe(false);
  });
});

describe('a leg stored final', () => {
  it('is not read again by the next worker life, which checks the receipt for the service’s new status', async () => {
    const first = world('EXECUTING');
    await first.verifier.resume();
    expect(first.requests).not.toEqual([]);
    const shown = await first.verdict();
    expect(shown).toMatchObject({ settled: true, verified: false, legs: [{ leg: 'destination', kind: 'final', final: true }] });
    // The service now says SUCCEEDED: the next life owes a check, and makes it from what is stored, without a request.
    const next = world('SUCCEEDED');
    await next.verifier.resume();
    expect(next.requests).toEqual([]);
    expect(await next.verdict()).toMatchObject({
      verified: true,
      settled: true,
      serviceStatus: 'SUCCEEDED',
      legs: [{ leg: 'destination', kind: 'final', text: shown?.legs[0]?.text, transfer: 'Received 249.10 USDC at 0x7099…79c8' }],
    });
    // Nor by a later check of that life (another receipt change).
    await next.verifier.onReceipt(next.tracked.receipt);
    expect(next.requests).toEqual([]);
  });

  it('tells from what is stored a transfer of another amount, once', async () => {
    const line = { leg: 'destination', chainId: 8453, txnHash: HASH, kind: 'final', text: 'Final on Base · block 101 · 12 confirmations' };
    const kept = {
      blockNumber: '101',
      blockHash: `0x${'ab'.repeat(32)}`,
      confirmations: 12,
      final: true,
      received: '200000000',
      recipient: TO,
      token: TOKEN,
    };
    await stored({ settled: true, serviceStatus: 'EXECUTING', legs: [{ ...line, ...kept }] });
    const w = world('SUCCEEDED');
    await w.verifier.resume();
    expect(w.requests).toEqual([]);
    expect(w.told).toEqual(['amount-differs destination']);
    expect(await w.verdict()).toMatchObject({
      verified: false,
      settled: true,
      legs: [{ ...line, ...kept, transfer: '200.00 USDC arrived at 0x7099…79c8; the receipt says 249.10 USDC' }],
    });
    // Another life, another check: told once (the told-set), still nothing read.
    const again = world('SUCCEEDED');
    await again.verifier.onReceipt(again.tracked.receipt);
    expect(again.told).toEqual([]);
    expect(again.requests).toEqual([]);
  });

  it('stored with its amount but not the recipient and token it was counted for (older code): read once more', async () => {
    const line = { leg: 'destination', chainId: 8453, txnHash: HASH, kind: 'final', text: 'Final on Base · block 101 · 12 confirmations' };
    const kept = { blockNumber: '101', blockHash: `0x${'ab'.repeat(32)}`, confirmations: 12, final: true, received: '249100000' };
    await stored({ settled: true, serviceStatus: 'EXECUTING', legs: [{ ...line, ...kept }] });
    const w = world('SUCCEEDED');
    await w.verifier.resume();
    expect(w.requests).toContain('eth_getTransactionReceipt');
    expect(await w.verdict()).toMatchObject({ verified: true, legs: [{ kind: 'final', recipient: TO, token: TOKEN }] });
  });

  it('stored by the older code (no block kept) still loads, and is read once more', async () => {
    const line = { leg: 'destination', chainId: 8453, txnHash: HASH, kind: 'final', text: 'Final on Base · block 101 · 12 confirmations' };
    await stored({ settled: true, serviceStatus: 'EXECUTING', legs: [line] });
    expect(await world().verdict()).toMatchObject({ settled: true, legs: [line] });
    const w = world('SUCCEEDED');
    await w.verifier.resume();
    expect(w.requests).toContain('eth_getTransactionReceipt');
    expect(await w.verdict()).toMatchObject({ verified: true, legs: [{ kind: 'final', final: true }] });
    const next = world('SUCCEEDED');
    await next.verifier.onReceipt(next.tracked.receipt);
    expect(next.requests).toEqual([]);
  });
});
