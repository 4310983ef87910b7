import { describe, expect, it } from 'vitest';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { ChainReader } from '@/lib/chain/rpc';
import type { LegObservation } from '@/lib/chain/verify';
import { type Answer, chainVerification, DEST_HASH, ORIGIN, observations, receipt, scriptedReader, toldSet } from './chain-fixtures';

const { received, inBlock } = observations();

/** `answers`: the chain's answers in turn, each an observation or a function answering one when it likes. */
function setup(answers: Answer[], refuse = 0) {
  const notified: Array<{ kind: string; text: string }> = [];
  const { newService, later } = chainVerification({
    reader: scriptedReader(answers),
    told: toldSet(),
    notify: async (_id, d, text) => {
      // The pipeline refuses the first `refuse` tellings (the outbox's write refused: quota, a failing disk).
      if (refuse-- > 0) throw new DOMException('quota', 'QuotaExceededError');
      notified.push({ kind: d.kind, text });
    },
  });
  // Each leg is asked again only when due: a minute later it is, whatever its cadence.
  return { service: newService(), notified, later };
}

describe('the worker’s chain verification', () => {
  it('tells "arrived" once while the service says EXECUTING, then "verified on-chain" once final, and stops checking', async () => {
    const { service, notified, later } = setup([received(100n), received(101n), received(109n)]);
    const first = await service.verifyReceipt(receipt('EXECUTING'));
    expect(first.legs).toEqual([
      expect.objectContaining({
        leg: 'destination',
        text: 'Confirmed on Base · block 100 · 1 confirmation',
        transfer: 'Received 249.10 USDC at 0x7099…79c8',
      }),
    ]);
    expect(first.verified).toBe(false);
    expect(first.nextCheckMs).toBeGreaterThan(0);
    later();
    await service.verifyReceipt(receipt('EXECUTING'));
    expect(notified).toEqual([{ kind: 'arrived-early', text: 'Arrived on Base — the service has not caught up yet' }]);
    later();
    const last = await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(last).toMatchObject({ verified: true, legs: [{ text: 'Final on Base · block 100 · 10 confirmations' }] });
    expect(last.nextCheckMs).toBeUndefined();
    expect(notified).toHaveLength(1);
  });
  it('tells a re-org of a destination confirmed earlier', async () => {
    const { service, notified, later } = setup([received(102n), { receipt: null, head: 103n }]);
    await service.verifyReceipt(receipt('SUCCEEDED'));
    later();
    await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(notified.map((n) => n.kind)).toEqual(['reorged']);
  });
});

describe('a disagreement the pipeline refused to queue', () => {
  it('keeps the leg’s verdict and is told at a check soon after (the receipt is not settled meanwhile)', async () => {
    const { service, notified } = setup([received(120n), received(121n)], 1);
    const first = await service.verifyReceipt(receipt('EXECUTING'));
    expect(first.legs.map((l) => l.text)).toEqual(['Final on Base · block 100 · 21 confirmations']);
    expect(first.settled).toBe(false);
    expect(first.nextCheckMs).toBeGreaterThan(0);
    expect(notified).toEqual([]);
    const second = await service.verifyReceipt(receipt('EXECUTING'));
    expect(notified.map((n) => n.kind)).toEqual(['arrived-early']);
    expect(second.nextCheckMs).toBeUndefined();
  });
  it('tells a re-org whose first telling was refused', async () => {
    const { service, notified, later } = setup([received(102n), { receipt: null, head: 103n }, { receipt: null, head: 104n }], 1);
    await service.verifyReceipt(receipt('SUCCEEDED'));
    // 3 of 10 confirmations at Base's 2 s: due again when the 7 missing (and half a block) should be there, 15 s.
    later(15_000);
    const refused = await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(refused.nextCheckMs).toBe(4_000);
    // Told at that check, from the re-org's verdict (not due again for 30 s), not from a new answer.
    later(4_000);
    await service.verifyReceipt(receipt('SUCCEEDED'));
    expect(notified.map((n) => n.kind)).toEqual(['reorged']);
  });
});

