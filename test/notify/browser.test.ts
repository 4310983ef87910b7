/**
 * The adapter over `browser.notifications` and the notification ids (lib/notify/browser.ts), on the fake desktop
 * with Chrome's and Firefox's semantics: what each call puts on screen (buttons, sound, priority), what each browser
 * can answer, and which intents an id stands for.
 */
import { describe, expect, it } from 'vitest';
import { createNotificationAdapter, intentIdOfNotification, intentIdsOfNotification } from '@/lib/notify/browser';
import { FakeDesktop } from './fake-desktop';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;
const words = { title: 'Intent succeeded · 0xaaaa…aaaa', message: 'Arbitrum One → Base: 5.00 USDC' };

function on(kind: 'chrome' | 'firefox') {
  const desktop = new FakeDesktop(kind, () => 0);
  const browser = desktop.worker();
  const adapter = createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: kind === 'firefox' });
  return { desktop, browser, adapter };
}

describe('notification ids', () => {
  it('one intent: its final outcome, its progress and its stuck warning', () => {
    for (const prefix of ['svc-intent:', 'svc-progress:', 'svc-stuck:']) {
      expect(intentIdsOfNotification(`${prefix}${A}:1700000000000`)).toEqual([A]);
      expect(intentIdOfNotification(`${prefix}${A}:1700000000000`)).toBe(A);
    }
  });

  it('a summary of intents that finished together stands for each, and for no single one', () => {
    expect(intentIdsOfNotification(`svc-group:1700000000000:${A},${B}`)).toEqual([A, B]);
    expect(intentIdOfNotification(`svc-group:1700000000000:${A},${B}`)).toBeUndefined();
  });

  it('ids without an intent: the away summary, information, a malformed or foreign id', () => {
    for (const id of [
      'svc-away:1700000000000',
      'svc-info:1700000000000:0',
      `svc-intent:${A}`,
      'svc-intent::5',
      'svc-group:17',
      'svc-group:17:',
      'other:1',
    ]) {
      expect(intentIdsOfNotification(id)).toEqual([]);
      expect(intentIdOfNotification(id)).toBeUndefined();
    }
  });
});

describe('the adapter in Chrome', () => {
  it('a final notification of one intent: "View receipt", "Open in explorer" when asked, high priority, the sound as set', async () => {
    const { desktop, adapter } = on('chrome');
    await adapter.create(`svc-intent:${A}:1`, words, { sound: true, explorer: true });
    expect(desktop.screen.get(`svc-intent:${A}:1`)).toEqual({
      type: 'basic',
      iconUrl: 'chrome-extension://svc/icon/128.png',
      ...words,
      priority: 2,
      silent: false,
      buttons: [{ title: 'View receipt' }, { title: 'Open in explorer' }],
    });
    await adapter.create(`svc-progress:${A}:2`, words, { sound: false });
    expect(desktop.screen.get(`svc-progress:${A}:2`)).toMatchObject({ silent: true, buttons: [{ title: 'View receipt' }] });
  });

  it('summaries and information get no button', async () => {
    const { desktop, adapter } = on('chrome');
    for (const id of [`svc-group:1:${A},${B}`, 'svc-away:1', 'svc-info:1:0']) {
      await adapter.create(id, words, { sound: true, explorer: true });
      expect(desktop.screen.get(id)).not.toHaveProperty('buttons');
      expect(desktop.screen.get(id)).toMatchObject({ priority: 2, silent: false });
    }
  });

  it('lists what is on screen; an update answers whether the notification was still there; clear removes it', async () => {
    const { desktop, adapter } = on('chrome');
    await adapter.create(`svc-progress:${A}:1`, words, { sound: false });
    expect(await adapter.onScreen()).toEqual(new Set([`svc-progress:${A}:1`]));
    const turned = { title: 'Intent failed · 0xaaaa…aaaa', message: 'Reason: slippage' };
    expect(await adapter.update(`svc-progress:${A}:1`, turned, { sound: true })).toBe(true);
    expect(desktop.log.at(-1)).toMatchObject({ how: 'update', ...turned });
    desktop.dismiss(`svc-progress:${A}:1`);
    expect(await adapter.update(`svc-progress:${A}:1`, turned, { sound: true })).toBe(false);
    expect(await adapter.onScreen()).toEqual(new Set());
    await adapter.create(`svc-intent:${A}:2`, words, { sound: true });
    await adapter.clear(`svc-intent:${A}:2`);
    expect(desktop.screen.size).toBe(0);
  });

  it('an update counts only when the browser answers true (an answer without a value is not "still shown")', async () => {
    const calls: string[] = [];
    const browser = {
      runtime: { getURL: (p: string) => `chrome-extension://svc${p}` },
      notifications: {
        update: async (id: string) => {
          calls.push(id);
          return undefined;
        },
      },
    };
    const adapter = createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: false });
    expect(await adapter.update(`svc-progress:${A}:1`, words, { sound: false })).toBe(false);
    expect(calls).toEqual([`svc-progress:${A}:1`]);
  });

  it('passes a rejected call on (the pipeline retries it)', async () => {
    const { browser, adapter } = on('chrome');
    browser.fail('create').fail('getAll').fail('clear');
    await expect(adapter.create('svc-info:1:0', words, { sound: true })).rejects.toThrow(/injected/);
    await expect(adapter.onScreen()).rejects.toThrow(/injected/);
    await expect(adapter.clear('svc-info:1:0')).rejects.toThrow(/injected/);
  });
});

describe('the adapter in Firefox', () => {
  it('the basic form only: no buttons, no priority, no sound setting', async () => {
    const { desktop, adapter } = on('firefox');
    desktop.firefoxForgets = false;
    await adapter.create(`svc-intent:${A}:1`, words, { sound: true, explorer: true });
    expect(desktop.screen.get(`svc-intent:${A}:1`)).toEqual({ type: 'basic', iconUrl: 'chrome-extension://svc/icon/128.png', ...words });
  });

  it('never calls update even where an update function is offered (WXT types it everywhere)', async () => {
    const chromeLike = new FakeDesktop('chrome', () => 0).worker();
    const adapter = createNotificationAdapter(chromeLike as never, { iconUrl: '/icon/128.png', firefox: true });
    expect(await adapter.update(`svc-progress:${A}:1`, words, { sound: false })).toBe(false);
    expect(chromeLike.calls).toEqual([]);
  });

  it('cannot tell what is on screen, and never updates in place', async () => {
    const { browser, adapter } = on('firefox');
    expect(await adapter.onScreen()).toBeUndefined();
    expect(await adapter.update(`svc-progress:${A}:1`, words, { sound: false })).toBe(false);
    expect(browser.calls).toEqual([]);
  });
});
