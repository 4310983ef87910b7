import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { WATCHDOG_ALARM, WATCHDOG_PERIOD_MINUTES, createBackground } from '@/lib/background';

const ID = `0x${'cd'.repeat(32)}`;

describe('background services (fakeBrowser)', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    indexedDB.deleteDatabase('svc-intents');
    indexedDB.deleteDatabase('svc-settings');
  });

  it('ignores unknown and malformed messages', async () => {
    const bg = createBackground(fakeBrowser as never);
    expect(bg.handleMessage({ type: 'format-disk' })).toBeUndefined();
    expect(bg.handleMessage('track')).toBeUndefined();
    expect(bg.handleMessage({ type: 'track', intentId: 42 })).toBeUndefined();
    bg.tracker.stop();
  });

  it('refuses a bad intentId with a message and tracks a good one', async () => {
    const bg = createBackground(fakeBrowser as never);
    expect(await bg.handleMessage({ type: 'track', intentId: '<script>' })).toMatchObject({ ok: false });
    expect(await bg.handleMessage({ type: 'track', intentId: `  ${ID} ` })).toEqual({ ok: true, added: true, intentId: ID });
    expect(await bg.handleMessage({ type: 'track', intentId: ID })).toEqual({ ok: true, added: false, intentId: ID });
    const saved = await bg.intents.get(ID);
    expect(saved).toMatchObject({ intentId: ID, phase: 'tracking', notification: 'none' });
    // Not configured yet: the intent says so and is kept.
    await vi.waitFor(async () => expect((await bg.intents.get(ID))?.lastError?.kind).toBe('not-configured'));
    bg.tracker.stop();
  });

  it('creates the watchdog alarm once', async () => {
    const bg = createBackground(fakeBrowser as never);
    await bg.ensureWatchdog();
    await bg.ensureWatchdog();
    const alarms = await fakeBrowser.alarms.getAll();
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ name: WATCHDOG_ALARM, periodInMinutes: WATCHDOG_PERIOD_MINUTES });
    bg.tracker.stop();
  });

  it('opens the receipt of the intent behind a clicked notification', async () => {
    const bg = createBackground(fakeBrowser as never);
    await bg.openNotification(`svc-intent:${ID}:123`);
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.some((t) => t.url?.endsWith(`/popup.html#intent=${ID}`))).toBe(true);
    bg.tracker.stop();
  });
});
