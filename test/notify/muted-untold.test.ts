/**
 * N2 for a mute whose outbox change was lost: the mute is saved (the calm state says muted, the popup shows it) but
 * the change that skips the intent's queued final (`withMuted`) was refused by IndexedDB, or its worker died between
 * the two writes. The outbox's delivery reads the mutes before each run and skips what they hold back.
 */
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { intentIdsOfNotification, PROGRESS } from '@/lib/notify/browser';
import { createCalmStateStore, type NotifySettings } from '@/lib/store';
import type { VirtualClock } from '../tracker/fakes';
import { freshStart, groupOnClock, id, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});

/** The intents each final notification named (progress notifications left out). */
const told = (desktop: FakeDesktop) => desktop.log.filter((a) => !a.id.startsWith(PROGRESS)).flatMap((a) => intentIdsOfNotification(a.id));

describe('a muted intent is not told when its mute’s outbox change was lost', () => {
  it('the outbox refuses the mute’s change while the final waits for its group: the flush shows the others only', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let refuse = false;
    const w = worker(shared, desktop, clock, () => settings, {
      groupWindowMs: 300,
      groupTimer: groupOnClock(clock),
      outboxWriteFails: () => refuse,
    });
    await w.finish(1);
    void w.finish(2);
    void w.finish(3);
    await clock.advance(5);
    refuse = true;
    await expect(w.calm.mute(id(2), true)).rejects.toThrow(/refused/);
    refuse = false;
    // The mute itself was saved: the popup shows intent 2 muted.
    expect((await createCalmStateStore(createStore(shared.calmDb, 'settings')).get()).muted).toEqual([id(2)]);
    await clock.advance(10_000);
    expect(told(desktop)).toEqual([id(1), id(3)]);
  }, 30_000);

  it('the worker died between the mute’s two writes: the next worker does not show the final', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, { groupWindowMs: 300, groupTimer: groupOnClock(clock) });
    await first.finish(1);
    void first.finish(2);
    await clock.advance(5);
    // The mute's first write (the calm state) landed; the worker died before the outbox change.
    const calm = createCalmStateStore(createStore(shared.calmDb, 'settings'));
    await calm.set({ ...(await calm.get()), muted: [id(2)] });
    first.browser.dead = true;
    await clock.advance(2_000);
    const second = worker(shared, desktop, clock, () => settings, { groupWindowMs: 300, groupTimer: groupOnClock(clock) });
    await second.wake();
    await clock.advance(10_000);
    expect(told(desktop)).toEqual([id(1)]);
  }, 30_000);
});
