/**
 * A disagreement between a chain and the service (issue 28) is a notification of its own kind in the one pipeline:
 * it names the intent, opens its receipt on a click, is told once per intent, kind and leg (also by a restarted
 * worker), is skipped for a muted intent, and through a snooze or quiet hours the urgent kind waits for their end
 * while the good news ("arrived before the service says so") is dropped.
 */
import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { CHAIN, createNotificationAdapter, intentIdOfNotification } from '@/lib/notify/browser';
import { chainNotice } from '@/lib/notify/chain';
import { decide } from '@/lib/notify/decide';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import { createCalmStateStore, DEFAULT_NOTIFY } from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import { createNotificationRouting } from '@/lib/worker/notification-routing';
import { trackedStandIn } from './desktop-harness';
import { FakeDesktop, type WorkerBrowser } from './fake-desktop';

const A = `0x${'a'.repeat(64)}`;
let db = 0;
/** A pipeline on `browser`; `sameStores` keeps the previous one's stores (a restarted worker). */
function pipelineOn(browser: WorkerBrowser, now: () => number, sameStores = false) {
  if (!sameStores) db++;
  return createNotificationPipeline({
    adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: browser.desktop.kind === 'firefox' }),
    outbox: createOutbox(createStore(`chain-outbox-${db}`, 'jobs')),
    state: createCalmStateStore(createStore(`chain-calm-${db}`, 'calm')),
    settings: async () => DEFAULT_NOTIFY,
    intent: trackedStandIn,
    scheduleRelease: async () => {},
    now,
    retryTimer: () => {},
  });
}

const receipt = IntentReceipt.parse({
  intentId: A,
  status: 'SUCCEEDED',
  originTransaction: { chainId: 42161, tokenAmount: '250000000' },
  destinationTransaction: { chainId: 8453 },
  summary: { originChainId: 42161, destinationChainId: 8453, originTokenMetadata: { symbol: 'USDC', decimals: 6 } },
});
const reverted = chainNotice(
  A,
  { kind: 'destination-reverted', leg: 'destination' },
  'Reverted on Base, though the service says it succeeded',
  receipt,
);
const arrived = chainNotice(A, { kind: 'arrived-early', leg: 'destination' }, 'Arrived on Base — the service has not caught up yet');

describe('the decision for a disagreement', () => {
  const none = { muted: [] as string[] };
  it('shows it; skips it for a muted intent; in a snooze holds the urgent kind and skips the good news', () => {
    const urgent = { kind: 'chain' as const, intentId: A, urgent: true };
    const good = { ...urgent, urgent: false };
    expect(decide(urgent, DEFAULT_NOTIFY, none, 1_000)).toBe('show');
    expect(decide(good, DEFAULT_NOTIFY, none, 1_000)).toBe('show');
    expect(decide(urgent, DEFAULT_NOTIFY, { muted: [A] }, 1_000)).toBe('skip');
    expect(decide(urgent, DEFAULT_NOTIFY, { ...none, snoozeUntil: 5_000 }, 1_000)).toBe('hold');
    expect(decide(good, DEFAULT_NOTIFY, { ...none, snoozeUntil: 5_000 }, 1_000)).toBe('skip');
  });
});

describe('disagreement notifications', () => {
  beforeEach(() => fakeBrowser.reset());

  it('names the intent and its route, offers View receipt, and a click opens the receipt', async () => {
    const desktop = new FakeDesktop('chrome', () => 1_000);
    const calm = pipelineOn(desktop.worker(), () => 1_000);
    await calm.showChain(reverted);
    await calm.resume();
    expect(desktop.log.map((c) => ({ title: c.title, message: c.message, buttons: c.buttons }))).toEqual([
      {
        title: 'On-chain check of 0xaaaa…aaaa',
        message: 'Reverted on Base, though the service says it succeeded\nArbitrum One → Base: 250.00 USDC',
        buttons: ['View receipt'],
      },
    ]);
    const id = desktop.log[0]!.id;
    expect(id.startsWith(CHAIN)).toBe(true);
    expect(intentIdOfNotification(id)).toBe(A);
    const opened: string[] = [];
    // A spy, restored after the test: the unit project's files share fakeBrowser (vitest.config.ts, `isolate: false`).
    vi.spyOn(fakeBrowser.tabs, 'create').mockImplementation((async (p: { url?: string }) => {
      opened.push(p.url ?? '');
      return {} as never;
    }) as never);
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    await createNotificationRouting(fakeBrowser as never, { get: async () => undefined }).openNotification(id);
    expect(opened.some((u) => u.endsWith(`/popup.html#intent=${A}`))).toBe(true);
  });

  it('is told once per intent, kind and leg, also by a restarted worker', async () => {
    const desktop = new FakeDesktop('firefox', () => 1_000);
    const first = pipelineOn(desktop.worker(), () => 1_000);
    await first.showChain(reverted);
    await first.showChain(reverted);
    await first.resume();
    const second = pipelineOn(desktop.worker(), () => 2_000, true);
    await second.showChain(reverted);
    await second.showChain(arrived);
    await second.resume();
    expect(desktop.log.map((c) => c.message.split('\n')[0])).toEqual([
      'Reverted on Base, though the service says it succeeded',
      'Arrived on Base — the service has not caught up yet',
    ]);
  });

  it('waits for the end of a snooze when urgent, and drops the good news', async () => {
    let t = 1_000;
    const desktop = new FakeDesktop('chrome', () => t);
    const calm = pipelineOn(desktop.worker(), () => t);
    await calm.snooze(60_000);
    await calm.showChain(arrived);
    await calm.showChain(reverted);
    await calm.resume();
    expect(desktop.log).toEqual([]);
    t += 60_001;
    await calm.resume();
    expect(desktop.log.map((c) => c.message.split('\n')[0])).toEqual(['Reverted on Base, though the service says it succeeded']);
  });

  it('is not shown for a muted intent', async () => {
    const desktop = new FakeDesktop('chrome', () => 1_000);
    const calm = pipelineOn(desktop.worker(), () => 1_000);
    await calm.mute(A, true);
    await calm.showChain(reverted);
    await calm.resume();
    expect(desktop.log).toEqual([]);
  });
});
