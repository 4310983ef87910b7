/**
 * Hostile tests of the tracker state's writes landing out of order (lib/tracker/pause.ts `#save`): an older write
 * completing after a later one, or after a later one was refused, must not leave the store with the older state.
 */
import { describe, expect, it } from 'vitest';
import type { TrackerState } from '@/lib/store';
import { MemoryStateStore } from '@/lib/store/memory';
import { PAUSE_CHECKPOINT_MS, TrackerPause } from '@/lib/tracker/pause';
import { EventClock } from './fakes';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A state store whose first write commits only when released, and whose second is refused. */
function store() {
  const states = new MemoryStateStore();
  const first = deferred();
  let sets = 0;
  const stateStore = Object.assign(states, {
    set: async (state: TrackerState) => {
      const n = sets++;
      if (n === 0) await first.promise;
      if (n === 1) throw new Error('quota');
      states.state = state;
    },
  });
  return { states, stateStore, release: first.resolve, sets: () => sets };
}

describe('the tracker state written out of order', () => {
  it('a pause written, ended (refused), then the pause’s write lands: the next flush writes the state without it', async () => {
    const clock = new EventClock();
    const s = store();
    const pause = new TrackerPause({ stateStore: s.stateStore, wall: clock, steady: clock });
    void pause.pauseFor(60_000).catch(() => {});
    await clock.advance(0);
    await pause.ended();
    expect(pause.kept.pausedUntil).toBeUndefined();
    s.release();
    await clock.advance(0);
    // The store holds the pause again (the older write landed last); the refusal of the later one is still owed.
    await clock.advance(PAUSE_CHECKPOINT_MS);
    await pause.flush();
    expect(s.states.state?.pausedUntil).toBeUndefined();
  });
});
