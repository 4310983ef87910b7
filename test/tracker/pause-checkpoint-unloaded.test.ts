/**
 * The Retry-After pause's checkpoints while the engine cannot load (lib/tracker/pump.ts `servePauseUnloaded`): a
 * worker whose intents IndexedDB refuses still holds the pause a previous worker left, and writes down what it serves
 * of it every 10 s — so that a next worker does not hold again what was served. Found by the world campaign, seed
 * 20261227 run 23154: a 120 s pause, 30 s served, then a worker started with the intents refused for 30 s; it held the
 * 30 s left of the sure part but wrote nothing (its pump never ran), a kill lost its end, and the next worker held the
 * same 30 s again, the user's look-up waiting behind it.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { EventClock, RecordingNotifier, ScriptedTransport } from './fakes';

/** Intents IndexedDB refuses to list until `refuse` is set false. */
class RefusingStore extends MemoryStore {
  refuse = true;
  override async list() {
    if (this.refuse) throw new DOMException('refused', 'UnknownError');
    return super.list();
  }
}

describe('the pause checkpoints while the intents cannot be read', () => {
  it('are written every 10 s from the pause’s rebase, and the load is tried again at each', async () => {
    const clock = new EventClock();
    const state = new MemoryStateStore();
    const now = clock.now();
    // A previous worker served 30 s of a 120 s pause, then the browser stayed closed past its end: 30 s of the sure
    // 60 s are still to be held.
    await state.set({ pausedAt: now - 200_000, pausedUntil: now - 110_000, pauseServedMs: 30_000 });
    const store = new RefusingStore();
    const transport = new ScriptedTransport();
    const tracker = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => transport });
    await tracker.resume().catch(() => {});
    await clock.advance(10_500);
    expect((await state.get())?.pauseServedMs).toBe(40_000);
    await clock.advance(10_000);
    expect((await state.get())?.pauseServedMs).toBe(50_000);
    // The intents readable again: the next checkpoint's wake-up loads them, and the pause ends on time.
    store.refuse = false;
    await clock.advance(10_000);
    expect((await state.get())?.pausedUntil).toBeUndefined();
    tracker.stop();
  });
});
