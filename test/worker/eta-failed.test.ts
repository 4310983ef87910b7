/**
 * A quote that could not be read (GetIntent answered about another intent, or failed) is read again within a minute,
 * not after the 10 minutes a look-up that found nothing waits. The world campaign (seed 20261130, run 664, every
 * family) found an estimate of 20 minutes read while IndexedDB refused its write, lost with the worker that read it;
 * the next workers' reads met answers about another intent and each waited 10 minutes, and the stuck warning came at
 * the 15-minute floor (903 s), before twice the estimate (40 minutes).
 */
import { describe, expect, it } from 'vitest';
import { baselineOf, stuckLimitMs } from '@/lib/eta';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import { createBaselineFinder } from '@/lib/worker/eta-baseline';
import { EventClock } from '../tracker/fakes';
import { etaClient, memoryTracker } from './helpers';

const ID = `0x${'3'.padStart(64, '0')}`;
const OTHER = `0x${'e'.repeat(64)}`;
const MIN = 60_000;

/** A tracker whose records change every 10 s (each answer of the tracker does): the finder is asked on each change. */
async function changesFor(ms: number, clock: EventClock, find: (id: string) => Promise<void>) {
  for (let t = 0; t < ms; t += 10_000) {
    await find(ID);
    await clock.advance(10_000);
  }
}

describe('an ETA look-up whose GetIntent failed', () => {
  it('reads the quote again within a minute when the answer was about another intent (route known, no median)', async () => {
    const clock = new EventClock();
    const store = new MemoryStore();
    // Tracked and answered EXECUTING: the receipt names the chain pair, so a failed GetIntent falls back to the
    // route's history (no median here).
    await store.put({
      intentId: ID,
      addedAt: Date.UTC(2027, 0, 15),
      phase: 'tracking',
      status: 'EXECUTING',
      source: 'user',
      notification: 'none',
      receipt: { intentId: ID, status: 'EXECUTING', originChainId: 42161, destinationChainId: 8453 },
    } as TrackedIntent);
    const { tracker } = memoryTracker(undefined, store);
    let foreign = 2;
    const { client, asked } = etaClient(() => {
      if (foreign-- > 0) throw new Error(`GetIntent answered about another intent (${OTHER})`);
      return { intent: { intentId: ID, originChainId: 42161, destinationChainId: 8453, quote: { estimatedDuration: 1_200 } } };
    });
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => clock.monotonic() });
    await changesFor(2 * MIN, clock, find);
    const record = (await tracker.list())[0]!;
    expect(record.estimatedDuration).toBe(1_200);
    expect(stuckLimitMs(baselineOf(record), 15 * MIN)).toBe(40 * MIN);
    expect(asked.filter((a) => a === 'GetIntent')).toHaveLength(3);
  });

  it('reads it again within a minute when the chain pair is unknown too (the look-up threw)', async () => {
    const clock = new EventClock();
    const { tracker } = memoryTracker();
    let failing = 1;
    const { client, asked } = etaClient(() => {
      if (failing-- > 0) throw new TypeError('fetch failed');
      return { intent: { intentId: ID, originChainId: 42161, destinationChainId: 8453, quote: { estimatedDuration: 600 } } };
    });
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => clock.monotonic() });
    await tracker.track(ID);
    await changesFor(MIN, clock, find);
    expect((await tracker.list())[0]!.estimatedDuration).toBe(600);
    expect(asked).toEqual(['GetIntent', 'GetIntent']);
  });

  it('a quote without an estimate is still not read again, and a route without a median waits 30 minutes', async () => {
    const clock = new EventClock();
    const { tracker } = memoryTracker();
    const { client, asked } = etaClient(() => ({ intent: { intentId: ID, originChainId: 42161, destinationChainId: 8453, quote: {} } }));
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => clock.monotonic() });
    await tracker.track(ID);
    await changesFor(5 * MIN, clock, find);
    expect(asked).toEqual(['GetIntent', 'GetIntentHistory']);
  });
});
