/**
 * A long-poll that the worker's request budget holds before it is sent (the tracker's pace of 54 a minute, a queue
 * of other requests) still ends early enough for the single read after it to come within S(N) (I1). The transport
 * here is the budget's contract without its arithmetic: every request is sent `heldMs` after it is asked, and its
 * time-out counts from the send, as lib/api/http.ts does.
 */
import { describe, expect, it } from 'vitest';
import { SvcAbortedError, SvcTimeoutError } from '@/lib/api/errors';
import type { WaitIntentReceiptRequest } from '@/lib/api/schemas/receipt';
import { MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { LONG_POLL_READ_RESERVE_MS, longPollEndsBy } from '@/lib/tracker/policy';
import { DEFAULT_TUNING, type ReceiptTransport } from '@/lib/tracker/types';
import { EventClock, RecordingNotifier, receipt, trackedRecord } from './fakes';

const ID = `0x${'c'.repeat(64)}`;
const STATES = ['PENDING', 'UNKNOWN', 'UNKNOWN'];

/**
 * A service whose WaitIntentReceipt never answers once the caller knows the states (it holds for minutes), behind a
 * budget that sends each request `heldMs` after it is asked. Records when each answer was given (monotonic ms).
 */
function heldService(clock: EventClock, heldMs: number) {
  const answers: number[] = [];
  const send = async (operation: string, signal: AbortSignal | undefined, timeoutMs: number, holds: boolean) => {
    await clock.sleep(heldMs, signal);
    if (signal?.aborted) throw new SvcAbortedError(operation);
    if (holds) {
      const timer = new AbortController();
      signal?.addEventListener('abort', () => timer.abort(), { once: true });
      await clock.sleep(timeoutMs, timer.signal);
      throw signal?.aborted ? new SvcAbortedError(operation) : new SvcTimeoutError(operation, timeoutMs);
    }
    answers.push(clock.t);
    return { intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: STATES, done: false };
  };
  const transport: ReceiptTransport = {
    waitIntentReceipt: (req: WaitIntentReceiptRequest, o) =>
      send('WaitIntentReceipt', o?.signal, o?.timeoutMs ?? 60_000, (req.lastReceiptStates ?? []).length > 0),
    getIntentReceipt: async (_req, o) => {
      const { intentReceipt } = await send('GetIntentReceipt', o?.signal, o?.timeoutMs ?? 15_000, false);
      return { intentReceipt };
    },
  };
  return { transport, answers };
}

describe('a long-poll held by the request budget before it is sent', () => {
  it('ends early enough that the read after it is answered within 60 s of the last answer (tracker campaign seed 20261126, run 954; seed 1795720466, run 3193)', async () => {
    const clock = new EventClock();
    // 6.5 s in line for every request: a long-poll sent 6.5 s after it was asked and held its whole 48 s, then the
    // read after it 6.5 s more, used to come 61 s after the answer before.
    const { transport, answers } = heldService(clock, 6_500);
    const tracker = new Tracker({ store: new MemoryStore(), clock, notifier: new RecordingNotifier(), transport: async () => transport });
    const from = clock.t;
    await tracker.track(ID);
    await clock.advance(5 * 60_000);
    tracker.stop();
    const gaps = answers.slice(1).map((at, i) => at - answers[i]!);
    expect(answers.length).toBeGreaterThan(4);
    expect(answers[0]! - from).toBeLessThanOrEqual(60_000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(60_000);
  });

  it('longPollEndsBy: the cap counts from the ask, and leaves the read its reserve before 60 s after the last answer', () => {
    const heard = 1_000_000;
    const t = trackedRecord(ID, { lastCheckedAt: heard, lastStates: STATES });
    // Asked at once after the answer: the cap (48 s) from the ask.
    expect(longPollEndsBy(t, heard, DEFAULT_TUNING)).toBe(heard + DEFAULT_TUNING.waitCapMs);
    // Asked 10 s after it: ends 5 s before the minute, not 58 s after the answer.
    expect(longPollEndsBy(t, heard + 10_000, DEFAULT_TUNING)).toBe(heard + 60_000 - LONG_POLL_READ_RESERVE_MS);
    // An error answer is heard too (lastError.at); an intent never heard of counts from the ask.
    const failedLater = trackedRecord(ID, { lastCheckedAt: heard, lastError: { kind: 'network', message: 'x', at: heard + 8_000 } });
    expect(longPollEndsBy(failedLater, heard + 9_000, DEFAULT_TUNING)).toBe(heard + 9_000 + DEFAULT_TUNING.waitCapMs);
    expect(longPollEndsBy(trackedRecord(ID), heard, DEFAULT_TUNING)).toBe(heard + DEFAULT_TUNING.waitCapMs);
  });
});
