/**
 * Issue 27, symptom 25: ETA baseline look-ups repeated about 7.5 times a minute, idle, for routes where none was
 * found: every change of a record (each answer) tried its intent again. A quote without an estimate is not read
 * again, a route without a median is not read again for 30 minutes, an intent not tried again for 10 minutes.
 */
import { describe, expect, it } from 'vitest';
import { createBaselineFinder, RETRY_AFTER_MISS_MS, ROUTE_MISS_MS } from '@/lib/worker/eta-baseline';
import { EventClock } from '../tracker/fakes';
import { etaClient, memoryTracker } from './helpers';

const MIN = 60_000;

describe('ETA baselines for a route without a median', () => {
  it('ten idle intents whose records change every 10 s: each quote read once, the route once per 30 minutes', async () => {
    const clock = new EventClock();
    const { tracker } = memoryTracker();
    const { client, asked } = etaClient((intentId) => ({
      intent: { intentId, originChainId: 42161, destinationChainId: 8453, quote: {} },
    }));
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => clock.monotonic() });
    const ids = Array.from({ length: 10 }, (_, i) => `0x${String(i + 1).padStart(64, '0')}`);
    for (const id of ids) await tracker.track(id);
    // Each answer of the tracker changes the record, and the worker asks for the baseline again (lib/background.ts).
    for (let t = 0; t < 20 * MIN; t += 10_000) {
      for (const id of ids) await find(id);
      await clock.advance(10_000);
    }
    expect(asked.filter((a) => a === 'GetIntent')).toHaveLength(10);
    expect(asked.filter((a) => a === 'GetIntentHistory')).toHaveLength(1);
    expect(ROUTE_MISS_MS).toBeGreaterThan(20 * MIN);
    expect(RETRY_AFTER_MISS_MS).toBeLessThanOrEqual(ROUTE_MISS_MS);
  });
});
