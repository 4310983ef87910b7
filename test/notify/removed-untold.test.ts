/**
 * N2 when the removal's own clean-up is lost: an intent the user removed is never told afterwards, although its final
 * job was written before the removal and the notifier's `forget` (which deletes it) was refused by IndexedDB or never
 * ran (the worker died between the tracker's deletion and it). The outbox's delivery asks the tracker before it shows
 * an intent's notification. Found by the world campaign (seed 20261204, run 6336: a final waiting while the outbox's
 * reads were refused, removed meanwhile, told 95 s after its removal).
 * The same for a mute whose outbox change was lost: the mute is saved (the calm state says muted, the popup shows it)
 * but the change that skips the intent's queued final (`withMuted`) was refused, or its worker died between the two
 * writes; each run reads the mutes and skips what they hold back.
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

/** The intents each final notification the user saw named (progress notifications left out). */
const told = (desktop: FakeDesktop) => desktop.log.filter((a) => !a.id.startsWith(PROGRESS)).flatMap((a) => intentIdsOfNotification(a.id));

describe('a removed intent is not told when its forget was lost', () => {
  it('the forget refused while the final waited for its group: the flush shows the others only', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let refuse = false;
    const w = worker(shared, desktop, clock, () => settings, {
      groupWindowMs: 300,
      groupTimer: groupOnClock(clock),
      outboxWriteFails: () => refuse,
    });
    // The first final goes at once; the next ones wait for their group's flush.
    await w.finish(1);
    void w.finish(2);
    void w.finish(3);
    await clock.advance(5);
    // The user removes intent 2: the tracker deletes it, the notifier's clean-up is refused.
    await w.mirror.remove(id(2));
    refuse = true;
    await expect(w.calm.forget!(id(2))).rejects.toThrow(/refused/);
    refuse = false;
    await clock.advance(10_000);
    expect(told(desktop)).toEqual([id(1), id(3)]);
  }, 30_000);

  it('the worker died between the deletion and the forget: the next worker does not show it', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, { groupWindowMs: 300, groupTimer: groupOnClock(clock) });
    await first.finish(1);
    void first.finish(2);
    await clock.advance(5);
    // Intent 2, waiting for its group, is removed; the worker dies before the notifier's clean-up.
    await first.mirror.remove(id(2));
    first.browser.dead = true;
    await clock.advance(2_000);
    const second = worker(shared, desktop, clock, () => settings, { groupWindowMs: 300, groupTimer: groupOnClock(clock) });
    await second.wake();
    await clock.advance(10_000);
    expect(told(desktop)).toEqual([id(1)]);
    // And a later final of another intent is told as usual.
    await second.finish(3);
    await clock.advance(10_000);
    expect(told(desktop)).toEqual([id(1), id(3)]);
  }, 30_000);

  it('held in quiet hours, removed with its forget refused: the summary at their end leaves it out', async () => {
    settings = { ...settings, quietHours: { start: '12:00', end: '13:00' } };
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let refuse = false;
    const w = worker(shared, desktop, clock, () => settings, {
      groupWindowMs: 300,
      groupTimer: groupOnClock(clock),
      outboxWriteFails: () => refuse,
    });
    await clock.advance(60_000);
    await w.finish(1);
    await w.finish(2);
    await w.finish(4);
    await clock.advance(5_000);
    await w.mirror.remove(id(1));
    refuse = true;
    await expect(w.calm.forget!(id(1))).rejects.toThrow(/refused/);
    refuse = false;
    // Quiet hours end: the release alarm's wake-up.
    await clock.advance(3_600_000);
    await w.wake();
    await clock.advance(10_000);
    // One summary, of the two intents still tracked.
    expect(desktop.log.map((a) => a.title)).toEqual(['While you were away: 2 intents finished']);
  }, 30_000);

  it('a tracker that cannot say (its load refused) does not hold a final back: told as before', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, { groupWindowMs: 300, groupTimer: groupOnClock(clock) });
    const intent = w.calm;
    await w.finish(1);
    void w.finish(2);
    await clock.advance(5);
    // Unknown: the lookup the delivery makes rejects (the worker's IndexedDB refusing its load).
    w.mirror.get = () => {
      throw new DOMException('refused', 'UnknownError');
    };
    await clock.advance(10_000);
    expect(intent).toBeDefined();
    expect(told(desktop)).toEqual([id(1), id(2)]);
  }, 30_000);
});

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
