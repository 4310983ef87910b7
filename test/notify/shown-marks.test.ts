/**
 * Chrome: the outbox cannot record `shown` (IndexedDB refuses the write and the retry's) for longer than one worker
 * life; the user closes the notification; Chrome stops the idle worker. The next worker must not show it again: the
 * mark written outside IndexedDB (storage.session / storage.local) says it was shown.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createShownMarks, MAX_SHOWN_MARKS, type MarkArea } from '@/lib/notify/shown-marks';
import type { NotifySettings } from '@/lib/store';
import type { VirtualClock } from '../tracker/fakes';
import { finalTitle, freshStart, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
  fakeBrowser.reset();
});

const refusing: MarkArea = {
  get: () => Promise.reject(new Error('refused')),
  set: () => Promise.reject(new Error('refused')),
};

describe('a notification shown while the outbox could not record it', () => {
  const scenario = async (marks: ReturnType<typeof createShownMarks> | undefined) => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const opts = marks ? { shownMarks: marks } : {};
    // Every outbox write after the notification appeared is refused, for the whole first life.
    const first = worker(shared, desktop, clock, () => settings, { ...opts, outboxWriteFails: () => desktop.log.length > 0 });
    await first.finish(1, 'SUCCEEDED');
    await clock.advance(120_000);
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
    desktop.dismissAll();
    // Chrome stops the idle worker: its timers end with it; the next one starts on the same stores.
    first.browser.dead = true;
    const next = worker(shared, desktop, clock, () => settings, opts);
    await next.wake();
    await clock.advance(120_000);
    return desktop;
  };

  it('is not shown again by the next worker (mark in storage.session)', async () => {
    const desktop = await scenario(createShownMarks([fakeBrowser.storage.session, fakeBrowser.storage.local]));
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
  });

  it('is not shown again when only storage.local took the mark', async () => {
    const desktop = await scenario(createShownMarks([refusing, fakeBrowser.storage.local]));
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
  });

  it('without any mark (no area took it) the screen decides: shown again — the stated window', async () => {
    const desktop = await scenario(createShownMarks([refusing]));
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1), finalTitle(1)]);
  });
});

describe('createShownMarks', () => {
  it('keeps the newest marks, one at a time, and reads a mark from either area', async () => {
    const marks = createShownMarks([fakeBrowser.storage.session]);
    await Promise.all(Array.from({ length: MAX_SHOWN_MARKS + 5 }, (_, i) => marks.add(`svc-intent:x:${i}`)));
    expect(await marks.has('svc-intent:x:0')).toBe(false);
    expect(await marks.has('svc-intent:x:5')).toBe(true);
    expect(await marks.has(`svc-intent:x:${MAX_SHOWN_MARKS + 4}`)).toBe(true);
    await expect(createShownMarks([refusing]).add('a')).rejects.toThrow();
    expect(await createShownMarks([refusing, fakeBrowser.storage.session]).has('svc-intent:x:7')).toBe(true);
  });
});
