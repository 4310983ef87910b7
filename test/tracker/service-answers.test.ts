/**
 * Answers the service can send (issue 27, symptoms 8, 9 and 14): a stale status behind the one believed, a status
 * cycling through more states than the flapping memory holds, an absurd start time. Each test failed on the engine
 * before the fix it names.
 */
import { describe, expect, it } from 'vitest';
import { NewsPace } from '@/lib/tracker/news-pace';
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

describe('news is paced per intent whatever the status sequence (symptom 9)', () => {
  /** `count` distinct leg-state lists, cycled every `everyMs` for `forMs`, then SUCCEEDED. */
  function cycling(count: number, everyMs: number, forMs: number): Array<[number, string, string[]]> {
    const names = ['UNKNOWN', 'ON_HOLD', 'PENDING', 'RELAYING', 'SENT', 'MINING'];
    const states = Array.from({ length: count }, (_, i) => ['PENDING', names[i % 6]!, names[Math.floor(i / 6) % 6]!]);
    return [
      ...Array.from({ length: forMs / everyMs }, (_, i) => [everyMs, 'EXECUTING', states[i % count]!] as [number, string, string[]]),
      [1_000, 'SUCCEEDED', DONE],
    ];
  }

  for (const [count, history, intents] of [
    [17, null, 1],
    [17, undefined, 1],
    [40, undefined, 1],
    [17, undefined, 6],
    [100, null, 6],
  ] as const) {
    it(`${intents} intent(s) whose leg states cycle through ${count} states every 100 ms (history ${history === null ? 'off' : 'on'}): the worker at its idle rate once the states are known, each end notified`, async () => {
      const h = engineHarness(20_000, history);
      for (let k = 1; k <= intents; k++) h.add(k, cycling(count, 100, 10 * MIN));
      for (let k = 1; k <= intents; k++) await h.tracker.track(sid(k));
      // Every state first seen is news (as genuine progress would be): at most NEWS_PER_STATUS of them per intent.
      await h.clock.advance(4 * MIN);
      for (let minute = 0; minute < 4; minute++) {
        const from = h.clock.now();
        await h.clock.advance(MIN);
        const sent = h.service.log.filter((e) => e.start >= from);
        expect(sent.length).toBeLessThanOrEqual(60);
        expect(sent.filter((e) => e.intentId === sid(1)).length).toBeLessThanOrEqual(20);
      }
      await h.clock.advance(4 * MIN);
      expect(h.notifier.shown.map((t) => t.status)).toEqual(Array(intents).fill('SUCCEEDED'));
      h.tracker.stop();
    });
  }
});

describe('NewsPace', () => {
  it('counts news per intent and status; a status moving forward starts again, one behind or unknown does not', () => {
    const pace = new NewsPace(2);
    expect([pace.admit('a', 'EXECUTING'), pace.admit('a', 'EXECUTING'), pace.admit('a', 'EXECUTING')]).toEqual([true, true, false]);
    expect(pace.admit('b', 'EXECUTING')).toBe(true);
    expect(pace.admit('a', 'COMMITTED')).toBe(false);
    expect(pace.admit('a', 'SOMETHING_NEW')).toBe(false);
    const c = new NewsPace(1);
    expect([c.admit('c', 'QUOTED'), c.admit('c', 'QUOTED'), c.admit('c', 'COMMITTED'), c.admit('c', 'EXECUTING')]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    pace.forget('a');
    expect(pace.admit('a', 'EXECUTING')).toBe(true);
  });
});
