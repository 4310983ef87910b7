/**
 * Hostile tests of a settled leg's transfer judged anew (lib/chain/verifier.ts, lib/chain/verify.ts `settledFor`,
 * lib/chain/transfer.ts `transferAgain`), by a tester who did not write them: one transaction named by two intents
 * with different recipients, a receipt dropping and restoring its transfer, the native token named two ways, case.
 */
import { describe, expect, it } from 'vitest';
import { RpcBudget } from '@/lib/chain/budget';
import type { LegRef } from '@/lib/chain/legs';
import type { ChainReader } from '@/lib/chain/rpc';
import { TRANSFER_TOPIC } from '@/lib/chain/transfer';
import { LegVerifier } from '@/lib/chain/verifier';
import type { LegObservation } from '@/lib/chain/verify';
import { realTimers } from '@/lib/platform';

const HASH = `0x${'ab'.repeat(32)}` as const;
const BLOCK = `0x${'1a'.repeat(32)}`;
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const X = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const Y = `0x${'12'.repeat(20)}`;
const topic = (a: string) => `0x${'0'.repeat(24)}${a.slice(2)}`;
const ref = (over: Partial<LegRef> = {}): LegRef => ({ leg: 'destination', chainId: 8453, txnHash: HASH, serviceMined: true, ...over });

/** A final transaction (head 14, block 10, depth 5) moving 100 of TOKEN to X and 50 to Y, and `value` wei to `txTo`. */
const paid = (txTo: string | null = TOKEN, value = 0n): LegObservation => ({
  receipt: {
    status: 'success',
    blockNumber: 10n,
    blockHash: BLOCK,
    to: txTo,
    logs: [
      { address: TOKEN, topics: [TRANSFER_TOPIC, topic(`0x${'0'.repeat(40)}`), topic(X)], data: '0x64' },
      { address: TOKEN, topics: [TRANSFER_TOPIC, topic(`0x${'0'.repeat(40)}`), topic(Y)], data: '0x32' },
    ],
  },
  head: 14n,
  canonicalBlockHash: BLOCK,
  ...(value ? { value } : {}),
});

function setup(perMinute = 600, burst = 30) {
  let now = 0;
  const calls: string[] = [];
  const reader: ChainReader = {
    observe: async (hash, withValue) => {
      calls.push(hash);
      return withValue ? paid(X, 7n) : paid();
    },
  };
  const budget = new RpcBudget({ monotonic: () => now, perMinute, burst });
  const verifier = new LegVerifier({
    timers: realTimers,
    fetch: () => Promise.reject(new Error('the reader is scripted')),
    monotonic: () => now,
    setting: (id) => (id === 8453 ? { rpcUrl: 'http://127.0.0.1:8545/', finalityDepth: 5 } : undefined),
    budget,
    missingGraceMs: 30_000,
    reader: () => reader,
  });
  return { verifier, calls, budget, advance: (ms: number) => (now += ms) };
}

