/**
 * Hostile: a destination leg final in this worker life, then the service's receipt names another amount for the same
 * transaction (lib/chain/verifier.ts keeps a settled leg's verdict; lib/worker/chain-kept.ts compares a kept leg with
 * the amount the receipt expects now). Written by a tester who did not write the code.
 */
import { describe, expect, it } from 'vitest';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { RpcBudget } from '@/lib/chain/budget';
import type { ChainReader } from '@/lib/chain/rpc';
import { TRANSFER_TOPIC } from '@/lib/chain/transfer';
import { LegVerifier } from '@/lib/chain/verifier';
import type { LegObservation } from '@/lib/chain/verify';
import { realTimers } from '@/lib/platform';
import { verdictOf } from '@/lib/worker/chain-stores';
import { createChainVerification } from '@/lib/worker/chain-verify';

const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const DEST_HASH = `0x${'d'.repeat(64)}`;
const BLOCK = `0x${'1a'.repeat(32)}`;
const pad = (a: string) => `0x${'0'.repeat(24)}${a.slice(2)}`;

const receipt = (tokenAmount: string) =>
  IntentReceipt.parse({
    intentId: '0xintent',
    status: 'SUCCEEDED',
    destinationTransaction: { chainId: 8453, txnHash: DEST_HASH, status: 'SUCCEEDED', tokenAmount },
    summary: { destinationToAddress: TO, destinationTokenAddress: TOKEN, destinationTokenMetadata: { symbol: 'USDC', decimals: 6 } },
  });
/** The chain: 249.1 USDC reached TO in block 100, `head` the chain's head. */
const received = (head: bigint): LegObservation => ({
  receipt: {
    status: 'success',
    blockNumber: 100n,
    blockHash: BLOCK,
    to: TOKEN,
    logs: [{ address: TOKEN, topics: [TRANSFER_TOPIC, pad(TOKEN), pad(TO)], data: `0x${249_100_000n.toString(16).padStart(64, '0')}` }],
  },
  head,
  canonicalBlockHash: BLOCK,
});

function setup() {
  let now = 0;
  const answers = [received(200n), received(201n), received(202n)];
  const reader: ChainReader = { observe: async () => answers.shift() ?? Promise.reject(new Error('no more answers')) };
  const setting = (id: number) => (id === 8453 ? { rpcUrl: 'https://rpc.example.org', finalityDepth: 10 } : undefined);
  const verifier = () =>
    new LegVerifier({
      timers: realTimers,
      fetch: () => Promise.reject(new Error('scripted')),
      monotonic: () => now,
      setting,
      budget: new RpcBudget({ monotonic: () => now, burst: 100 }),
      reader: () => reader,
    });
  const notified: string[] = [];
  const told = new Set<string>();
  const service = (v = verifier()) =>
    createChainVerification({
      verifier: v,
      setting,
      told: { has: async (k) => told.has(k), add: async (k) => void told.add(k) },
      notify: async (_id, d) => void notified.push(d.kind),
    });
  return { service, notified, later: (ms = 60_000) => (now += ms) };
}

describe('a destination final, then the receipt names 300 USDC for the same transaction (249.1 arrived)', () => {
  it('in a new worker life (from the stored verdict): not verified, the transfer is less than the receipt says', async () => {
    const s = setup();
    const first = await s.service().verifyReceipt(receipt('249100000'));
    expect(first.verified).toBe(true);
    s.later();
    const next = await s.service().verifyReceipt(receipt('300000000'), { known: verdictOf(first) });
    expect(next.verified).toBe(false);
    expect(next.legs[0]?.check).toMatchObject({ transfer: { kind: 'less' } });
  });

  // Defect (kept as it.fails): within one worker life the verifier returns a settled leg's verdict as it was
  // (LegVerifier.verify: `memo.last` when settled), its transfer compared with the amount the receipt expected then;
  // a receipt that now names another amount for the same transaction is still "verified on-chain" until the worker
  // restarts (when chain-kept.ts compares the kept amount with the receipt's, as the test above shows). The user sees
  // "verified" beside a claim the chain contradicts, and no disagreement is told.
  it('in the same worker life: not verified either, and the disagreement is told', async () => {
    const s = setup();
    const service = s.service();
    const first = await service.verifyReceipt(receipt('249100000'));
    expect(first.verified).toBe(true);
    s.later();
    const next = await service.verifyReceipt(receipt('300000000'));
    expect(next.verified).toBe(false);
    expect(next.legs[0]?.check).toMatchObject({ transfer: { kind: 'less' } });
    // Told once, through the one telling path; a later check tells it no more.
    expect(s.notified).toEqual(['amount-differs']);
    s.later();
    expect((await service.verifyReceipt(receipt('300000000'))).verified).toBe(false);
    expect(s.notified).toEqual(['amount-differs']);
  });
});
