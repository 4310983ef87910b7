/**
 * What a restarted worker waits for before it asks again (docs/tracking.md "Faults", docs/time.md "The tracker's
 * time"): a 429's hold is the tracker-wide pause alone, never an intent's own back-off as long as the hold; and times
 * a previous worker wrote before the clock went back are moved back even when the store refuses to write them.
 * Found by the world campaign, seed 20261128 (runs 3074, 16026, 18743; 7152, 1641, 19).
 */
import { describe, expect, it } from 'vitest';
import { SvcServiceError } from '@/lib/api/errors';
import type { TransactionStatus } from '@/lib/api/status';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { IntentMirror } from '@/lib/tracker/mirror';
import { EventClock, RecordingNotifier, receipt, ScriptedTransport, trackedRecord } from './fakes';

const MIN = 60_000;

const rateLimited = (seconds: number) =>
  new SvcServiceError('WaitIntentReceipt', {
    errorName: 'RateLimited',
    code: 1007,
    msg: 'slow down',
    httpStatus: 429,
    retryAfterSeconds: seconds,
  });

/** A store whose writes fail (as IndexedDB over its quota) while `refusing`. */
class RefusingStore extends MemoryStore {
  refusing = false;
  override async update(intentId: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    if (this.refusing) throw new DOMException('quota', 'QuotaExceededError');
    return super.update(intentId, fn);
  }
  override async updateMany(ids: readonly string[], fn: (id: string, c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    if (this.refusing) throw new DOMException('quota', 'QuotaExceededError');
    return super.updateMany(ids, fn);
  }
}

/** A state store whose writes fail while `refusing`. */
class RefusingStateStore extends MemoryStateStore {
  refusing = false;
  override async set(state: TrackerState) {
    if (this.refusing) throw new DOMException('quota', 'QuotaExceededError');
    await super.set(state);
  }
}

const executing = (id: string) => ({
  intentReceipt: receipt(id, 'EXECUTING'),
  receiptStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'] as TransactionStatus[],
  done: false,
});

describe('a 429 and a restart after the clock went back', () => {
  it('holds the pause’s sure minute, not the whole Retry-After again as the intent’s own back-off (seed 20261128, run 3074)', async () => {
    const clock = new EventClock();
    const store = new MemoryStore();
    const state = new MemoryStateStore();
    const id = `0x${'3'.repeat(64)}`;
    const before = new ScriptedTransport();
    before.script(id, rateLimited(600));
    const first = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => before });
    await first.track(id);
    await clock.advance(1_000);
    expect(before.callsFor(id)).toHaveLength(1);
    first.stop();
    // The browser is closed for 5 minutes; NTP sets the clock 10 minutes back meanwhile: how long no worker ran is
    // unknown, so the next worker holds the minute of the pause it is sure of (docs/time.md), then asks.
    await clock.advance(5 * MIN);
    clock.jumpWall(-10 * MIN);
    const after = new ScriptedTransport();
    after.script(id, executing(id));
    const second = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => after });
    await second.resume();
    await clock.advance(58_000);
    expect(after.calls).toHaveLength(0);
    await clock.advance(5_000);
    expect(after.callsFor(id).length).toBeGreaterThan(0);
    second.stop();
  });
});

describe('a pause that ended while the state store refused to write', () => {
  it('is written down as ended once the store accepts again: the next worker does not hold it again (seed 20261128, run 14222)', async () => {
    const clock = new EventClock();
    const store = new MemoryStore();
    const state = new RefusingStateStore();
    const id = `0x${'6'.repeat(64)}`;
    const before = new ScriptedTransport();
    before.script(id, rateLimited(30));
    for (let i = 0; i < 30; i++) before.script(id, executing(id));
    const first = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => before });
    await first.track(id);
    await clock.advance(2_000);
    // The pause is written; then the store refuses every write (what was served, the pause's end) for a minute.
    expect(state.state?.pausedUntil).toBeDefined();
    state.refusing = true;
    await clock.advance(60_000);
    state.refusing = false;
    await clock.advance(15_000);
    first.stop();
    await clock.advance(5 * MIN);
    const after = new ScriptedTransport();
    after.script(id, executing(id));
    const second = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => after });
    await second.resume();
    await clock.advance(5_000);
    expect(after.callsFor(id).length).toBeGreaterThan(0);
    second.stop();
  });
});