describe('a settled leg named by two intents, or by a receipt that changes', () => {
  it('one transaction, two intents expecting different recipients: each judged right, and the chain read once per recipient, not at every pass', async () => {
    const { verifier, calls } = setup();
    const toX = ref({ transfer: { token: TOKEN, to: X, amount: 100n } });
    const toY = ref({ transfer: { token: TOKEN, to: Y, amount: 50n } });
    for (let pass = 0; pass < 5; pass++) {
      expect(await verifier.verify(toX, { whenDue: true })).toMatchObject({
        check: { kind: 'final', transfer: { kind: 'received', amount: 100n } },
      });
      expect(await verifier.verify(toY, { whenDue: true })).toMatchObject({
        check: { kind: 'final', transfer: { kind: 'received', amount: 50n } },
      });
    }
    // A final transaction's logs do not change: what it moved to X and to Y is known after one read of each.
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it('one transaction, two intents, the budget empty: the second intent’s check does not wipe the first one’s final verdict', async () => {
    const { verifier } = setup(1, 8);
    const toX = ref({ transfer: { token: TOKEN, to: X, amount: 100n } });
    const toY = ref({ transfer: { token: TOKEN, to: Y, amount: 50n } });
    expect(await verifier.verify(toX)).toMatchObject({ check: { kind: 'final' } });
    expect(await verifier.verify(toY)).toMatchObject({ check: { kind: 'final' } });
    // The budget is spent: X's leg, final, must still answer its verdict (no request needed for a settled leg).
    const again = await verifier.verify(toX);
    expect(again).toMatchObject({ check: { kind: 'final', transfer: { kind: 'received', amount: 100n } } });
  });

  it('the receipt drops its transfer and then names it again: no second read of a final leg', async () => {
    const { verifier, calls } = setup();
    const transfer = { token: TOKEN, to: X, amount: 100n };
    expect(await verifier.verify(ref({ transfer }))).toMatchObject({ check: { kind: 'final', transfer: { kind: 'received' } } });
    const dropped = await verifier.verify(ref());
    expect(dropped).toMatchObject({ check: { kind: 'final' } });
    expect('check' in dropped && dropped.check.kind === 'final' && dropped.check.transfer).toBeFalsy();
    expect(await verifier.verify(ref({ transfer }))).toMatchObject({
      check: { kind: 'final', transfer: { kind: 'received', amount: 100n } },
    });
    expect(calls).toHaveLength(1);
  });

  it('recipient and token in another case (checksummed): no second read, the same judgement', async () => {
    const { verifier, calls } = setup();
    const transfer = { token: TOKEN, to: X, amount: 100n };
    await verifier.verify(ref({ transfer }));
    const upper = { token: `0x${TOKEN.slice(2).toUpperCase()}`, to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: 90n };
    expect(await verifier.verify(ref({ transfer: upper }))).toMatchObject({
      check: { kind: 'final', transfer: { kind: 'more', amount: 100n } },
    });
    expect(calls).toHaveLength(1);
  });

  it('a native-token leg: an amount change judged from the value without a read, and never shown received for another recipient', async () => {
    const { verifier, calls } = setup();
    const native = { token: '0x0000000000000000000000000000000000000000', to: X, amount: 7n };
    expect(await verifier.verify(ref({ transfer: native }))).toMatchObject({
      check: { kind: 'final', transfer: { kind: 'received', amount: 7n } },
    });
    expect(await verifier.verify(ref({ transfer: { ...native, amount: 8n } }))).toMatchObject({
      check: { transfer: { kind: 'less', amount: 7n } },
    });
    expect(calls).toHaveLength(1);
    const other = await verifier.verify(ref({ transfer: { ...native, to: Y } }));
    expect(other).toMatchObject({ check: { kind: 'final', transfer: { kind: 'none' } } });
  });

  it('the native token named the other way (0xeee…e for 0x0…0): the same token, no second read', async () => {
    const { verifier, calls } = setup();
    const native = { token: '0x0000000000000000000000000000000000000000', to: X, amount: 7n };
    await verifier.verify(ref({ transfer: native }));
    const eee = { ...native, token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' };
    expect(await verifier.verify(ref({ transfer: eee }))).toMatchObject({
      check: { kind: 'final', transfer: { kind: 'received', amount: 7n } },
    });
    expect(calls).toHaveLength(1);
  });
});

describe('a leg not final yet, named by two intents', () => {
  it('the second intent, not due, is never handed the transfer counted for the first one’s recipient', async () => {
    let now = 0;
    const confirmed: LegObservation = { ...paid(), head: 12n };
    const reader: ChainReader = { observe: async () => confirmed };
    const verifier = new LegVerifier({
      timers: realTimers,
      fetch: () => Promise.reject(new Error('the reader is scripted')),
      monotonic: () => now,
      setting: () => ({ rpcUrl: 'http://127.0.0.1:8545/', finalityDepth: 5 }),
      budget: new RpcBudget({ monotonic: () => now, perMinute: 600, burst: 30 }),
      reader: () => reader,
    });
    const toX = ref({ transfer: { token: TOKEN, to: X, amount: 100n } });
    const toY = ref({ transfer: { token: TOKEN, to: Y, amount: 999n } });
    expect(await verifier.verify(toX)).toMatchObject({ check: { kind: 'confirmed', transfer: { kind: 'received' } } });
    now += 1;
    const forY = await verifier.verify(toY, { whenDue: true });
    // Y expects 999 at its own address: "received 100" (X's) must not be what its intent shows.
    const transfer = 'check' in forY && forY.check.kind === 'confirmed' ? forY.check.transfer : undefined;
    if (transfer) expect(transfer.expected.to).toBe(Y);
  });
});
