/**
 * The NotFound grace across a clock gone back between worker lives, when the new life's load is held up (docs/tracking.md
 * "Faults"; docs/simulation.md `notFoundFirst`, F1; seed 20261209 run 40612): the times the earlier life wrote (its
 * `addedAt`, the grace's last count) move back together to end at the latest when this engine started, not at the
 * load — a load that refused reads held up minutes would otherwise start the grace again from the load and mark the
 * intent not found that much later.
 */
import { describe, expect, it } from 'vitest';
import { SvcServiceError } from '@/lib/api/errors';
import type { WaitIntentReceiptRequest } from '@/lib/api/schemas/receipt';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { aheadMs, shiftTimes } from '@/lib/tracker/tracker-time';
import { EventClock, RecordingNotifier, trackedRecord } from './fakes';

const ID = `0x${'c'.repeat(64)}`;
const SEC = 1_000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
/** The grace the docs state: 10 minutes of running workers' time. */
const GRACE = 10 * MIN;
/** The longest NotFound back-off (docs/tracking.md). */
const LONGEST_RETRY = 30 * SEC;

/** A service that never knows the intent: NotFound after 50 ms. */
class NeverKnows {
  constructor(readonly clock: EventClock) {}
  async waitIntentReceipt(_req: WaitIntentReceiptRequest, options?: { signal?: AbortSignal }): Promise<never> {
    await this.clock.sleep(50, options?.signal);
    throw new SvcServiceError('WaitIntentReceipt', { errorName: 'NotFound', code: 8000, msg: 'intent not found', httpStatus: 400 });
  }
  async getIntentReceipt(req: { intentId: string }, options?: { signal?: AbortSignal }): Promise<never> {
    return this.waitIntentReceipt({ intentId: req.intentId, lastReceiptStates: [] }, options);
  }
}

describe('an import whose clock went back before the next life, whose load IndexedDB held up 4 minutes', () => {
  it('is marked not found 10 minutes after the engine started (its grace counts from there), not 10 after the load', async () => {
    const clock = new EventClock();
    const start = clock.now();
    const memory = new MemoryStore();
    // Imported by a worker whose wall clock read an hour ahead (an import carries no worker life in its grace).
    await memory.put(trackedRecord(ID, { addedAt: start - 5 * HOUR, notFoundGrace: { servedMs: 0, at: start + HOUR } }));
    const readsBackAt = start + 4 * MIN;
    const list = memory.list.bind(memory);
    const store = Object.assign(memory, {
      list: async () => {
        if (clock.now() < readsBackAt) throw new DOMException('refused', 'UnknownError');
        return list();
      },
    });
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => new NeverKnows(clock),
      random: () => 0.5,
    });
    // The worker resumes the tracker at its start and at each watchdog alarm (30 s): a refused load is tried again then.
    await tracker.resume().catch(() => {});
    let markedAfter: number | undefined;
    while (markedAfter === undefined && clock.now() - start < 30 * MIN) {
      await clock.advance(100);
      if ((clock.now() - start) % (30 * SEC) === 0) await tracker.resume().catch(() => {});
      if ((await memory.get(ID))?.phase === 'not-found') markedAfter = clock.now() - start;
    }
    tracker.stop();
    // Never before 10 minutes of this life; at most the longest back-off after (the last ask falls at the grace's end).
    expect(markedAfter).toBeGreaterThanOrEqual(GRACE);
    expect(markedAfter).toBeLessThanOrEqual(GRACE + LONGEST_RETRY);
  });
});

describe('the grace’s last count moves with the other times', () => {
  it('aheadMs counts it, shiftTimes moves it', () => {
    const now = 1_800_000_000_000;
    const t = trackedRecord(ID, { addedAt: now - HOUR, notFoundGrace: { servedMs: 5 * MIN, at: now + HOUR } });
    expect(aheadMs([t], {}, now)).toBe(HOUR);
    expect(shiftTimes(t, HOUR).notFoundGrace).toEqual({ servedMs: 5 * MIN, at: now });
  });
});
