/**
 * Hostile tests of the Retry-After pause's checkpoints (lib/tracker/pause.ts `nextCheckpointAt`, lib/tracker/pump.ts):
 * written 10 s after the last one whatever else happens — a refused write, the wall clock jumping, a second 429
 * extending the pause, a pause shorter than 10 s, Retry now.
 */
import { describe, expect, it } from 'vitest';
import type { TransactionStatus } from '@/lib/api/status';
import type { TrackerState } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { EventClock, RecordingNotifier, receipt, ScriptedTransport } from './fakes';

/** A state store that notes when (monotonic ms) each write was asked, and refuses those asked while `refuse`. */
class TimedStateStore extends MemoryStateStore {
  readonly writes: Array<{ at: number; state: TrackerState; refused: boolean }> = [];
  refuse = false;
  constructor(readonly clock: EventClock) {
    super();
  }
  override async set(state: TrackerState) {
    this.writes.push({ at: this.clock.monotonic(), state, refused: this.refuse });
    if (this.refuse) throw new DOMException('write refused', 'QuotaExceededError');
    await super.set(state);
  }
}

const ID = `0x${'7'.repeat(64)}`;
const executing = () => ({
  intentReceipt: receipt(ID, 'EXECUTING'),
  receiptStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'] as TransactionStatus[],
  done: false,
});

/** A tracker long-polling one intent, 2 s in, with the state store's writes noted. */
async function setup() {
  const clock = new EventClock();
  const state = new TimedStateStore(clock);
  const transport = new ScriptedTransport();
  for (let i = 0; i < 200; i++) transport.script(ID, executing());
  const tracker = new Tracker({
    store: new MemoryStore(),
    stateStore: state,
    clock,
    notifier: new RecordingNotifier(),
    transport: async () => transport,
  });
  await tracker.track(ID);
  await clock.advance(2_000);
  const t0 = clock.monotonic();
  /** The accepted writes since the pause began: [ms into it, ms served as written]. */
  const kept = () => state.writes.filter((w) => w.at >= t0 && !w.refused).map((w) => [w.at - t0, w.state.pauseServedMs]);
  return { clock, state, transport, tracker, t0, kept };
}

describe('the pause checkpoints under attack', () => {
  it('a checkpoint the store refuses is written at the next one, 10 s later (no checkpoint lost for good)', async () => {
    const { clock, state, tracker, kept } = await setup();
    await tracker.holdOff(60_000);
    await clock.advance(9_000);
    state.refuse = true;
    await clock.advance(2_000);
    state.refuse = false;
    await clock.advance(10_000);
    // 10 s refused; by 20 s what was served is written down.
    const written = kept().filter(([at]) => (at as number) > 0);
    expect(written.length).toBeGreaterThan(0);
    expect(written.at(-1)?.[0]).toBeLessThanOrEqual(20_000);
    expect(written.at(-1)?.[1]).toBeGreaterThanOrEqual(20_000);
    tracker.stop();
  });

  it('a pause whose first write the store refuses is still served, and written down by its first checkpoint', async () => {
    const { clock, state, tracker, kept, transport } = await setup();
    state.refuse = true;
    await tracker.holdOff(30_000).catch(() => {});
    state.refuse = false;
    const asked = transport.calls.length;
    await clock.advance(10_000);
    expect(transport.calls.length).toBe(asked);
    expect(
      kept()
        .filter(([at]) => (at as number) <= 10_000)
        .at(-1),
    ).toEqual([10_000, 10_000]);
    await clock.advance(21_000);
    expect(transport.calls.length).toBeGreaterThan(asked);
    tracker.stop();
  });

  it('the wall clock jumping an hour back or ahead mid-pause moves no checkpoint', async () => {
    for (const jump of [-3_600_000, 3_600_000]) {
      const { clock, tracker, kept } = await setup();
      await tracker.holdOff(30_000);
      await clock.advance(5_000);
      clock.jumpWall(jump);
      await clock.advance(20_000);
      expect(kept().filter(([at]) => (at as number) > 0)).toEqual([
        [10_000, 10_000],
        [20_000, 20_000],
      ]);
      tracker.stop();
    }
  });

  it('a second 429 extending the pause 5 s in starts its checkpoints from it', async () => {
    const { clock, tracker, kept, transport } = await setup();
    await tracker.holdOff(30_000);
    await clock.advance(5_000);
    await tracker.holdOff(60_000);
    await clock.advance(25_000);
    const written = kept().filter(([at]) => (at as number) > 5_000);
    expect(written).toEqual([
      [15_000, 10_000],
      [25_000, 20_000],
    ]);
    // Nothing sent before the second pause's 60 s are over.
    const asked = transport.calls.length;
    await clock.advance(34_000);
    expect(transport.calls.length).toBe(asked);
    tracker.stop();
  });

  it('a pause shorter than 10 s writes no checkpoint, ends on time and is forgotten', async () => {
    const { clock, state, tracker, kept, transport } = await setup();
    await tracker.holdOff(4_000);
    const asked = transport.calls.length;
    await clock.advance(3_900);
    expect(transport.calls.length).toBe(asked);
    await clock.advance(1_000);
    expect(transport.calls.length).toBeGreaterThan(asked);
    expect(kept().every(([, served]) => served === undefined || (served as number) === 0)).toBe(true);
    expect(state.state?.pausedUntil).toBeUndefined();
    tracker.stop();
  });

  it('Retry now during the pause keeps the pause and its checkpoints', async () => {
    const { clock, tracker, kept, transport } = await setup();
    await tracker.holdOff(30_000);
    await clock.advance(4_000);
    const asked = transport.calls.length;
    await tracker.retryNow();
    await clock.advance(16_000);
    expect(transport.calls.length).toBe(asked);
    expect(kept().filter(([at]) => (at as number) > 4_000)).toEqual([
      [10_000, 10_000],
      [20_000, 20_000],
    ]);
    tracker.stop();
  });
});
