/**
 * The Retry-After pause's checkpoints (lib/tracker/pump.ts, lib/tracker/pause.ts; docs/time.md "The Retry-After pause
 * across workers"): while the pause holds, what is left of it is written down every 10 s from its start, whatever
 * other wake-up the pump had set before — so a worker that dies at any moment of the pause leaves at most 10 s served
 * unwritten, and the next one does not hold again what was served. Found by the world campaign, seed 20261202 runs
 * 4048 and 4678: a wake-up set before the 429 came 3.3 s (or 9.99 s) into the pause, put the first checkpoint off to
 * 13.3 s (19.99 s), an idle stop at 12.9 s (16.2 s) lost it all, and the next worker held the whole 30 s again with
 * the user's look-ups waiting behind it.
 */
import { describe, expect, it } from 'vitest';
import type { TransactionStatus } from '@/lib/api/status';
import type { TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { EventClock, RecordingNotifier, receipt, ScriptedTransport } from './fakes';

/** A state store that notes when (monotonic ms) each state was written. */
class TimedStateStore extends MemoryStateStore {
  readonly writes: Array<{ at: number; state: TrackerState }> = [];
  constructor(readonly clock: EventClock) {
    super();
  }
  override async set(state: TrackerState) {
    this.writes.push({ at: this.clock.monotonic(), state });
    await super.set(state);
  }
}

const executing = (id: string) => ({
  intentReceipt: receipt(id, 'EXECUTING'),
  receiptStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'] as TransactionStatus[],
  done: false,
});

describe('the pause checkpoints', () => {
  it('the first is written 10 s into the pause though the pump had a wake-up set sooner; a next worker holds only what is left', async () => {
    const clock = new EventClock();
    const state = new TimedStateStore(clock);
    const store = new MemoryStore();
    const id = `0x${'7'.repeat(64)}`;
    const transport = new ScriptedTransport();
    for (let i = 0; i < 50; i++) transport.script(id, executing(id));
    const first = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => transport });
    await first.track(id);
    // The intent is being long-polled: the pump has its next wake-up set a few seconds ahead when the 429 comes.
    await clock.advance(2_000);
    const heldAt = clock.monotonic();
    await first.holdOff(30_000);
    await clock.advance(10_000);
    expect(state.writes.filter((w) => w.at > heldAt).map((w) => [w.at - heldAt, w.state.pauseServedMs])).toEqual([[10_000, 10_000]]);
    // Chrome stops the worker 12.9 s into the pause; the next one starts after the service's 30 s are over.
    await clock.advance(2_900);
    first.stop();
    await clock.advance(20_000);
    const after = new ScriptedTransport();
    for (let i = 0; i < 5; i++) after.script(id, executing(id));
    const second = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => after });
    await second.resume();
    // It holds what no running worker was seen to serve (20 s), not the whole 30 s again.
    await clock.advance(19_000);
    expect(after.calls).toHaveLength(0);
    await clock.advance(2_000);
    expect(after.callsFor(id).length).toBeGreaterThan(0);
    second.stop();
  });
});
