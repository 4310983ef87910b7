/**
 * Answers the service can send (issue 27, symptoms 8, 9 and 14): a stale status behind the one believed, a status
 * cycling through more states than the flapping memory holds, an absurd start time. Each test failed on the engine
 * before the fix it names.
 */
import { describe, expect, it } from 'vitest';
import type { ReceiptTransport } from '@/lib/tracker/types';
import { engineHarness, PENDING, sid } from './engine-harness';

const DONE = ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'];
const MIN = 60_000;

/** The fake service's transport with the answers to one intent's `n`-th request (any op, 0-based) rewritten. */
function rewriting(
  inner: ReceiptTransport,
  rewrite: (n: number, status: string) => string | undefined,
): ReceiptTransport & { count: number } {
  const t = {
    count: 0,
    waitIntentReceipt: async (...args: Parameters<ReceiptTransport['waitIntentReceipt']>) => {
      const res = await inner.waitIntentReceipt(...args);
      const status = rewrite(t.count++, res.intentReceipt.status);
      return status ? { ...res, intentReceipt: { ...res.intentReceipt, status } } : res;
    },
    getIntentReceipt: async (...args: Parameters<ReceiptTransport['getIntentReceipt']>) => {
      const res = await inner.getIntentReceipt(...args);
      const status = rewrite(t.count++, res.intentReceipt.status);
      return status ? { ...res, intentReceipt: { ...res.intentReceipt, status } } : res;
    },
  };
  return t;
}

describe('a status never moves backwards in what the tracker believes (symptom 8)', () => {
  it('one stale COMMITTED answer for an EXECUTING intent past the commit window does not expire it; its SUCCEEDED is notified', async () => {
    let stale: { from: number } | undefined;
    let transport: (ReceiptTransport & { count: number }) | undefined;
    const h = engineHarness(20_000, null, {
      transport: async () => {
        transport ??= rewriting(h.service.transport(), (n) => (stale && n === stale.from ? 'COMMITTED' : undefined));
        return transport;
      },
    });
    h.add(1, [
      [1_000, 'EXECUTING', PENDING],
      [20 * MIN, 'SUCCEEDED', DONE],
    ]);
    await h.tracker.track(sid(1));
    await h.clock.advance(12 * MIN);
    expect((await h.store.get(sid(1)))?.status).toBe('EXECUTING');
    // The next answer, whatever it is, says COMMITTED (a stale replica): 12 min after the commit, past its window.
    stale = { from: transport!.count };
    await h.clock.advance(MIN);
    expect(transport!.count).toBeGreaterThan(stale.from);
    const record = await h.store.get(sid(1));
    expect(record?.phase).toBe('tracking');
    expect(record?.status).toBe('EXECUTING');
    await h.clock.advance(10 * MIN);
    expect(h.notifier.shown.map((t) => t.status)).toEqual(['SUCCEEDED']);
    h.tracker.stop();
  });
});
