/**
 * The ETA baseline finder's queue (lib/worker/eta-baseline.ts): look-ups one at a time in the order asked, an intent
 * queued once however often it is asked, a failure holding back none, and the promise of `ensure` resolving once no
 * look-up waits — a queue of a desk's thousands kept as one Set, drained by one loop.
 */
import { describe, expect, it } from 'vitest';
import { createBaselineFinder } from '@/lib/worker/eta-baseline';
import { deferred } from './chain-fixtures';
import { memoryTracker, pacedEtaClient } from './helpers';

const hex = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

/** A finder whose GetIntent for each intent waits for the test (`open`), logging who asked and how many at once. */
async function gated(n: number) {
  const { tracker } = memoryTracker();
  const ids = Array.from({ length: n }, (_, i) => hex(i + 1));
  for (const id of ids) await tracker.track(id);
  const gates = new Map(ids.map((id) => [id, deferred<void>()]));
  const { client, order, peak } = pacedEtaClient(async (intentId) => {
    await gates.get(intentId)!.promise;
    if (intentId === ids[1]) throw new Error('the service is down');
  });
  const find = createBaselineFinder({ client: async () => client, tracker });
  const open = (id: string) => gates.get(id)!.resolve();
  return { tracker, ids, find, open, order, peak };
}

/** Lets every pending promise callback run. */
const settle = async () => {
  for (let i = 0; i < 50; i++) await Promise.resolve();
};

describe('the ETA baseline queue', () => {
  it('runs one look-up at a time, in the order asked, each intent once, and resolves when none waits', async () => {
    const { tracker, ids, find, open, order, peak } = await gated(200);
    let done = false;
    const first = find(ids[0]!).then(() => (done = true));
    for (const id of [...ids].reverse()) void find(id);
    void find(ids[5]!);
    for (const id of ids) {
      await settle();
      expect(done).toBe(false);
      open(id);
    }
    await first;
    expect(peak()).toBe(1);
    // ids[0] first (asked first), then the rest in the order asked: the reversed list.
    expect(order).toEqual([ids[0], ...ids.slice(1).reverse()]);
    expect(done).toBe(true);
    tracker.stop();
  });

  it('takes an intent asked while the queue drains into the same drain; a failure holds back none', async () => {
    const g = await gated(3);
    const [a, b, c] = g.ids as [string, string, string];
    const whenA = g.find(a);
    await settle();
    void g.find(b); // fails (the service is down)
    g.open(a);
    await settle();
    void g.find(c);
    g.open(b);
    g.open(c);
    await whenA;
    expect(g.order).toEqual([a, b, c]);
    expect((await g.tracker.get(c))?.estimatedDuration).toBe(60);
    expect((await g.tracker.get(b))?.estimatedDuration).toBeUndefined();
    g.tracker.stop();
  });

  it('starts again once drained: a later look-up is run, not left waiting', async () => {
    const g = await gated(3);
    const [a, , b] = g.ids as [string, string, string];
    g.open(a);
    await g.find(a);
    g.open(b);
    await g.find(b);
    expect(g.order).toEqual([a, b]);
    expect((await g.tracker.get(b))?.estimatedDuration).toBe(60);
    g.tracker.stop();
  });
});
