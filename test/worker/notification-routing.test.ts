/** Clicks on notifications (fakeBrowser): the receipt of their intent, the tracked list for a summary, the explorer. */
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createIntentStore } from '@/lib/store';
import { createNotificationRouting } from '@/lib/worker/notification-routing';

const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;
const HASH = `0x${'12'.repeat(32)}`;
// fakeBrowser starts with one blank tab.
const tabUrls = async () => (await fakeBrowser.tabs.query({})).map((t) => t.url ?? '').filter(Boolean);

describe('createNotificationRouting', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });

  it('opens the receipt of a single intent, the tracked list for a summary, and nothing for other ids', async () => {
    const routing = createNotificationRouting(fakeBrowser as never, createIntentStore());
    await routing.openNotification(`svc-intent:${A}:1`);
    await routing.openNotification(`svc-group:2:${A},${B}`);
    await routing.openNotification('svc-info:3');
    const urls = await tabUrls();
    expect(urls.filter((u) => u.endsWith(`/popup.html#intent=${A}`))).toHaveLength(1);
    expect(urls.filter((u) => u.endsWith('/popup.html'))).toHaveLength(1);
    expect(urls.filter((u) => u.includes('popup.html'))).toHaveLength(2);
  });

  it('opens the popup for the "while you were away" summary, and the receipt for a progress notification', async () => {
    const routing = createNotificationRouting(fakeBrowser as never, createIntentStore());
    await fakeBrowser.notifications.create('svc-away:5', { type: 'basic', iconUrl: '', title: 't', message: 'm' });
    await routing.openNotification('svc-away:5');
    await routing.openNotification(`svc-progress:${A}:6`);
    const urls = await tabUrls();
    expect(urls.filter((u) => u.endsWith('/popup.html'))).toHaveLength(1);
    expect(urls.filter((u) => u.endsWith(`/popup.html#intent=${A}`))).toHaveLength(1);
    expect(Object.keys(await fakeBrowser.notifications.getAll())).toEqual([]);
  });

  it('button 0 opens the receipt; button 1 the explorer page of the leg that settled', async () => {
    const intents = createIntentStore();
    await intents.put({
      intentId: A,
      addedAt: 1,
      lastStates: [],
      phase: 'final',
      notification: 'shown',
      status: 'SUCCEEDED',
      receipt: { intentId: A, status: 'SUCCEEDED', destinationTransaction: { chainId: 8453, status: 'SUCCEEDED', txnHash: HASH } },
    });
    const routing = createNotificationRouting(fakeBrowser as never, intents);
    await routing.notificationButton(`svc-intent:${A}:1`, 0);
    await routing.notificationButton(`svc-intent:${A}:1`, 1);
    // An intent no longer tracked, whose notification kept no link: its receipt page (looked up by id).
    await routing.notificationButton(`svc-intent:${B}:1`, 1);
    expect(await tabUrls()).toEqual([
      expect.stringMatching(new RegExp(`/popup\\.html#intent=${A}$`)),
      `https://basescan.org/tx/${HASH}`,
      expect.stringMatching(new RegExp(`/popup\\.html#intent=${B}$`)),
    ]);
  });
});

describe('a click whose notification cannot be cleared (the notifications API refuses)', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });

  it('still opens the page it says and does not reject: body, View receipt, Open in explorer, the away summary', async () => {
    const browser = {
      ...fakeBrowser,
      notifications: { ...fakeBrowser.notifications, clear: () => Promise.reject(new Error('clear failed')) },
    };
    // The intent was removed since: no record, no kept link.
    const routing = createNotificationRouting(browser as never, createIntentStore(), async () => undefined);
    await expect(routing.openNotification(`svc-intent:${A}:1`)).resolves.toBeUndefined();
    await expect(routing.notificationButton(`svc-intent:${A}:1`, 0)).resolves.toBeUndefined();
    await expect(routing.notificationButton(`svc-intent:${A}:1`, 1)).resolves.toBeUndefined();
    await expect(routing.openNotification('svc-away:2')).resolves.toBeUndefined();
    const urls = await tabUrls();
    expect(urls.filter((u) => u.endsWith(`/popup.html#intent=${A}`))).toHaveLength(3);
    expect(urls.filter((u) => u.endsWith('/popup.html'))).toHaveLength(1);
  });
});
