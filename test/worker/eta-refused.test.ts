/**
 * A baseline found while IndexedDB refused its write (a quota error) is held by the tracker at once (the stuck limit
 * reads it) and written on the intent's next change, without waiting the 10 minutes a miss waits and without asking
 * the service again. The world campaign (seed 20261127, run 110,
 * every family) found the estimate of 20 minutes read during a quota span and lost: the stuck warning came at the
 * 15-minute floor, before twice the estimate (40 minutes).
 */
import { describe, expect, it } from 'vitest';
import { baselineOf, stuckLimitMs } from '@/lib/eta';
import { MemoryStore } from '@/lib/store/memory';
import { createBaselineFinder } from '@/lib/worker/eta-baseline';
import { EventClock } from '../tracker/fakes';
import { etaClient, memoryTracker } from './helpers';

const ID = `0x${'1'.padStart(64, '0')}`;
const MIN = 60_000;

describe('an ETA baseline whose write was refused', () => {
  it('is not asked again once found: the next look-up a minute later sends nothing, and the next write stores it', async () => {
    const clock = new EventClock();
    let refuse = false;
    /** The store refuses every write while `refuse` (a quota error). */
    class RefusingStore extends MemoryStore {
      override async update(...args: Parameters<MemoryStore['update']>) {
        if (refuse) throw new DOMException('write refused', 'QuotaExceededError');
        return super.update(...args);
      }
    }
    const { tracker, store } = memoryTracker(undefined, new RefusingStore());
    const { client, asked } = etaClient(() => ({
      intent: { intentId: ID, originChainId: 42161, destinationChainId: 8453, quote: { estimatedDuration: 1_200 } },
    }));
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => clock.monotonic() });
    await tracker.track(ID);
    refuse = true;
    await find(ID);
    expect((await store.get(ID))?.estimatedDuration).toBeUndefined();
    refuse = false;
    await clock.advance(MIN);
    await find(ID);
    expect(asked).toEqual(['GetIntent']);
    await tracker.retryNow(ID);
    const record = (await store.get(ID))!;
    expect(record.estimatedDuration).toBe(1_200);
    expect(stuckLimitMs(baselineOf(record), 15 * MIN)).toBe(40 * MIN);
  });

  it('is held by the tracker while the store refuses: the stuck limit is twice the estimate at once, stored on the next write', async () => {
    const clock = new EventClock();
    let refuse = false;
    /** The store refuses every write while `refuse` (IndexedDB refusing the intents' database). */
    class RefusingStore extends MemoryStore {
      override async update(...args: Parameters<MemoryStore['update']>) {
        if (refuse) throw new DOMException('write refused', 'UnknownError');
        return super.update(...args);
      }
    }
    const { tracker, store } = memoryTracker(undefined, new RefusingStore());
    const { client } = etaClient(() => ({
      intent: { intentId: ID, originChainId: 42161, destinationChainId: 8453, quote: { estimatedDuration: 1_200 } },
    }));
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => clock.monotonic() });
    await tracker.track(ID);
    refuse = true;
    await find(ID);
    expect((await store.get(ID))?.estimatedDuration).toBeUndefined();
    expect(stuckLimitMs(baselineOf((await tracker.get(ID))!), 15 * MIN)).toBe(40 * MIN);
    refuse = false;
    await tracker.retryNow(ID);
    expect((await store.get(ID))?.estimatedDuration).toBe(1_200);
  });
});
