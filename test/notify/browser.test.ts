import { createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBrowserNotifier, intentIdsOfNotification, wantsNotification } from '@/lib/notify/browser';
import { createNotificationMarks } from '@/lib/notify/marks';
import { DEFAULT_NOTIFY, type NotifySettings, type TrackedIntent } from '@/lib/store';

const id = (n: number) => `0x${String(n).padStart(64, '0')}`;
const HASH = `0x${'ab'.repeat(32)}`;
const intent = (n: number, status: string): TrackedIntent => ({
  intentId: id(n),
  addedAt: 0,
  lastStates: [],
  phase: 'final',
  notification: 'pending',
  status,
  receipt: {
    intentId: id(n),
    status,
    originChainId: 42161,
    destinationChainId: 8453,
    destinationTransaction: { chainId: 8453, status: 'SUCCEEDED', txnHash: HASH },
    summary: { originTokenAmount: '1000000', originTokenMetadata: { symbol: 'USDC', decimals: 6 } },
  },
});

type Created = Record<string, { title: string; message: string; buttons?: Array<{ title: string }>; silent?: boolean }>;
const created = () => (fakeBrowser.notifications as unknown as { getAllCreateOptions(): Created }).getAllCreateOptions();

describe('browser notifier', () => {
  let settings: NotifySettings;
  beforeEach(() => {
    fakeBrowser.reset();
    settings = { ...DEFAULT_NOTIFY };
  });
  afterEach(() => vi.useRealTimers());
  const make = (firefox = false) =>
    createBrowserNotifier(fakeBrowser as never, { iconUrl: '/icon/128.png', firefox, settings: async () => settings, groupWindowMs: 100 });

  it('shows the first at once with both buttons on Chrome, and groups those that follow into one summary', async () => {
    const n = make();
    await n.show(intent(1, 'SUCCEEDED'));
    expect(Object.keys(created())).toHaveLength(1);
    const first = Object.values(created())[0]!;
    expect(first.buttons?.map((b) => b.title)).toEqual(['View receipt', 'Open in explorer']);
    await Promise.all([2, 3, 4, 5].map((k) => n.show(intent(k, k === 5 ? 'FAILED' : 'SUCCEEDED'))));
    const all = created();
    expect(Object.keys(all)).toHaveLength(2);
    const groupId = Object.keys(all).find((k) => k.startsWith('svc-group:'))!;
    expect(intentIdsOfNotification(groupId)).toEqual([id(2), id(3), id(4), id(5)]);
    expect(all[groupId]!.title).toBe('4 intents finished: 3 succeeded, 1 failed');
    for (const k of [1, 2, 5]) expect(await n.exists(id(k))).toBe(true);
    expect(await n.exists(id(9))).toBe(false);
  });

  it('shows what is held once none came for 100 ms, once per window; later ones when the 500 ms window closes', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const n = createBrowserNotifier(fakeBrowser as never, { iconUrl: '/icon/128.png', firefox: false, settings: async () => settings });
    const ids = () => Object.keys(created()).map(intentIdsOfNotification);
    await n.show(intent(1, 'SUCCEEDED'));
    expect(ids()).toEqual([[id(1)]]);
    // Rows of one history page, 10 ms apart: shown together 100 ms after the last, not when the window closes.
    const page: Array<Promise<unknown>> = [];
    for (const k of [2, 3, 4]) {
      await vi.advanceTimersByTimeAsync(10);
      page.push(n.show(intent(k, 'SUCCEEDED')));
    }
    await vi.advanceTimersByTimeAsync(99);
    expect(ids()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(page);
    expect(ids()).toEqual([[id(1)], [id(2), id(3), id(4)]]);
    // The window's quiet flush is spent: one more at 200 ms waits for the window's end (500 ms after the first).
    await vi.advanceTimersByTimeAsync(70);
    const late = n.show(intent(5, 'FAILED'));
    await vi.advanceTimersByTimeAsync(299);
    expect(ids()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await late;
    expect(ids()).toEqual([[id(1)], [id(2), id(3), id(4)], [id(5)]]);
    // After the window: at once again.
    await n.show(intent(6, 'SUCCEEDED'));
    expect(ids()).toHaveLength(4);
  });

  it('uses the basic form on Firefox', async () => {
    await make(true).show(intent(1, 'SUCCEEDED'));
    expect(Object.values(created())[0]!.buttons).toBeUndefined();
  });

  it('respects the outcome and sound settings', async () => {
    settings = { ...DEFAULT_NOTIFY, succeeded: false, sound: false };
    const n = make();
    expect(await n.show(intent(1, 'SUCCEEDED'))).toBeUndefined();
    expect(Object.keys(created())).toHaveLength(0);
    await n.show(intent(2, 'FAILED'));
    expect(Object.values(created())[0]!.silent).toBe(true);
    expect(wantsNotification('REFUNDED', DEFAULT_NOTIFY)).toBe(true);
    expect(wantsNotification('ABORTED', { ...DEFAULT_NOTIFY, refunded: false })).toBe(false);
  });

  it('shows the stuck warning unless switched off', async () => {
    const n = make();
    const executing = { ...intent(1, 'EXECUTING'), phase: 'tracking' as const };
    await n.showStuck(executing, 17);
    const [only] = Object.values(created());
    expect(only!.title).toBe(`Taking longer than expected · 0x0000…0001`);
    expect(only!.message).toContain('Executing for over 17 min. Waiting on the deposit leg (not started).');
    settings = { ...DEFAULT_NOTIFY, stuck: false };
    await n.showStuck(executing, 20);
    expect(Object.keys(created())).toHaveLength(1);
  });

  it('delivers held notifications when the settings read fails at flush time (defaults apply)', async () => {
    let reads = 0;
    const n = createBrowserNotifier(fakeBrowser as never, {
      iconUrl: '/icon/128.png',
      firefox: false,
      groupWindowMs: 50,
      settings: async () => {
        reads++;
        // The first two reads (show of the first, show of the held one) work; the flush's read fails.
        if (reads > 2) throw new Error('IndexedDB closed');
        return settings;
      },
    });
    await n.show(intent(1, 'SUCCEEDED'));
    const held = n.show(intent(2, 'FAILED'));
    const timedOut = new Promise((resolve) => setTimeout(() => resolve('still pending after 2 s'), 2000));
    const outcome = await Promise.race([held.then((c) => c?.title), timedOut]);
    expect(outcome).toBe('Intent failed · 0x0000…0002');
    expect(Object.keys(created()).filter((k) => intentIdsOfNotification(k).includes(id(2)))).toHaveLength(1);
    // The default settings have sound on: Chrome's `silent` is false.
    expect(Object.values(created()).at(-1)!.silent).toBe(false);
  });

  it('falls back to the default settings when the read fails before showing', async () => {
    const n = createBrowserNotifier(fakeBrowser as never, {
      iconUrl: '/icon/128.png',
      firefox: false,
      settings: () => Promise.reject(new Error('IndexedDB closed')),
    });
    expect((await n.show(intent(1, 'SUCCEEDED')))?.title).toBe('Intent succeeded · 0x0000…0001');
    expect(Object.keys(created())).toHaveLength(1);
  });

  describe('on Firefox, "already shown?" comes from marks written before the notification is created', () => {
    let db = 0;
    const marks = () => createNotificationMarks(createStore(`marks-test-${++db}`, 'marks'));

    it('answers from the marks, not from notifications.getAll()', async () => {
      const m = marks();
      const n = createBrowserNotifier(fakeBrowser as never, {
        iconUrl: '/icon/128.png',
        firefox: true,
        marks: m,
        settings: async () => settings,
        groupWindowMs: 50,
      });
      await n.show(intent(1, 'SUCCEEDED'));
      await Promise.all([n.show(intent(2, 'SUCCEEDED')), n.show(intent(3, 'FAILED'))]);
      // Firefox forgets notifications that left the screen: the marks still know.
      for (const id of Object.keys(created())) await fakeBrowser.notifications.clear(id);
      expect(Object.keys(await fakeBrowser.notifications.getAll())).toHaveLength(0);
      for (const k of [1, 2, 3]) expect(await n.exists(id(k))).toBe(true);
      expect(await n.exists(id(4))).toBe(false);
    });

    it('marks before creating: a create that fails (or a worker killed in between) leaves the intent counted as shown', async () => {
      const m = marks();
      const failing = {
        ...fakeBrowser,
        notifications: { ...fakeBrowser.notifications, create: () => Promise.reject(new Error('killed')) },
      };
      const n = createBrowserNotifier(failing as never, {
        iconUrl: '/icon/128.png',
        firefox: true,
        marks: m,
        settings: async () => settings,
      });
      await expect(n.show(intent(1, 'SUCCEEDED'))).rejects.toThrow('killed');
      expect(await n.exists(id(1))).toBe(true);
    });

    it('forget() drops the mark of an intent no longer tracked (the tracker calls it on remove)', async () => {
      const m = marks();
      const n = createBrowserNotifier(fakeBrowser as never, {
        iconUrl: '/icon/128.png',
        firefox: true,
        marks: m,
        settings: async () => settings,
      });
      await n.show(intent(1, 'SUCCEEDED'));
      expect(await n.exists(id(1))).toBe(true);
      await n.forget?.(id(1));
      expect(await n.exists(id(1))).toBe(false);
    });

    it('keeps the newest marks up to the cap, and forgets a removed intent', async () => {
      const m = createNotificationMarks(createStore(`marks-test-${++db}`, 'marks'), 3);
      for (let k = 1; k <= 5; k++) await m.add([id(k)], 1000 + k);
      expect(await Promise.all([1, 2, 3, 4, 5].map((k) => m.has(id(k))))).toEqual([false, false, true, true, true]);
      await m.remove(id(4));
      expect(await m.has(id(4))).toBe(false);
    });
  });
});
