/**
 * A 429 about one intent (docs/tracking.md "Faults"): the tracker-wide pause (Retry-After, at least one back-off step)
 * is the whole wait, for that intent too — it gets no jittered back-off of its own, so I1 (a check at least every
 * S(N) = 60 s) holds from the hold's end. Found by the world campaign (seed 20261205, run 46209, kept in
 * test/world/kept/i1read.ts): an intent answered NotFound 13 times met a 429 with `Retry-After: 0`; its back-off
 * counted the 13 NotFound answers as failures in a row, drew 59.4 s under the 60 s cap, and the intent went 61.3 s
 * without a check.
 */
import { describe, expect, it } from 'vitest';
import { SvcServiceError } from '@/lib/api/errors';
import { Tracker } from '@/lib/tracker/engine';
import { stalenessBound } from '@/lib/tracker/policy';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import { freshStore, RecordingNotifier, receipt, ScriptedTransport, VirtualClock } from './fakes';

const ID = `0x${'3'.repeat(64)}`;
const SEC = 1_000;

const serviceError = (errorName: string, code: number, httpStatus: number, retryAfterSeconds?: number) =>
  new SvcServiceError('WaitIntentReceipt', {
    errorName,
    code,
    msg: errorName,
    httpStatus,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  });

/** A tracker whose jitter always draws its ceiling (random 1: the longest back-off), and when each request was sent. */
function setup() {
  const clock = new VirtualClock();
  const transport = new ScriptedTransport();
  const store = freshStore();
  const tracker = new Tracker({ store, clock, notifier: new RecordingNotifier(), transport: async () => transport, random: () => 1 });
  const sentAt: number[] = [];
  /** Queues `answer` (an error thrown, or a receipt) as the intent's next answer, noting when it is asked. */
  const answer = (a: Error | ReturnType<typeof receipt>) =>
    transport.script(ID, () => {
      sentAt.push(clock.t);
      return a instanceof Error ? Promise.reject(a) : Promise.resolve({ intentReceipt: a, receiptStates: ['PENDING'], done: false });
    });
  return { clock, tracker, store, sentAt, answer };
}

describe('a 429 backs the intent off by the tracker-wide pause alone', () => {
  it('after 13 NotFound answers, a 429 with Retry-After 0 s: asked again as the 1 s pause ends, not after a back-off up to 60 s', async () => {
    const { clock, tracker, store, sentAt, answer } = setup();
    for (let i = 0; i < 13; i++) answer(serviceError('NotFound', 8000, 400));
    answer(serviceError('RateLimited', 1007, 429, 0));
    answer(receipt(ID, 'EXECUTING'));
    await tracker.track(ID);
    // The NotFound answers come 2 s apart growing by a quarter to 30 s: about 4 minutes for 13 of them and the 429.
    for (let s = 0; s < 12; s++) await clock.advance(30 * SEC);
    expect(sentAt).toHaveLength(15);
    expect((await store.get(ID))?.lastError).toBeUndefined();
    const [limitedAt, nextAt] = sentAt.slice(13) as [number, number];
    // The pause is one back-off step (1 s); the intent is due as it ends — well within S(N) of the 429.
    expect(nextAt - limitedAt).toBeGreaterThanOrEqual(DEFAULT_TUNING.backoffBaseMs);
    expect(nextAt - limitedAt).toBeLessThanOrEqual(DEFAULT_TUNING.backoffBaseMs + SEC);
    expect(nextAt - limitedAt).toBeLessThan(stalenessBound(1, DEFAULT_TUNING));
    tracker.stop();
  });

  it('a 429 holding 20 s: the intent is asked again as the hold ends, whatever its failures in a row', async () => {
    const { clock, tracker, sentAt, answer } = setup();
    for (let i = 0; i < 8; i++) answer(serviceError('Unavailable', 2000, 503));
    answer(serviceError('RateLimited', 1007, 429, 20));
    answer(receipt(ID, 'EXECUTING'));
    await tracker.track(ID);
    // Back-offs of 1, 2, 4 … 32 s, then the 60 s cap: about 3 minutes for the 8 errors and the 429.
    for (let s = 0; s < 12; s++) await clock.advance(30 * SEC);
    expect(sentAt).toHaveLength(10);
    const [limitedAt, nextAt] = sentAt.slice(8) as [number, number];
    expect(nextAt - limitedAt).toBeGreaterThanOrEqual(20 * SEC);
    expect(nextAt - limitedAt).toBeLessThanOrEqual(21 * SEC);
    tracker.stop();
  });
});