/** A store whose reads fail (as IndexedDB refusing them) while `refusingReads`. */
class UnreadableStore extends MemoryStore {
  refusingReads = true;
  override async list() {
    if (this.refusingReads) throw new DOMException('refused', 'UnknownError');
    return super.list();
  }
}

describe('a Retry-After while the intents cannot be read (seed 20261128, runs 503, 16774)', () => {
  it('a previous worker’s pause is handed to the listeners (the request budget) though the intents cannot be read', async () => {
    const clock = new EventClock();
    const state = new MemoryStateStore();
    await state.set({ pausedAt: clock.now() - 10_000, pausedUntil: clock.now() + 50_000, pauseServedMs: 10_000 });
    const told: TrackerState[] = [];
    const store = new UnreadableStore();
    const tracker = new Tracker({
      store,
      stateStore: state,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => new ScriptedTransport(),
      onStateChange: (s) => told.push(s),
    });
    await expect(tracker.resume()).rejects.toThrow();
    expect(told.at(-1)?.pausedUntil).toBe(clock.now() + 50_000);
    tracker.stop();
  });

  it('a 429 answered to another lane is kept in the tracker state though the intents cannot be read', async () => {
    const clock = new EventClock();
    const state = new MemoryStateStore();
    const tracker = new Tracker({
      store: new UnreadableStore(),
      stateStore: state,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => new ScriptedTransport(),
    });
    await tracker.holdOff(120_000);
    expect(state.state?.pausedUntil).toBe(clock.now() + 120_000);
    tracker.stop();
  });
});

describe('times moved back at load while the store refuses writes', () => {
  it('the intent is checked within a minute, not when its times written 10 minutes ahead come (seed 20261128, run 7152)', async () => {
    const clock = new EventClock();
    const store = new RefusingStore();
    const id = `0x${'4'.repeat(64)}`;
    // Written by a worker whose wall clock ran 10 minutes ahead of this one's: its last answer, and the pause after
    // it before the next long-poll.
    const ahead = clock.now() + 10 * MIN;
    await store.put(
      trackedRecord(id, {
        addedAt: ahead - 5 * MIN,
        status: 'EXECUTING',
        lastCheckedAt: ahead,
        nextCheckAt: ahead + 5_000,
        lastStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'] as TransactionStatus[],
      }),
    );
    store.refusing = true;
    const transport = new ScriptedTransport();
    for (let i = 0; i < 30; i++) transport.script(id, executing(id));
    const tracker = new Tracker({ store, clock, notifier: new RecordingNotifier(), transport: async () => transport });
    await tracker.resume();
    await clock.advance(20_000);
    store.refusing = false;
    await clock.advance(45_000);
    expect(transport.callsFor(id).length).toBeGreaterThan(0);
    // Once written, the record holds the times moved back: nothing lies ahead of now.
    expect(store.map.get(id)?.lastCheckedAt ?? 0).toBeLessThanOrEqual(clock.now());
    tracker.stop();
  });

  it('IntentMirror.hold: shown at once, and the next write starts from it', async () => {
    const store = new RefusingStore();
    const id = `0x${'5'.repeat(64)}`;
    await store.put(trackedRecord(id, { addedAt: 10, lastCheckedAt: 9_999 }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    mirror.hold(trackedRecord(id, { addedAt: 10, lastCheckedAt: 100 }));
    expect(mirror.get(id)?.lastCheckedAt).toBe(100);
    let seen: number | undefined;
    await mirror.write(id, (t) => {
      seen = t?.lastCheckedAt;
      return t && { ...t, status: 'EXECUTING' };
    });
    expect(seen).toBe(100);
    expect(store.map.get(id)).toMatchObject({ lastCheckedAt: 100, status: 'EXECUTING' });
    // A removed intent is not brought back by a hold.
    await mirror.remove(id);
    mirror.hold(trackedRecord(id, { addedAt: 10 }));
    expect(mirror.get(id)).toBeUndefined();
  });
});
