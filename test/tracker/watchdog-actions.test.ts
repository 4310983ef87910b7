/**
 * The watchdogs' pass (lib/tracker/watchdog-actions.ts `runWatchdogs`) and what an answer takes back
 * (lib/tracker/requests.ts `record`): a stuck warning or an expiry acts only on the latest answer this worker has
 * received, and only when that answer showed the status believed (I2). Found by the world campaign: seed 20261201
 * run 14448 (a warning decided while a read of the intent was in flight, whose stale COMMITTED answer had arrived and
 * was not read yet) and run 24176 (a stale COMMITTED answer whose write the store refused left the previous EXECUTING
 * answer's confirmation standing). Each test failed on the code before the fix.
 */
import { describe, expect, it } from 'vitest';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import { createCore } from '@/lib/tracker/engine-core';
import { record } from '@/lib/tracker/requests';
import { runWatchdogs } from '@/lib/tracker/watchdog-actions';
import { sid } from './engine-harness';
import { EventClock, RecordingNotifier, receipt, trackedRecord } from './fakes';

const MIN = 60_000;
const ID = sid(1);

/** An intent store whose writes throw while `refuse` is set (IndexedDB refusing them: quota, an aborted transaction). */
class RefusingStore extends MemoryStore {
  refuse = false;
  override async update(intentId: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    if (this.refuse) throw new DOMException('write refused', 'QuotaExceededError');
    return super.update(intentId, fn);
  }
}

/**
 * An engine core whose one intent `ID` is believed `status` since `sinceMs` ago (receipt `createdAt` and
 * `summary.startedAt` then), confirmed by an answer 5 s ago; the service clock is the local one (no `Date` sample).
 * `warned` lists the stuck warnings the notifier was asked for.
 */
async function core(status: 'EXECUTING' | 'COMMITTED', sinceMs: number) {
  const clock = new EventClock();
  const store = new RefusingStore();
  const since = new Date(clock.now() - sinceMs).toISOString();
  const believed = answer(status, since);
  store.map.set(ID, trackedRecord(ID, { status, receipt: believed, lastCheckedAt: clock.now() - 5_000 }));
  const warned: number[] = [];
  const notifier = Object.assign(new RecordingNotifier(), {
    showStuck: async (_t: TrackedIntent, minutes: number, stillDue?: () => boolean) => {
      if (stillDue && !stillDue()) return false;
      warned.push(minutes);
      return undefined;
    },
  });
  const c = createCore({ store, clock, notifier, transport: async () => undefined });
  await c.mirror.load();
  c.heard = true;
  c.confirmedAt.set(ID, c.clock.monotonic() - 5_000);
  return { c, store, warned, since };
}

/** A receipt of `ID` in `status`, created (and started) at `since` (ISO). */
function answer(status: string, since: string): IntentReceipt {
  const r = receipt(ID, status);
  return { ...r, createdAt: since, summary: { ...r.summary, startedAt: since } } as IntentReceipt;
}

describe('the stuck warning follows the latest answer, and only one that showed EXECUTING (I2)', () => {
  it('waits while a read of the intent is in flight (its answer may have arrived unread), then follows that answer', async () => {
    const { c, warned, since } = await core('EXECUTING', 20 * MIN);
    c.inFlight.set(ID, { kind: 'receipt', controller: new AbortController() });
    // The last answer (EXECUTING, 5 s old) is fresh, the intent 20 min into execution: the warning would be due.
    await runWatchdogs(c, c.clock.now());
    expect(warned).toEqual([]);
    // The read's answer is a stale replica's COMMITTED: still no warning, the watchdog asks again.
    await record(c, ID, answer('COMMITTED', since), undefined, undefined);
    c.inFlight.delete(ID);
    const afterStale = await runWatchdogs(c, c.clock.now());
    expect(warned).toEqual([]);
    expect([...afterStale.verify]).toEqual([ID]);
    // The next answer shows EXECUTING: now the warning, its figure the minutes since the start.
    await record(c, ID, answer('EXECUTING', since), undefined, undefined);
    await runWatchdogs(c, c.clock.now());
    expect(warned).toEqual([20]);
  });

  it('a stale COMMITTED answer whose write the store refused takes back the confirmation all the same', async () => {
    const { c, store, warned, since } = await core('EXECUTING', 20 * MIN);
    store.refuse = true;
    await expect(record(c, ID, answer('COMMITTED', since), undefined, undefined)).rejects.toThrow();
    store.refuse = false;
    const { verify } = await runWatchdogs(c, c.clock.now());
    expect(warned).toEqual([]);
    expect([...verify]).toEqual([ID]);
  });

  it('an EXECUTING answer whose write was refused ends the expiry count of a COMMITTED intent: the next COMMITTED one does not expire it', async () => {
    // COMMITTED 12 min, past its 10-minute window, with 9 of the 10 votes an expiry needs already cast.
    const { c, store, since } = await core('COMMITTED', 12 * MIN);
    c.expiryVotes.set(ID, new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    store.refuse = true;
    await expect(record(c, ID, answer('EXECUTING', since), undefined, undefined)).rejects.toThrow();
    store.refuse = false;
    // A stale replica answers COMMITTED: one vote, not the tenth.
    await record(c, ID, answer('COMMITTED', since), undefined, undefined);
    await runWatchdogs(c, c.clock.now());
    expect(c.mirror.get(ID)?.phase).toBe('tracking');
  });
});
