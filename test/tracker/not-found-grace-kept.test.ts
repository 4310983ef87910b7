/**
 * The NotFound grace written down while no NotFound answer comes (docs/tracking.md "Faults"; docs/simulation.md
 * `notFoundFirst`, F1): a worker's death loses at most the longest back-off (30 s) of what it served, also when its
 * checks wait minutes for an answer — behind a hold of the worker's request budget that the tracker's own pause did
 * not learn of (its state unreadable when the 429 came: seed 20261130 run 12661), or a service that does not answer.
 */
import { describe, expect, it } from 'vitest';
import { SvcServiceError } from '@/lib/api/errors';
import type { WaitIntentReceiptRequest } from '@/lib/api/schemas/receipt';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { graceKeepAt } from '@/lib/tracker/not-found-grace';
import { EventClock, RecordingNotifier, trackedRecord } from './fakes';

const ID = `0x${'b'.repeat(64)}`;
const SEC = 1_000;
const MIN = 60 * SEC;
/** The grace the docs state: 10 minutes of running workers' time. */
const GRACE = 10 * MIN;
/** The longest NotFound back-off (docs/tracking.md): what a death may cut short unrecorded. */
const LONGEST_RETRY = 30 * SEC;

/** A service that never knows {@link ID}: NotFound after 50 ms, or, while `holding`, no answer at all until aborted. */
class NeverKnowsSometimesSilent {
  holding = false;
  constructor(readonly clock: EventClock) {}
  async waitIntentReceipt(_req: WaitIntentReceiptRequest, options?: { signal?: AbortSignal }): Promise<never> {
    await this.clock.sleep(this.holding ? 24 * 60 * MIN : 50, options?.signal);
    throw new SvcServiceError('WaitIntentReceipt', { errorName: 'NotFound', code: 8000, msg: 'intent not found', httpStatus: 400 });
  }
  async getIntentReceipt(req: { intentId: string }, options?: { signal?: AbortSignal }): Promise<never> {
    return this.waitIntentReceipt({ intentId: req.intentId, lastReceiptStates: [] }, options);
  }
}

describe('a worker dying while its checks of an intent not known yet get no answer', () => {
  it('loses at most the longest back-off of the grace: 5 min without an answer, then a death, then NotFound again', async () => {
    const clock = new EventClock();
    const store = new MemoryStore();
    const state = new MemoryStateStore();
    const service = new NeverKnowsSometimesSilent(clock);
    const life = () =>
      new Tracker({
        store,
        stateStore: state,
        clock,
        notifier: new RecordingNotifier(),
        transport: async () => service,
        random: () => 0.5,
      });
    const start = clock.monotonic();
    const first = life();
    await first.track(ID);
    await clock.advance(2 * MIN);
    // No answer for 5 minutes (requests waiting behind a hold, or a silent service); the worker is alive throughout.
    service.holding = true;
    await clock.advance(5 * MIN);
    first.stop();
    const deadMs = SEC;
    await clock.advance(deadMs);
    service.holding = false;
    const second = life();
    await second.resume();
    let markedAfter: number | undefined;
    while (markedAfter === undefined && clock.monotonic() - start < 30 * MIN) {
      await clock.advance(100);
      if ((await store.get(ID))?.phase === 'not-found') markedAfter = clock.monotonic() - start;
    }
    second.stop();
    // Never before 10 minutes alive (the time dead not counted); never later than a death may push it (its span and
    // the longest back-off), with the last ask at the end of the grace.
    expect(markedAfter).toBeGreaterThanOrEqual(GRACE + deadMs);
    expect(markedAfter).toBeLessThanOrEqual(GRACE + deadMs + LONGEST_RETRY);
  });
});

describe('graceKeepAt', () => {
  const LIFE = 1_800_000_000_000;
  const grace = (at: number, life: number) => ({ notFoundGrace: { servedMs: MIN, at, life } });

  it('10 s after this life last wrote the grace; 10 s into this life when an earlier life wrote it', () => {
    expect(graceKeepAt(trackedRecord(ID, grace(LIFE + 42 * SEC, LIFE)), LIFE)).toBe(LIFE + 52 * SEC);
    expect(graceKeepAt(trackedRecord(ID, grace(LIFE - 5 * MIN, 7)), LIFE)).toBe(LIFE + 10 * SEC);
  });

  it('nothing to keep: never answered NotFound, known (a receipt), or no longer tracking', () => {
    expect(graceKeepAt(trackedRecord(ID), LIFE)).toBeUndefined();
    const known = trackedRecord(ID, { ...grace(LIFE, LIFE), receipt: { intentId: ID, status: 'EXECUTING' } as never });
    expect(graceKeepAt(known, LIFE)).toBeUndefined();
    expect(graceKeepAt(trackedRecord(ID, { ...grace(LIFE, LIFE), phase: 'not-found' }), LIFE)).toBeUndefined();
  });
});
