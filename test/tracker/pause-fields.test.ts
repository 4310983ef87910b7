/**
 * The tracker-wide state (lib/tracker/pause.ts) branch by branch, where the engine's tests go through only one side:
 * who is told of a state a previous worker left, a rejected key alone, a kept pause without its start, with a start
 * ahead of now or moved back by a shift, Retry now after the pause ended, a pause asked again of the length left, a
 * hold of NaN ms, and the re-write of a refused state. Expected values are worked out by hand from the clock and the
 * state loaded.
 */
import { describe, expect, it } from 'vitest';
import type { TrackerState } from '@/lib/store';
import { PAUSE_CHECKPOINT_MS, TrackerPause } from '@/lib/tracker/pause';
import { steadyClock } from '@/lib/tracker/tracker-time';
import { EventClock } from './fakes';

const MIN = 60_000;

/** A pause on `clock` whose store counts its writes and refuses them while `refuse` is set. */
function pauseOn(clock: EventClock) {
  const told: TrackerState[] = [];
  const store = {
    state: undefined as TrackerState | undefined,
    writes: 0,
    refuse: false,
    async get() {
      return store.state;
    },
    async set(state: TrackerState) {
      store.writes++;
      if (store.refuse) throw new DOMException('refused', 'QuotaExceededError');
      store.state = state;
    },
  };
  const pause = new TrackerPause({ stateStore: store, onStateChange: (s) => told.push(s), wall: clock, steady: steadyClock(clock) });
  return { pause, store, told };
}

const keyRejected = { kind: 'key-rejected', message: 'no', at: 1 };

/** A pause that took `kept(now)` (what a previous worker stored) and rebased it by `shift` ms at `now`. */
async function rebased(kept: (now: number) => TrackerState, shift = 0) {
  const clock = new EventClock();
  const on = pauseOn(clock);
  const now = clock.now();
  on.pause.loaded(kept(now));
  await on.pause.rebase(shift, now);
  return { ...on, now };
}

describe('TrackerPause, branch by branch', () => {
  it('tells listeners of a kept pause or a rejected key a previous worker left, and of nothing else', () => {
    const clock = new EventClock();
    const nothing = pauseOn(clock);
    nothing.pause.loaded({});
    nothing.pause.announce();
    expect(nothing.told).toEqual([]);
    const held = pauseOn(clock);
    held.pause.loaded({ pausedAt: clock.now(), pausedUntil: clock.now() + MIN });
    held.pause.announce();
    expect(held.told).toEqual([{ pausedAt: clock.now(), pausedUntil: clock.now() + MIN }]);
    const rejected = pauseOn(clock);
    rejected.pause.loaded({ keyRejected });
    rejected.pause.announce();
    expect(rejected.told).toEqual([{ keyRejected }]);
  });

  it('a rejected key alone pauses everything', () => {
    const { pause } = pauseOn(new EventClock());
    pause.loaded({ keyRejected });
    expect(pause.left()).toBe(0);
    expect(pause.paused()).toBe(true);
  });

  it('a kept pause without its start is held what is left of it, and not written again', async () => {
    const { pause, store } = await rebased((now) => ({ pausedUntil: now + 30_000, pauseServedMs: 0 }));
    expect(pause.left()).toBe(30_000);
    expect(store.writes).toBe(0);
  });

  it('a kept pause that starts now and holds its length is not written again', async () => {
    const { pause, store } = await rebased((now) => ({ pausedAt: now, pausedUntil: now + 15_000, pauseServedMs: 0 }));
    expect(pause.left()).toBe(15_000);
    expect(store.writes).toBe(0);
  });

  it('a kept pause whose start is 5 s ahead of now is held its 15 s from now, and written so', async () => {
    const { pause, store, now } = await rebased((now) => ({ pausedAt: now + 5_000, pausedUntil: now + 20_000, pauseServedMs: 0 }));
    expect(pause.left()).toBe(15_000);
    expect(store.writes).toBe(1);
    expect(store.state).toMatchObject({ pausedAt: now, pausedUntil: now + 15_000 });
  });

  it('a kept pause moved back by a shift is kept from now, also when what is left equals its moved reading', async () => {
    // Written by a worker whose clock was 30 min ahead: 40 s left of a 60 s pause, 20 s of it served.
    const { pause, store, now } = await rebased(
      (now) => ({ pausedAt: now + 30 * MIN, pausedUntil: now + 30 * MIN + 40_000, pauseServedMs: 20_000 }),
      30 * MIN,
    );
    expect(pause.kept).toMatchObject({ pausedAt: now, pausedUntil: now + 40_000 });
    expect(store.state).toMatchObject({ pausedAt: now, pausedUntil: now + 40_000 });
  });

  it('a 100 s pause kept by a worker whose clock was 40 s ahead is held the honoured minute, and written so', async () => {
    // Moved back 40 s it reads 60 s left, as much as the honoured minute: what is left is that minute, from now.
    const { pause, store, now } = await rebased((now) => ({ pausedAt: now, pausedUntil: now + 100_000, pauseServedMs: 0 }), 40_000);
    expect(pause.left()).toBe(MIN);
    expect(store.state).toMatchObject({ pausedAt: now, pausedUntil: now + MIN });
  });

  it('a hold of no number of ms (NaN) pauses nothing and writes nothing', async () => {
    const { pause, store, told } = pauseOn(new EventClock());
    await pause.pauseFor(Number.NaN);
    expect(pause.paused()).toBe(false);
    expect(store.writes).toBe(0);
    expect(told).toEqual([]);
  });

  it('Retry now after the pause ended leaves no pause behind', async () => {
    const clock = new EventClock();
    const { pause, store } = pauseOn(clock);
    await pause.pauseFor(MIN);
    await pause.keyRejected('key-rejected');
    await clock.advance(MIN);
    await pause.retried();
    expect(store.state).toStrictEqual({});
    expect(pause.paused()).toBe(false);
  });

  it('a pause asked again of exactly the length left changes nothing: no write, nobody told', async () => {
    const clock = new EventClock();
    const { pause, store, told } = pauseOn(clock);
    await pause.pauseFor(MIN);
    await clock.advance(20_000);
    await pause.pauseFor(40_000);
    expect(store.writes).toBe(1);
    expect(told).toHaveLength(1);
  });

  it('a refused write is tried again by the first flush 10 s after it, not sooner; once written, not again', async () => {
    const clock = new EventClock();
    const { pause, store } = pauseOn(clock);
    store.refuse = true;
    await expect(pause.pauseFor(MIN)).rejects.toThrow('refused');
    expect(store.writes).toBe(1);
    store.refuse = false;
    await clock.advance(PAUSE_CHECKPOINT_MS - 1);
    await pause.flush();
    expect(store.writes).toBe(1);
    await clock.advance(1);
    await pause.flush();
    expect(store.writes).toBe(2);
    expect(store.state).toMatchObject({ pausedUntil: clock.now() - PAUSE_CHECKPOINT_MS + MIN });
    await clock.advance(PAUSE_CHECKPOINT_MS);
    await pause.flush();
    expect(store.writes).toBe(2);
  });

  it('a refused write followed by one that lands owes nothing to the next flush', async () => {
    const clock = new EventClock();
    const { pause, store } = pauseOn(clock);
    store.refuse = true;
    await expect(pause.pauseFor(MIN)).rejects.toThrow('refused');
    store.refuse = false;
    await pause.keyRejected('key-rejected');
    expect(store.writes).toBe(2);
    await clock.advance(PAUSE_CHECKPOINT_MS);
    await pause.flush();
    expect(store.writes).toBe(2);
  });
});
