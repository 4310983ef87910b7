/**
 * Hostile tests of `isDue` on the whole notification path (the real pipeline and tracker delivery over a fake
 * desktop): a final notification decided "show now", then a snooze or a restart and the wall clock stepping back and
 * forth before it is shown. N1: told exactly once (Chrome), and not an hour late.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { NotifySettings } from '@/lib/store';
import type { VirtualClock } from '../tracker/fakes';
import { finalTitle, freshStart, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

const HOUR = 3_600_000;
let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});

describe('a final notification decided before the wall clock stepped', () => {
  it('rejected once, then a snooze and a step back an hour: told once, within its back-off', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings);
    w.browser.fail('create');
    await w.finish(1);
    await w.calm.snooze();
    clock.jumpWall(-HOUR);
    await clock.advance(2_000);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    clock.jumpWall(2 * HOUR);
    await w.wake();
    clock.jumpWall(-2 * HOUR);
    await w.wake();
    await clock.advance(120_000);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  for (const fault of ['reject', 'kill', 'kill-after'] as const)
    it(`its worker died after the create (${fault}); the next starts with the clock an hour back, then forward two: told once, at once`, async () => {
      const desktop = new FakeDesktop('chrome', () => clock.now());
      const first = worker(shared, desktop, clock, () => settings);
      first.browser.fail('create', fault);
      void first.finish(1);
      await clock.advance(10);
      first.browser.dead = true;
      clock.jumpWall(-HOUR);
      const second = worker(shared, desktop, clock, () => settings);
      await second.wake();
      await clock.advance(2_000);
      expect(desktop.seen(finalTitle(1))).toHaveLength(1);
      second.browser.dead = true;
      clock.jumpWall(2 * HOUR);
      const third = worker(shared, desktop, clock, () => settings);
      await third.wake();
      await clock.advance(120_000);
      expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    });
});
