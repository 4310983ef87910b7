/**
 * An intent tracked anew after a removal whose notifier clean-up was lost (the worker died between the tracker's
 * deletion and `forget`, or the outbox refused it) is told again when it ends, and is no longer muted: tracking a list
 * (`createTrackList`, every way of tracking goes through it) first forgets what an earlier tracking left
 * (`forgetMany`). Over the notify harness (the real pipeline and the tracker's delivery on a fake desktop; a new
 * `worker()` on the same stores is a restarted worker), with a tracker over the harness's mirror. Found by a hostile
 * review of the N2 fix (dropUntracked).
 */

import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { createCalmStateStore, type NotifySettings } from '@/lib/store';
import { createTrackList } from '@/lib/worker/track-many';
import { freshStart, groupOnClock, id, type Shared, toldOf, trackerOver, worker } from '../notify/desktop-harness';
import { FakeDesktop } from '../notify/fake-desktop';
import type { VirtualClock } from '../tracker/fakes';

const HOUR = 3_600_000;
let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});

const opts = () => ({ groupWindowMs: 300, groupTimer: groupOnClock(clock) });

describe('tracked again after a removal whose forget was lost', () => {
  it('told before the removal, the worker dead before the forget; tracked again and ended: told again', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, opts());
    await first.finish(1);
    await clock.advance(1_000);
    expect(toldOf(desktop, 1)).toBe(1);
    await first.mirror.remove(id(1));
    first.browser.dead = true;
    await clock.advance(HOUR);
    const second = worker(shared, desktop, clock, () => settings, opts());
    await second.wake();
    const added = await createTrackList(trackerOver(second.mirror, clock), undefined, second.calm)([{ intentId: id(1) }]);
    expect(added.added).toEqual([id(1)]);
    await clock.advance(60_000);
    await second.finish(1);
    await clock.advance(60_000);
    expect(toldOf(desktop, 1)).toBe(2);
  }, 30_000);

  it('muted, removed with the worker dead before the forget (which unmutes); tracked again and ended: told once', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, opts());
    await first.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'PENDING']);
    await first.calm.mute(id(1), true);
    await first.mirror.remove(id(1));
    first.browser.dead = true;
    const second = worker(shared, desktop, clock, () => settings, opts());
    await second.wake();
    await createTrackList(trackerOver(second.mirror, clock), undefined, second.calm)([{ intentId: id(1) }]);
    await clock.advance(60_000);
    await second.finish(1);
    await clock.advance(60_000);
    expect(toldOf(desktop, 1)).toBe(1);
  }, 30_000);

  it('an import’s mute, set just before the tracking, is kept; the old told final goes all the same', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const first = worker(shared, desktop, clock, () => settings, opts());
    await first.finish(1);
    await clock.advance(1_000);
    await first.mirror.remove(id(1));
    first.browser.dead = true;
    const second = worker(shared, desktop, clock, () => settings, opts());
    await second.wake();
    // The import mutes its muted intents, then tracks them (lib/worker/track-many-handler.ts).
    await second.calm.mute(id(1), true);
    await createTrackList(trackerOver(second.mirror, clock), undefined, second.calm)([{ intentId: id(1), muted: true }]);
    expect((await createCalmStateStore(createStore(shared.calmDb, 'settings')).get()).muted).toEqual([id(1)]);
    await clock.advance(60_000);
    await second.finish(1);
    await clock.advance(60_000);
    expect(toldOf(desktop, 1)).toBe(1);
  }, 30_000);

  it('an intent still tracked keeps its mute and is not told twice when listed again', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings, opts());
    await w.finish(1);
    await w.record(2, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'PENDING']);
    await w.calm.mute(id(2), true);
    await clock.advance(1_000);
    const result = await createTrackList(trackerOver(w.mirror, clock), undefined, w.calm)([{ intentId: id(1) }, { intentId: id(2) }]);
    expect(result).toMatchObject({ added: [], already: 2 });
    await w.finish(2);
    await w.wake();
    await clock.advance(60_000);
    expect([toldOf(desktop, 1), toldOf(desktop, 2)]).toEqual([1, 0]);
  }, 30_000);
});
