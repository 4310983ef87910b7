/**
 * A worker that dies while a long-poll waits for its place in the request budget is dropped as it is: nothing stops
 * it, nothing aborts the check (the world campaign drops a dead worker so, and a browser frees a dead worker's whole
 * heap). Nothing of it may stay reachable then: not the check's signal, not the budget's abort listener on it, not
 * the tracker. Node 20's `AbortSignal.any` keeps a combined signal that has an abort listener in a module-level set
 * until the signal aborts — never, for a dead worker's — so each shard of `npm run campaign` kept a dead worker, and
 * the world around it, from about one run in six (4 GB after 15,000 runs).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { RequestBudget } from '@/lib/api/budget';
import { MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import type { ReceiptTransport } from '@/lib/tracker/types';
import { EventClock, RecordingNotifier } from './fakes';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ID = `0x${'a'.repeat(64)}`;

/**
 * A worker whose budget never opens (a kept hold still being read, say): its first long-poll waits in line with the
 * budget's abort listener on its signal. Returns weak references to its budget and tracker, and what was asked.
 */
async function workerDiedWaiting(): Promise<{ budget: WeakRef<object>; tracker: WeakRef<object>; asked: string[] }> {
  const clock = new EventClock();
  const budget = new RequestBudget({ clock });
  budget.gate(new Promise(() => {}));
  const asked: string[] = [];
  const never = () => new Promise<never>(() => {});
  const transport: ReceiptTransport = {
    waitIntentReceipt: (_req, o) => {
      asked.push('wait');
      return budget.run('tracker', never, o?.signal ? { signal: o.signal } : {});
    },
    getIntentReceipt: (_req, o) => {
      asked.push('receipt');
      return budget.run('tracker', never, o?.signal ? { signal: o.signal } : {});
    },
  };
  const tracker = new Tracker({ store: new MemoryStore(), clock, notifier: new RecordingNotifier(), transport: async () => transport });
  await tracker.track(ID);
  await clock.advance(1_000);
  expect(budget.waiting).toBe(1);
  return { budget: new WeakRef(budget), tracker: new WeakRef(tracker), asked };
}

it('a worker dropped while its long-poll waits in the request budget can be collected whole', async () => {
  const { budget, tracker, asked } = await workerDiedWaiting();
  // The long-poll (its own signal: the check's and its cap's) is what waits.
  expect(asked).toEqual(['wait']);
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  expect(budget.deref()).toBeUndefined();
  expect(tracker.deref()).toBeUndefined();
});
