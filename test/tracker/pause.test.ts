/**
 * The tracker-wide state (lib/tracker/pause.ts): the Retry-After pause on the engine's steady clock, stored with how
 * far the wall clock read ahead of it, checkpointed while it holds, read back by a next worker on both clocks; a
 * rejected key. The engine's own tests (engine.test.ts, tracker-time.test.ts) prove it through the tracker.
 */
import { describe, expect, it } from 'vitest';
import { MAX_HOLD_MS } from '@/lib/api/budget';
import type { TrackerState } from '@/lib/store';
import { MemoryStateStore } from '@/lib/store/memory';
import { PAUSE_CHECKPOINT_MS, TrackerPause } from '@/lib/tracker/pause';
import { steadyClock } from '@/lib/tracker/tracker-time';
import { EventClock } from './fakes';

const MIN = 60_000;

function pauseOn(clock: EventClock) {
  const store = new MemoryStateStore();
  const told: TrackerState[] = [];
  const pause = new TrackerPause({ stateStore: store, onStateChange: (s) => told.push(s), wall: clock, steady: steadyClock(clock) });
  return { pause, store, told };
}

describe('TrackerPause', () => {
  it('a pause holds its length on the steady clock, whatever the wall clock does; a shorter one does not shorten it; at most an hour', async () => {
    const clock = new EventClock();
    const { pause } = pauseOn(clock);
    await pause.pauseFor(10 * MIN);
    clock.jumpWall(-60 * MIN);
    await clock.advance(MIN);
    expect(pause.left()).toBe(9 * MIN);
    expect(pause.paused()).toBe(true);
    await pause.pauseFor(MIN);
    expect(pause.left()).toBe(9 * MIN);
    await pause.pauseFor(5 * 60 * MIN);
    expect(pause.left()).toBe(MAX_HOLD_MS);
  });

  it('stored with how far the wall clock reads ahead of the steady clock; listeners get it on the wall clock', async () => {
    const clock = new EventClock();
    const { pause, store, told } = pauseOn(clock);
    clock.jumpWall(-2 * MIN);
    await pause.pauseFor(MIN);
    const steadyNow = clock.now() + 2 * MIN;
    expect(store.state).toMatchObject({ pausedAt: steadyNow, pausedUntil: steadyNow + MIN, pauseServedMs: 0, pauseWallAheadMs: -2 * MIN });
    expect(told.at(-1)).toMatchObject({ pausedAt: clock.now(), pausedUntil: clock.now() + MIN });
    expect(pause.view.pausedUntil).toBe(clock.now() + MIN);
  });

  it('checkpoints what is left at most every 10 s, counting what was served', async () => {
    const clock = new EventClock();
    const { pause, store } = pauseOn(clock);
    await pause.pauseFor(2 * MIN);
    await clock.advance(PAUSE_CHECKPOINT_MS - 1);
    await pause.serve(clock.now());
    expect(store.state?.pauseServedMs).toBe(0);
    await clock.advance(1);
    await pause.serve(clock.now());
    expect(store.state).toMatchObject({
      pausedAt: clock.now(),
      pausedUntil: clock.now() + 2 * MIN - PAUSE_CHECKPOINT_MS,
      pauseServedMs: PAUSE_CHECKPOINT_MS,
    });
  });

  it('a next worker holds the shorter of the steady and the wall readings (an NTP step back of 2 min in the earlier worker)', async () => {
    const clock = new EventClock();
    const { pause } = pauseOn(clock);
    const now = clock.now();
    // Written 217 s ago on a steady clock 2 min ahead of the wall clock: 590 s left then, 10 s served.
    const at = now - 217_000 + 2 * MIN;
    pause.loaded({ pausedAt: at, pausedUntil: at + 590_000, pauseServedMs: 10_000, pauseWallAheadMs: -2 * MIN });
    await pause.rebase(0, now);
    expect(pause.kept).toMatchObject({ pausedAt: now, pausedUntil: now + 590_000 - 217_000 });
  });

  it('after the clock went back between the two workers only the part of the honoured minute not yet served is held', async () => {
    const clock = new EventClock();
    const { pause } = pauseOn(clock);
    const now = clock.now();
    pause.loaded({ pausedAt: now + 30 * MIN, pausedUntil: now + 39 * MIN, pauseServedMs: 20_000 });
    await pause.rebase(30 * MIN, now);
    expect(pause.left()).toBe(40_000);
  });

  it('a next worker counts as served only its own running time: not the time no worker ran, nor a step forward of the clock meanwhile (seed 20261206 run 1740)', async () => {
    // An hour's pause written 10 s after it began, nothing served; the browser was closed 5 min, and the wall clock
    // stepped 10 min forward meanwhile: the next worker reads 45 min left (nothing to rewrite at its load).
    const clock = new EventClock();
    const { pause, store } = pauseOn(clock);
    const now = clock.now();
    const at = now - 15 * MIN;
    pause.loaded({ pausedAt: at, pausedUntil: at + 60 * MIN, pauseServedMs: 0, pauseWallAheadMs: 0 });
    await pause.rebase(0, now);
    expect(pause.left()).toBe(45 * MIN);
    await clock.advance(PAUSE_CHECKPOINT_MS);
    await pause.serve(clock.now());
    // Served: the 10 s this worker ran. A next worker whose clock went back holds the other 50 s of the sure minute.
    expect(store.state?.pauseServedMs).toBe(PAUSE_CHECKPOINT_MS);
  });

  it('a pause served whole is forgotten; a rejected key pauses until retried, the Retry-After kept', async () => {
    const clock = new EventClock();
    const { pause, store } = pauseOn(clock);
    await pause.pauseFor(MIN);
    await pause.keyRejected('key-rejected');
    expect(pause.kept.keyRejected?.kind).toBe('key-rejected');
    await pause.retried();
    expect(pause.kept.keyRejected).toBeUndefined();
    expect(pause.left()).toBe(MIN);
    await clock.advance(MIN);
    await pause.ended();
    expect(store.state).toEqual({});
    expect(pause.paused()).toBe(false);
  });
});
