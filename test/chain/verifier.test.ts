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
const ref = (over: Partial<LegRef> = {}): LegRef => ({ leg: 'destination', chainId: 8453, txnHash: HASH, serviceMined: false, ...over });
const inBlock = (head: bigint): LegObservation => ({
  receipt: { status: 'success', blockNumber: 10n, blockHash: BLOCK, logs: [], to: null },
  head,
  canonicalBlockHash: BLOCK,
});

/** A verifier over a scripted chain: `answers` are returned in order (an Error is thrown), each call counted. */
function setup(answers: Array<LegObservation | Error>, options: { perMinute?: number; burst?: number; enabled?: boolean } = {}) {
  let now = 0;
  const calls: string[] = [];
  const reader: ChainReader = {
    observe: async (hash) => {
      calls.push(hash);
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers scripted');
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  const budget = new RpcBudget({ monotonic: () => now, perMinute: options.perMinute ?? 600, burst: options.burst ?? 30 });
  const verifier = new LegVerifier({
    timers: realTimers,
    fetch: () => Promise.reject(new Error('the reader is scripted')),
    monotonic: () => now,
    setting: (id) => (options.enabled === false || id !== 8453 ? undefined : { rpcUrl: 'http://127.0.0.1:8545/', finalityDepth: 5 }),
    budget,
    missingGraceMs: 30_000,
    reader: () => reader,
  });
  return { verifier, calls, budget, advance: (ms: number) => (now += ms) };
}

describe('LegVerifier', () => {
  it('stops asking the chain once a leg is final, and answers from its cache by hash', async () => {
    const { verifier, calls } = setup([inBlock(12n), inBlock(14n)]);
    expect(await verifier.verify(ref())).toMatchObject({ check: { kind: 'confirmed', confirmations: 3 } });
    expect(await verifier.verify(ref())).toMatchObject({ check: { kind: 'final', confirmations: 5 } });
    expect(await verifier.verify(ref({ txnHash: HASH.toUpperCase().replace('0X', '0x') as `0x${string}` }))).toMatchObject({
      check: { kind: 'final' },
    });
    expect(calls).toHaveLength(2);
  });
  it('judges a final leg’s transfer against the receipt’s amount now without a request, and reads it again for another recipient', async () => {
    const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
    const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
    const paid: LegObservation = {
      ...inBlock(14n),
      receipt: {
        status: 'success',
        blockNumber: 10n,
        blockHash: BLOCK,
        to: TOKEN,
        logs: [{ address: TOKEN, topics: [TRANSFER_TOPIC, `0x${'0'.repeat(64)}`, `0x${'0'.repeat(24)}${TO.slice(2)}`], data: '0x64' }],
      },
    };
    const { verifier, calls } = setup([paid, paid]);
    const transfer = { token: TOKEN, to: TO, amount: 100n };
    expect(await verifier.verify(ref({ transfer }))).toMatchObject({ check: { kind: 'final', transfer: { kind: 'received' } } });
    expect(await verifier.verify(ref({ transfer: { ...transfer, amount: 150n } }))).toMatchObject({
      check: { kind: 'final', transfer: { kind: 'less', amount: 100n } },
    });
    expect(verifier.last(ref())).toMatchObject({ check: { transfer: { kind: 'less' } } });
    expect(calls).toHaveLength(1);
    const other = `0x${'12'.repeat(20)}`;
    expect(await verifier.verify(ref({ transfer: { ...transfer, to: other } }))).toMatchObject({
      check: { kind: 'final', transfer: { kind: 'none' } },
    });
    expect(calls).toHaveLength(2);
  });
  it('tells a re-org from "not yet": a leg seen in a block and then unknown is re-orged out', async () => {
    const { verifier } = setup([inBlock(11n), { receipt: null, head: 11n }]);
    await verifier.verify(ref());
    expect(await verifier.verify(ref())).toMatchObject({ check: { kind: 'reorged', blockNumber: 10n } });
  });
  it('measures "missing" from the first time the service called the leg mined, on the monotonic clock', async () => {
    const { verifier, advance } = setup([
      { receipt: null, head: 9n },
      { receipt: null, head: 9n },
      { receipt: null, head: 9n },
    ]);
    advance(1_000_000); // time before the service says mined does not count
    expect(await verifier.verify(ref({ serviceMined: true }))).toMatchObject({ check: { kind: 'not-seen' } });
    advance(29_999);
    expect(await verifier.verify(ref({ serviceMined: true }))).toMatchObject({ check: { kind: 'not-seen' } });
    advance(1);
    expect(await verifier.verify(ref({ serviceMined: true }))).toMatchObject({ check: { kind: 'missing' } });
  });
  it('sends nothing for a chain the user has not enabled', async () => {
    const { verifier, calls } = setup([inBlock(12n)], { enabled: false });
    expect(await verifier.verify(ref())).toEqual({ skipped: 'disabled' });
    expect(calls).toHaveLength(0);
  });
  it('keeps within the origin’s budget: 4 requests per check, 9 tokens hold two checks, one more after the refill', async () => {
    const { verifier, calls, advance, budget } = setup([inBlock(11n), inBlock(11n), inBlock(12n)], { perMinute: 3, burst: 9 });
    await verifier.verify(ref());
    await verifier.verify(ref());
    expect(await verifier.verify(ref())).toMatchObject({ skipped: 'budget', last: { check: { kind: 'confirmed' } } });
    expect(calls).toHaveLength(2);
    advance(20_000); // 1 token back: 2 in all, not enough; the other two come 40 s later
    expect(await verifier.verify(ref())).toMatchObject({ skipped: 'budget', retryMs: 40_000 });
    advance(40_000); // 4 tokens
    expect(await verifier.verify(ref())).toMatchObject({ check: { confirmations: 3 } });
    expect(budget.sent.get('http://127.0.0.1:8545')).toBe(12);
  });
  it('an endpoint answering for another chain changes no verdict: neither "re-orged" nor "missing"', async () => {
    const { verifier, advance } = setup([
      { ...inBlock(11n), chainId: 8453 },
      { receipt: null, head: 500n, chainId: 1 },
      { receipt: null, head: 500n, chainId: 1 },
    ]);
    expect(await verifier.verify(ref({ serviceMined: true }))).toMatchObject({ check: { kind: 'confirmed' } });
    advance(60_000);
    expect(await verifier.verify(ref({ serviceMined: true }))).toMatchObject({ skipped: 'error', last: { check: { kind: 'confirmed' } } });
    const fresh = ref({ serviceMined: true, txnHash: `0x${'cd'.repeat(32)}` });
    await verifier.verify(fresh);
    expect(verifier.last(fresh)).toBeUndefined();
  });
  it('an RPC failure keeps the last verdict and never throws', async () => {
    const { verifier } = setup([inBlock(11n), new Error('ECONNRESET')]);
    await verifier.verify(ref());
    expect(await verifier.verify(ref())).toMatchObject({
      skipped: 'error',
      retryMs: 12_000,
      last: { check: { kind: 'confirmed', confirmations: 2 } },
    });
  });
});
