/**
 * Issue 27, symptom 2: the user's wall clock jumps back an hour while a notification waits — a retry after a rejected
 * `create`, a final notification held for grouping. Neither waits for the length of the jump: the retry is read no
 * further than its own back-off, the grouping window is timed on the monotonic clock. What is checked is the desktop.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { NotifySettings } from '@/lib/store';
import { settle, type VirtualClock } from '../tracker/fakes';
import { finalTitle, freshStart, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});

describe('notifications and a wall clock gone back an hour', () => {
  for (const kind of ['chrome', 'firefox'] as const) {
    it(`${kind}: a create rejected once is tried again within its back-off, not an hour later`, async () => {
      const desktop = new FakeDesktop(kind, () => clock.now());
      const w = worker(shared, desktop, clock, () => settings);
      w.browser.fail('create');
      await w.finish(1);
      expect(desktop.log).toEqual([]);
      clock.jumpWall(-3_600_000);
      await clock.advance(2_000);
      expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    });
  }

  it('a final notification held for grouping goes at the window’s end, not after the jump', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    // Group timers on the virtual clock.
    const timers: Array<{ at: number; fn: () => void }> = [];
    const w = worker(shared, desktop, clock, () => settings, {
      groupWindowMs: 500,
      groupTimer: (fn, ms) => void timers.push({ at: clock.t + ms, fn }),
    });
    const fire = async (ms: number) => {
      await clock.advance(ms);
      for (const t of timers.filter((x) => x.at <= clock.t)) {
        timers.splice(timers.indexOf(t), 1);
        t.fn();
      }
      await settle();
    };
    await w.finish(1);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    // A second within the window: held, and flushed early (the window's one quiet flush).
    const second = w.finish(2);
    await settle();
    await fire(200);
    await second;
    clock.jumpWall(-3_600_000);
    // A third within the same window (on the monotonic clock): it waits for the window's end, 500 ms at most.
    const third = w.finish(3);
    await settle();
    expect(timers.map((t) => t.at - clock.t).every((ms) => ms <= 500)).toBe(true);
    await fire(1_000);
    await third;
    expect(desktop.log.length).toBeGreaterThanOrEqual(3);
  });
});
