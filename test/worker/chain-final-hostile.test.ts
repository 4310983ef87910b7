/**
 * Hostile: a destination leg final in this worker life, then the service's receipt names another amount for the same
 * transaction (lib/chain/verifier.ts keeps a settled leg's verdict; lib/worker/chain-kept.ts compares a kept leg with
 * the amount the receipt expects now). Written by a tester who did not write the code.
 */
import { describe, expect, it } from 'vitest';
import { verdictOf } from '@/lib/worker/chain-stores';
import { chainVerification, observations, receipt, scriptedReader, toldSet } from './chain-fixtures';

/** The service's SUCCEEDED receipt naming `tokenAmount` (raw units) for the destination. */
const claiming = (tokenAmount: string) => receipt('SUCCEEDED', { tokenAmount });
/** The chain: 249.1 USDC reached TO in block 100, `head` the chain's head. */
const { received } = observations();

function setup() {
  const notified: string[] = [];
  const { newService, later } = chainVerification({
    reader: scriptedReader([received(200n), received(201n), received(202n)]),
    told: toldSet(),
    notify: async (_id, d) => void notified.push(d.kind),
  });
  return { service: newService, notified, later };
}

describe('a destination final, then the receipt names 300 USDC for the same transaction (249.1 arrived)', () => {
  it('in a new worker life (from the stored verdict): not verified, the transfer is less than the receipt says', async () => {
    const s = setup();
    const first = await s.service().verifyReceipt(claiming('249100000'));
    expect(first.verified).toBe(true);
    s.later();
    const next = await s.service().verifyReceipt(claiming('300000000'), { known: verdictOf(first) });
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
    const first = await service.verifyReceipt(claiming('249100000'));
    expect(first.verified).toBe(true);
    s.later();
    const next = await service.verifyReceipt(claiming('300000000'));
    expect(next.verified).toBe(false);
    expect(next.legs[0]?.check).toMatchObject({ transfer: { kind: 'less' } });
    // Told once, through the one telling path; a later check tells it no more.
    expect(s.notified).toEqual(['amount-differs']);
    s.later();
    expect((await service.verifyReceipt(claiming('300000000'))).verified).toBe(false);
    expect(s.notified).toEqual(['amount-differs']);
  });
});
