/**
 * Hostile schedules for the Retry-After pause (docs/tracking.md "Faults": a 429 pauses every request until
 * Retry-After; the hold is the tracker-wide pause's; a refused write of it is held in memory and written again later).
 * Written by a tester who did not write the code.
 */
import { describe, expect, it } from 'vitest';
import { SvcServiceError } from '@/lib/api/errors';
import type { TransactionStatus } from '@/lib/api/status';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { IntentMirror } from '@/lib/tracker/mirror';
import { EventClock, RecordingNotifier, receipt, ScriptedTransport, trackedRecord } from './fakes';

const SEC = 1_000;
const MIN = 60 * SEC;

const rateLimited = (seconds: number) =>
  new SvcServiceError('WaitIntentReceipt', {
    errorName: 'RateLimited',
    code: 1007,
    msg: 'slow down',
    httpStatus: 429,
    retryAfterSeconds: seconds,
  });

const executing = (id: string) => ({
  intentReceipt: receipt(id, 'EXECUTING'),
  receiptStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'] as TransactionStatus[],
  done: false,
});

/** A state store that refuses every write, for ever (IndexedDB over its quota), and counts the tries. */
class NeverWrites extends MemoryStateStore {
  tries = 0;
  override async set(_state: TrackerState) {
    this.tries++;
    throw new DOMException('quota', 'QuotaExceededError');
  }
}

describe('a Retry-After pause whose write is refused for ever', () => {
  it('holds every request for the whole Retry-After in memory, then asks again, without a busy loop of writes', async () => {
    const clock = new EventClock();
    const state = new NeverWrites();
    const id = `0x${'7'.repeat(64)}`;
    const transport = new ScriptedTransport();
    transport.script(id, rateLimited(90));
    for (let i = 0; i < 50; i++) transport.script(id, executing(id));
    const seen: TrackerState[] = [];
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore: state,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => transport,
      onStateChange: (s) => seen.push(s),
    });
    await tracker.track(id);
    await clock.advance(SEC);
    expect(transport.callsFor(id)).toHaveLength(1);
    // 89 s more: nothing is sent, though the pause was never written.
    await clock.advance(88 * SEC);
    expect(transport.calls).toHaveLength(1);
    await clock.advance(5 * SEC);
    expect(transport.callsFor(id).length).toBeGreaterThan(1);
    // Tries to write it again at most every 10 s (a flush each checkpoint), not at every pump.
    expect(state.tries).toBeLessThanOrEqual(2 + Math.ceil(94 / 10) * 2);
    // The intent is not lost: it is still tracked and got its answer.
    expect((await tracker.get(id))?.status).toBe('EXECUTING');
    tracker.stop();
  });
});

describe('a Retry-After longer than the service may hold (I5: at most 1 hour)', () => {
  it('a 429 asking for 2 hours holds every request for 1 hour, then the intent is asked again at once (no back-off of its own as long)', async () => {
    const clock = new EventClock();
    const id = `0x${'5'.repeat(64)}`;
    const transport = new ScriptedTransport();
    transport.script(id, rateLimited(2 * 60 * 60));
    for (let i = 0; i < 50; i++) transport.script(id, executing(id));
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => transport,
    });
    await tracker.track(id);
    await clock.advance(SEC);
    expect(transport.calls).toHaveLength(1);
    await clock.advance(60 * MIN - 2 * SEC);
    expect(transport.calls).toHaveLength(1);
    // The hour is over: asked within a back-off step (the first is 1 s) and a pump's wake-up, not an hour later.
    await clock.advance(15 * SEC);
    expect(transport.callsFor(id).length).toBeGreaterThan(1);
    tracker.stop();
  });
});

/** An intent store whose writes fail while `refusing`. */
class RefusingStore extends MemoryStore {
  refusing = false;
  override async update(intentId: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    if (this.refusing) throw new DOMException('quota', 'QuotaExceededError');
    return super.update(intentId, fn);
  }
}

describe('IntentMirror.hold against a concurrent remove', () => {
  const id = `0x${'9'.repeat(64)}`;

  it('a hold after the intent was removed does not bring it back', async () => {
    const store = new RefusingStore();
    await store.update(id, () => trackedRecord(id, { addedAt: 5 }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    await mirror.remove(id);
    mirror.hold(trackedRecord(id, { addedAt: 1 }));
    expect(mirror.get(id)).toBeUndefined();
    expect(mirror.values()).toHaveLength(0);
    // Nor does a later write of it.
    await mirror.write(id, (t) => t && { ...t, addedAt: 2 });
    expect(mirror.get(id)).toBeUndefined();
  });

  it('a hold racing a remove whose store deletion is still in flight does not survive the remove', async () => {
    const store = new RefusingStore();
    await store.update(id, () => trackedRecord(id, { addedAt: 5 }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    const removing = mirror.remove(id);
    mirror.hold(trackedRecord(id, { addedAt: 1 }));
    await removing;
    expect(mirror.get(id)).toBeUndefined();
    expect(await store.get(id)).toBeUndefined();
  });

  it('a held record is the base of the next write, and once written is the store’s again', async () => {
    const store = new RefusingStore();
    await store.update(id, () => trackedRecord(id, { addedAt: 5 * MIN }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    store.refusing = true;
    await expect(mirror.write(id, (t) => t && { ...t, addedAt: MIN })).rejects.toThrow();
    mirror.hold(trackedRecord(id, { addedAt: MIN }));
    expect(mirror.get(id)?.addedAt).toBe(MIN);
    store.refusing = false;
    await mirror.write(id, (t) => t && { ...t, seen: true });
    expect((await store.get(id))?.addedAt).toBe(MIN);
    expect(mirror.get(id)?.addedAt).toBe(MIN);
    // Once written, the held copy is no longer the base: a later write keeps what the first one wrote.
    await mirror.write(id, (t) => t && { ...t, resumedAt: 7 });
    expect((await store.get(id))?.seen).toBe(true);
  });
});
