/**
 * The worker publishes its estimate of the service's clock for the popup (issue 20, "One clock"); the popup's side:
 * test/components/service-time.test.tsx.
 */
import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { createServiceOffsetStore } from '@/lib/store';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { createServiceOffsetPublisher } from '@/lib/worker/service-offset';

const MIN = 60_000;

describe('createServiceOffsetPublisher', () => {
  it('writes the offset once the clock has evidence, again only when it moved by a second or more', async () => {
    let local = 1_800_000_000_000;
    const clock = new ServiceClock(() => local);
    const store = createServiceOffsetStore(createStore('offset-publisher', 'settings'));
    const publish = createServiceOffsetPublisher(clock, store);
    await publish();
    expect(await store.get()).toBe(0);
    // The user's clock is 10 minutes fast: the service's Date header says 10 minutes earlier (to the second).
    clock.observeDate(local - 10 * MIN);
    await publish();
    expect(await store.get()).toBe(-10 * MIN + 500);
    local += 1_000;
    clock.observeDate(local - 10 * MIN + 400);
    await publish();
    // The median of two samples moved by 200 ms: not written again.
    expect(await store.get()).toBe(-10 * MIN + 500);
    for (let i = 0; i < 5; i++) clock.observeDate(local + 10 * MIN);
    await publish();
    expect(await store.get()).toBe(10 * MIN + 500);
  });

  it('a failed write is tried again at the next call, and never rejects', async () => {
    const clock = new ServiceClock(() => 0);
    clock.observeDate(5 * MIN);
    let fail = true;
    const written: number[] = [];
    const publish = createServiceOffsetPublisher(clock, {
      set: async (ms) => {
        if (fail) throw new Error('QuotaExceededError');
        written.push(ms);
      },
    });
    await expect(publish()).resolves.toBeUndefined();
    fail = false;
    await publish();
    expect(written).toEqual([5 * MIN + 500]);
  });
});
