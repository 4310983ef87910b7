/**
 * What a failed read of the notification settings means (lib/notify/settings-memory.ts): the last settings read in
 * this worker's life, or — with none — no decision until a read succeeds. Never the defaults: quiet hours, sound and
 * the per-outcome switches hold through a refused read.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { AWAY } from '@/lib/notify/browser';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import type { VirtualClock } from '../tracker/fakes';
import { at, finalTitle, freshStart, id, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let shared: Shared;
/** Succeeded switched off, no sound, quiet 22:00–07:00. */
const mine: NotifySettings = { ...DEFAULT_NOTIFY, succeeded: false, sound: false, quietHours: { start: '22:00', end: '07:00' } };
beforeEach(() => {
  ({ clock, shared } = freshStart());
});

describe('a failed settings read', () => {
  it('after a good read in this life: the user’s switches, sound and quiet hours still hold', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let fail = false;
    const w = worker(shared, desktop, clock, () => mine, { settingsFail: () => fail });
    clock.t = at(22, 21);
    await w.finish(1, 'FAILED');
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1, 'failed')]);
    expect(desktop.screen.get(desktop.log[0]!.id)?.silent).toBe(true);
    fail = true;
    clock.t = at(22, 23, 30);
    // Switched off: never told. Inside quiet hours: held, and no summary at 23:30.
    await w.finish(2, 'SUCCEEDED');
    await w.finish(3, 'FAILED');
    await w.calm.release();
    await w.wake();
    expect(desktop.log).toHaveLength(1);
    // At 07:00 (reads still refused) the summary comes, silent.
    clock.t = at(23, 7);
    await w.calm.release();
    expect(desktop.log.map((a) => a.id.startsWith(AWAY))).toEqual([false, true]);
    expect(desktop.screen.get(desktop.log[1]!.id)?.silent).toBe(true);
  });

  it('with none read in this life: nothing is decided until a read succeeds, then the saved settings decide', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    let fail = true;
    const w = worker(shared, desktop, clock, () => mine, { settingsFail: () => fail });
    clock.t = at(22, 12);
    await w.finish(1, 'SUCCEEDED');
    await w.finish(2, 'FAILED');
    await w.wake();
    expect(desktop.log).toEqual([]);
    expect(w.mirror.get(id(2))?.notification).toBe('pending');
    fail = false;
    clock.t += 30_000;
    await w.wake();
    // Intent 1 stays untold (succeeded is off); intent 2 is told once, without sound.
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(2, 'failed')]);
    expect(desktop.screen.get(desktop.log[0]!.id)?.silent).toBe(true);
    expect(w.mirror.get(id(1))?.notification).toBe('shown');
    await w.wake();
    expect(desktop.log).toHaveLength(1);
  });
});
