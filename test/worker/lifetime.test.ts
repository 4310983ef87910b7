/** The worker's lifetime helpers on fakeBrowser: one watchdog alarm, one menu item, keep-alive only while busy. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  ensureMenus,
  ensureWatchdog,
  KEEP_ALIVE_MS,
  MENU_TRACK,
  startKeepAlive,
  WATCHDOG_ALARM,
  WATCHDOG_PERIOD_MINUTES,
} from '@/lib/worker/lifetime';

describe('worker lifetime', () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(() => vi.useRealTimers());

  it('creates the watchdog alarm only when it is missing', async () => {
    await ensureWatchdog(fakeBrowser as never);
    await ensureWatchdog(fakeBrowser as never);
    expect(await fakeBrowser.alarms.getAll()).toEqual([
      expect.objectContaining({ name: WATCHDOG_ALARM, periodInMinutes: WATCHDOG_PERIOD_MINUTES }),
    ]);
    await fakeBrowser.alarms.clear(WATCHDOG_ALARM);
    await ensureWatchdog(fakeBrowser as never);
    expect(await fakeBrowser.alarms.getAll()).toHaveLength(1);
  });

  it('replaces the menu items with the one "Track intent" item for selections', async () => {
    const calls: unknown[] = [];
    const fb = fakeBrowser as unknown as { contextMenus: Record<string, unknown> };
    fb.contextMenus.removeAll = async () => calls.push('removeAll');
    fb.contextMenus.create = (item: unknown) => calls.push(item);
    await ensureMenus(fakeBrowser as never);
    expect(calls).toEqual(['removeAll', { id: MENU_TRACK, title: 'Track intent', contexts: ['selection'] }]);
  });

  it('calls an extension API every 20 s while busy, and stops when told', async () => {
    vi.useFakeTimers();
    let pings = 0;
    const fb = fakeBrowser as unknown as { runtime: Record<string, unknown> };
    fb.runtime.getPlatformInfo = async () => {
      pings++;
      return { os: 'linux', arch: 'x86-64' };
    };
    let busy = false;
    const stop = startKeepAlive(fakeBrowser as never, () => busy);
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS);
    expect(pings).toBe(0);
    busy = true;
    await vi.advanceTimersByTimeAsync(2 * KEEP_ALIVE_MS);
    expect(pings).toBe(2);
    stop();
    await vi.advanceTimersByTimeAsync(2 * KEEP_ALIVE_MS);
    expect(pings).toBe(2);
  });
});
