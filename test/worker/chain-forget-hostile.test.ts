/**
 * Hostile tests of the fix "a check under way when its intent is forgotten tells nothing" (lib/worker/chain-verify.ts
 * `forgotten`, lib/worker/chain-wiring.ts `forget`): re-tracking while an old check still reads, a refused telling
 * across a forget, a forget inside the telling turn, two legs, another intent, and the wiring's own awaits before
 * the service's check begins.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { LegObservation } from '@/lib/chain/verify';
import { CHAIN_PREFERENCES_KEY, createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { rpcFetch, SimChain } from '../world/chain-sim';
import {
  type Answer,
  chainVerification,
  DEST_HASH,
  deferred,
  ORIGIN,
  observations,
  quietPlatform,
  receipt,
  scriptedReader,
  TO,
  TOKEN,
} from './chain-fixtures';

/** Every answer names the chain it came from (Base). */
const { received, inBlock, gone } = observations(8453);

/** Lets every pending promise chain run (a real macrotask). */
const settle = () => new Promise((r) => setTimeout(r, 5));

/**
 * A service over a scripted chain (`answers` per transaction hash, in turn), a told-set whose `has` may be held
 * (`holdHas`), and a pipeline (`notified`) whose next tellings may be scripted (`pipeline`: each step runs before the
 * telling is recorded; a step that rejects refuses it).
 */
function world(answers: Record<string, Answer[]>) {
  const reader = scriptedReader(answers);
  const told = new Set<string>();
  const held: Array<Promise<void>> = [];
  const pipeline: Array<() => Promise<void>> = [];
  const notified: string[] = [];
  const { newService, later } = chainVerification({
    reader,
    told: {
      has: async (k) => {
        await held.shift();
        return told.has(k);
      },
      add: async (k) => void told.add(k),
    },
    notify: async (id, d) => {
      await pipeline.shift()?.();
      notified.push(`${id} ${d.kind} ${d.leg}`);
    },
  });
  return {
    service: newService(),
    notified,
    asked: reader.asked,
    pipeline,
    /** Holds the next `told.has` until the returned release is called. */
    holdHas: () => {
      const d = deferred<void>();
      held.push(d.promise);
      return () => d.resolve();
    },
    later,
  };
}

/** A read the test answers when it likes. */
function hangingRead() {
  const d = deferred<LegObservation>();
  return { answer: () => d.promise, release: d.resolve };
}

describe('a forgotten intent tracked again while its old check still reads', () => {
  it('the old check tells nothing, the new one tells once', async () => {
    const a = hangingRead();
    const b = hangingRead();
    const { service, notified, asked } = world({ [DEST_HASH]: [a.answer, b.answer] });
    const old = service.verifyReceipt(receipt('EXECUTING'));
    await settle();
    service.forget('0xintent');
    const fresh = service.verifyReceipt(receipt('EXECUTING'));
    await settle();
    // The new check reads on its own (the verifier's memory of the leg was dropped), not through the old read.
    expect(asked).toEqual([DEST_HASH, DEST_HASH]);
    a.release(received(101n));
    await old;
    expect(notified).toEqual([]);
    b.release(received(101n));
    await fresh;
    expect(notified).toEqual(['0xintent arrived-early destination']);
  });

  // Control for the next test: the same re-org, refused once and told at the check after, without a stale check.
  it('(control) a re-org refused once is told at the next check', async () => {
    const { service, notified, pipeline, later } = world({ [DEST_HASH]: [received(102n), gone(103n)] });
    pipeline.push(() => Promise.reject(new DOMException('quota', 'QuotaExceededError')));
    await service.verifyReceipt(receipt('SUCCEEDED'));
    later(30_000);
    const refused = await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(refused.nextCheckMs).toBeLessThanOrEqual(4_000);
    later(4_000);
    await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(notified).toEqual(['0xintent reorged destination']);
  });

  it('a stale check ending after the re-track does not drop the new check’s refused re-org', async () => {
    const stale = hangingRead();
    const { service, notified, pipeline, later } = world({ [DEST_HASH]: [stale.answer, received(102n), gone(103n)] });
    pipeline.push(() => Promise.reject(new DOMException('quota', 'QuotaExceededError')));
    const old = service.verifyReceipt(receipt('SUCCEEDED'));
    await settle();
    service.forget('0xintent');
    // Tracked again: confirmed, then re-orged out — a telling the pipeline refuses (kept to be told at a check soon).
    await service.verifyReceipt(receipt('SUCCEEDED'));
    later(30_000);
    const refused = await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(refused.nextCheckMs).toBeLessThanOrEqual(4_000);
    expect(notified).toEqual([]);
    // The old life's read ends now (the chain does not know the transaction yet).
    stale.release(gone(103n));
    await old;
    expect(notified).toEqual([]);
    later(4_000);
    await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(notified).toEqual(['0xintent reorged destination']);
  });
});