describe('a leg skipped before its first verdict', () => {
  const DEPOSIT = `0x${'a'.repeat(64)}`;
  const three = IntentReceipt.parse({
    ...receipt('SUCCEEDED'),
    depositTransaction: { chainId: 42161, txnHash: DEPOSIT, status: 'SUCCEEDED' },
    originTransaction: { chainId: 42161, txnHash: ORIGIN, status: 'SUCCEEDED' },
  });
  /** Arbitrum One holds one check's requests (4) and refills 30 a minute; Base is ample; every leg final at once. */
  function threeLegs(failOrigin = false) {
    const asked: string[] = [];
    const final = (hash: string): LegObservation => (hash === DEST_HASH ? received(200n) : inBlock(200n));
    const reader: ChainReader = {
      observe: async (hash) => {
        asked.push(hash);
        if (failOrigin && hash === ORIGIN && asked.filter((h) => h === ORIGIN).length === 1) throw new Error('ECONNRESET');
        return final(hash);
      },
    };
    const setting = (id: number) =>
      id === 42161
        ? { rpcUrl: 'http://127.0.0.1:8545', finalityDepth: 3 }
        : id === 8453
          ? { rpcUrl: 'http://127.0.0.1:8546', finalityDepth: 3 }
          : undefined;
    const { newService, later } = chainVerification({ reader, setting, budget: { burst: failOrigin ? 8 : 4, perMinute: 30 } });
    return { service: newService(), asked, advance: later };
  }

  it('is checked again once the budget allows, though the receipt’s other legs are settled', async () => {
    const { service, asked, advance } = threeLegs();
    const first = await service.verifyReceipt(three);
    // The deposit took Arbitrum One's 4 requests: the origin leg was not asked, the destination (Base) is final.
    expect(asked).toEqual([DEPOSIT, DEST_HASH]);
    expect(first.legs.map((l) => `${l.leg} ${l.check.kind}`)).toEqual(['deposit final', 'destination final']);
    expect(first.settled).toBe(false);
    // 4 requests at 30 a minute: 8 s.
    expect(first.nextCheckMs).toBe(8_000);
    advance(first.nextCheckMs!);
    const second = await service.verifyReceipt(three);
    expect(asked).toEqual([DEPOSIT, DEST_HASH, ORIGIN]);
    expect(second.legs.map((l) => `${l.leg} ${l.check.kind}`)).toEqual(['deposit final', 'origin final', 'destination final']);
    expect(second).toMatchObject({ settled: true, verified: true });
    expect(second.nextCheckMs).toBeUndefined();
  });

  it('is checked again after an RPC failure, though the receipt’s other legs are settled', async () => {
    const { service, asked, advance } = threeLegs(true);
    const first = await service.verifyReceipt(three);
    expect(asked).toEqual([DEPOSIT, ORIGIN, DEST_HASH]);
    expect(first.legs.map((l) => l.leg)).toEqual(['deposit', 'destination']);
    expect(first.nextCheckMs).toBe(12_000);
    advance(12_000);
    expect(await service.verifyReceipt(three)).toMatchObject({
      settled: true,
      legs: [{ leg: 'deposit' }, { leg: 'origin' }, { leg: 'destination' }],
    });
  });
});

describe('a leg whose transaction the service names anew', () => {
  const OTHER_HASH = `0x${'e'.repeat(64)}`;
  const naming = (hash: string) =>
    IntentReceipt.parse({
      ...receipt('SUCCEEDED'),
      destinationTransaction: { ...receipt('SUCCEEDED').destinationTransaction, txnHash: hash },
    });

  it('compares each transaction with its own previous verdict: a re-org of the first is told after the service named another', async () => {
    // Per transaction, what its chain answers at each read.
    const answers: Record<string, LegObservation[]> = {
      [DEST_HASH]: [received(102n), { receipt: null, head: 104n }],
      [OTHER_HASH]: [{ receipt: null, head: 103n }],
    };
    const told: string[] = [];
    const { newService, later } = chainVerification({
      reader: scriptedReader(answers),
      notify: async (_id, d) => void told.push(`${d.kind} ${d.leg}`),
    });
    const service = newService();
    // The destination in a block; then the service names another transaction (not seen yet); then the first again,
    // which its chain no longer has: a transaction confirmed earlier, re-orged out.
    expect((await service.verifyReceipt(naming(DEST_HASH))).legs.map((l) => l.check.kind)).toEqual(['confirmed']);
    later();
    expect((await service.verifyReceipt(naming(OTHER_HASH))).legs.map((l) => l.check.kind)).toEqual(['not-seen']);
    later();
    expect((await service.verifyReceipt(naming(DEST_HASH))).legs.map((l) => l.check.kind)).toEqual(['reorged']);
    expect(told).toEqual(['reorged destination']);
  });
});

describe('an intent forgotten while its check reads the chain', () => {
  // Seed 20261227 runs 2531, 3031, 3032 of the world: the user removed an intent while a read of its destination
  // waited on an RPC origin that never answered (up to the 10 s time-out); the read then found the transaction
  // missing, and the check told "Base does not know the transaction" again — after the removal had dropped the told
  // keys, a second notification of a removed intent.
  function hanging(forgetMidway: boolean) {
    let release: (o: LegObservation) => void = () => {};
    const { service, notified, later } = setup([
      { receipt: null, head: 100n, chainId: 8453 },
      () => new Promise<LegObservation>((resolve) => (release = resolve)),
    ]);
    return {
      notified,
      async run() {
        await service.verifyReceipt(receipt('SUCCEEDED'));
        later(61_000); // past the 60 s the chain may take to know a transaction the service calls mined
        const checking = service.verifyReceipt(receipt('SUCCEEDED'));
        await new Promise((r) => setTimeout(r, 10));
        if (forgetMidway) service.forget('0xintent');
        release({ receipt: null, head: 105n, chainId: 8453 });
        return checking;
      },
    };
  }

  it('tells the disagreement the read finds while the intent is still tracked', async () => {
    const { notified, run } = hanging(false);
    await run();
    expect(notified.map((n) => n.kind)).toEqual(['destination-missing']);
  });

  it('tells nothing when the intent was forgotten during the read', async () => {
    const { notified, run } = hanging(true);
    await run();
    expect(notified).toEqual([]);
  });
});
