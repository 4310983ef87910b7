/**
 * Hostile: a 429 storm (every answer `429` with `Retry-After: 0`) against the tracker, alone and behind the worker's
 * request budget (lib/api/budget.ts): no intent, and not the worker, is asked more than I5 allows (docs/tracking.md:
 * 60 requests in any 60 s window for the whole worker). Written by a tester who did not write the code.
 */
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '@/lib/api/budget';
import { SvcServiceError } from '@/lib/api/errors';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import type { ReceiptTransport } from '@/lib/tracker/types';
import { EventClock, RecordingNotifier } from './fakes';

const ids = Array.from({ length: 6 }, (_, i) => `0x${String(i + 1).repeat(64)}`);
const rateLimited = () =>
  new SvcServiceError('WaitIntentReceipt', {
    errorName: 'RateLimited',
    code: 1007,
    msg: 'slow down',
    httpStatus: 429,
    retryAfterSeconds: 0,
  });

/** Most entries of `times` (ms, sorted) inside any window of `ms`. */
function mostInWindow(times: number[], ms: number): number {
  let most = 0;
  let from = 0;
  for (let i = 0; i < times.length; i++) {
    while ((times[i] as number) - (times[from] as number) >= ms) from++;
    most = Math.max(most, i - from + 1);
  }
  return most;
}

function storm(withBudget: boolean) {
  const clock = new EventClock();
  const budget = withBudget ? new RequestBudget({ clock }) : undefined;
  const sent: Array<{ id: string; at: number }> = [];
  const answer = async (id: string, signal?: AbortSignal) => {
    const send = async () => {
      sent.push({ id, at: clock.monotonic() });
      throw rateLimited();
    };
    return budget ? budget.run('tracker', send, signal ? { signal } : {}) : send();
  };
  const transport: ReceiptTransport = {
    waitIntentReceipt: (req, o) => answer(req.intentId, o?.signal),
    getIntentReceipt: (req, o) => answer(req.intentId, o?.signal),
  };
  const tracker = new Tracker({
    store: new MemoryStore(),
    stateStore: new MemoryStateStore(),
    clock,
    notifier: new RecordingNotifier(),
    transport: async () => transport,
    random: () => 0.5,
  });
  return { clock, sent, tracker };
}

describe('a 429 storm with Retry-After 0', () => {
  it.each([
    ['the tracker alone', false],
    ['behind the request budget', true],
  ])('%s: no intent asked more than 60 times in any 60 s, nor the worker', async (_name, withBudget) => {
    const s = storm(withBudget);
    for (const id of ids) await s.tracker.track(id);
    await s.clock.advance(5 * 60_000);
    const all = s.sent.map((x) => x.at);
    const perIntent = ids.map((id) =>
      mostInWindow(
        s.sent.filter((x) => x.id === id).map((x) => x.at),
        60_000,
      ),
    );
    // Measured on 47ea5cc: 185 requests in 5 min, at most 40 in any 60 s, the busiest intent 19.
    expect(mostInWindow(all, 60_000)).toBeLessThanOrEqual(60);
    for (const n of perIntent) expect(n).toBeLessThanOrEqual(60);
    s.tracker.stop();
  });
});

describe('an abort while the long-poll waits in the budget', () => {
  it('a removal while its request waits out a hold: never sent, and its place in line is given up at once', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock });
    const sent: string[] = [];
    const hang = (id: string, signal?: AbortSignal) =>
      budget.run(
        'tracker',
        () => {
          sent.push(id);
          return new Promise<never>(() => {});
        },
        signal ? { signal } : {},
      );
    const transport: ReceiptTransport = {
      waitIntentReceipt: (req, o) => hang(req.intentId, o?.signal),
      getIntentReceipt: (req, o) => hang(req.intentId, o?.signal),
    };
    budget.holdOff(30_000);
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => transport,
    });
    await tracker.track(ids[0] as string);
    await clock.advance(5_000);
    expect(budget.waiting).toBe(1);
    await tracker.remove(ids[0] as string);
    await clock.advance(0);
    expect(budget.waiting).toBe(0);
    await clock.advance(60_000);
    expect(sent).toEqual([]);
    tracker.stop();
  });
});