describe('a telling under way when its intent is forgotten', () => {
  it('tells nothing when the intent is forgotten while the told-set is read inside the telling turn', async () => {
    const { service, notified, holdHas } = world({ [DEST_HASH]: [received(101n)] });
    const release = holdHas();
    const check = service.verifyReceipt(receipt('EXECUTING'));
    await settle();
    service.forget('0xintent');
    release();
    await check;
    expect(notified).toEqual([]);
  });

  it('a telling refused after the intent was forgotten is not kept for the intent tracked again', async () => {
    const { service, notified, pipeline, later } = world({ [DEST_HASH]: [received(102n), gone(103n), received(104n)] });
    const refusal = deferred<void>();
    pipeline.push(() => refusal.promise);
    await service.verifyReceipt(receipt('SUCCEEDED'));
    later(30_000);
    // The re-org's telling is in the pipeline when the user removes the intent; the pipeline then refuses it.
    const check = service.verifyReceipt(receipt('SUCCEEDED'));
    await settle();
    service.forget('0xintent');
    refusal.reject(new DOMException('quota', 'QuotaExceededError'));
    await check;
    expect(notified).toEqual([]);
    // Tracked again: its destination is in a block; nothing of the removed life is told.
    later(60_000);
    await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(notified).toEqual([]);
  });
});

describe('two legs of one intent, forgotten between their verdicts', () => {
  it('the leg told before the removal is told once; the leg still reading tells nothing', async () => {
    const origin = hangingRead();
    const { service, notified, later } = world({
      [DEST_HASH]: [received(102n), gone(103n)],
      [ORIGIN]: [inBlock(102n), origin.answer],
    });
    await service.verifyReceipt(receipt('SUCCEEDED', { withOrigin: true }));
    later(30_000);
    const check = service.verifyReceipt(receipt('SUCCEEDED', { withOrigin: true }));
    await settle();
    expect(notified).toEqual(['0xintent reorged destination']);
    service.forget('0xintent');
    origin.release(gone(103n));
    const result = await check;
    expect(notified).toEqual(['0xintent reorged destination']);
    expect(result.legs.map((l) => `${l.leg} ${l.check.kind}`)).toEqual(['origin reorged', 'destination reorged']);
  });
});

describe('forgetting another intent', () => {
  it.each(['0xother', '0xinten'])('forgetting %s does not silence a check of 0xintent under way', async (other) => {
    const a = hangingRead();
    const { service, notified } = world({ [DEST_HASH]: [a.answer] });
    const check = service.verifyReceipt(receipt('EXECUTING'));
    await settle();
    service.forget(other);
    a.release(received(101n));
    await check;
    expect(notified).toEqual(['0xintent arrived-early destination']);
  });
});

describe('the wiring: an intent removed before the service’s check begins', () => {
  beforeEach(() => fakeBrowser.reset());
  const RPC = 'https://rpc.example';

  /**
   * The worker's verifier on a simulated Base holding the destination (the exact transfer, two blocks deep), the
   * permission look-up held until `grant()`, and the tracked intents in `tracked`.
   */
  async function wired() {
    const chain = new SimChain(8453);
    chain.include({ hash: DEST_HASH, status: 'success', token: TOKEN, to: TO, amount: 249_100_000n });
    chain.mine(2);
    await fakeBrowser.storage.local.set({ [CHAIN_PREFERENCES_KEY]: { 8453: { enabled: true, rpcUrl: RPC, finalityDepth: 10 } } });
    const permission = deferred<boolean>();
    const tracked = new Map<string, { intentId: string; receipt: IntentReceipt }>();
    const told: string[] = [];
    const p = quietPlatform(rpcFetch(new Map([[RPC, chain]]), () => undefined));
    const verifier = createChainVerifierOnPlatform(p, {
      notify: async (id, d) => void told.push(`${id} ${d.kind}`),
      intent: async (id) => tracked.get(id),
      hasPermission: () => permission.promise,
    });
    return { verifier, tracked, told, grant: () => permission.resolve(true) };
  }

  it('(control) a tracked intent’s check tells the transfer that arrived ahead of the service', async () => {
    const { verifier, tracked, told, grant } = await wired();
    tracked.set('0xintent', { intentId: '0xintent', receipt: receipt('EXECUTING') });
    const check = verifier.changed('0xintent');
    grant();
    await check;
    expect(told).toEqual(['0xintent arrived-early']);
  });

  it('tells nothing when the intent is removed while its check reads the chain preferences', async () => {
    const { verifier, tracked, told, grant } = await wired();
    tracked.set('0xintent', { intentId: '0xintent', receipt: receipt('EXECUTING') });
    const check = verifier.changed('0xintent');
    await settle();
    // The user removes the intent: the tracker reports the change, the verifier forgets it.
    tracked.delete('0xintent');
    await verifier.changed('0xintent');
    grant();
    await check;
    expect(told).toEqual([]);
    expect(verifier.last('0xintent')).toBeUndefined();
  });
});
