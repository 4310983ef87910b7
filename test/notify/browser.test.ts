import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBrowserNotifier, intentIdsOfNotification, wantsNotification } from '@/lib/notify/browser';
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
});
