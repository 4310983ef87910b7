/**
 * The handler of each request type, on a real tracker (in memory) and the real client against the simulator over
 * HTTP: tracking, housekeeping, the popup's own reads (receipt, lookups) and a settings change.
 */
import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { ReplyOf } from '@/lib/messages';
import { createNotificationAdapter } from '@/lib/notify/browser';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import { createCalmStateStore, createReceiptCache, createRemovedIntents, createSettingsStore, type TrackedIntent } from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import { CALM_ALARM, createCalmAlarm } from '@/lib/worker/calm-alarm';
import { createClientCache } from '@/lib/worker/client-cache';
import { createMessageHandlers } from '@/lib/worker/message-handlers';
import { createTrackIntent } from '@/lib/worker/track';
import { createTrackList } from '@/lib/worker/track-many';
import { snapshotAt } from '../../simulator/lifecycle';
import { type Simulator, startSimulator } from '../../simulator/server';
import { memoryTracker } from './helpers';

const ID = `0x${'ab'.repeat(32)}`;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

let stop: (() => void) | undefined;
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  fakeBrowser.reset();
});
afterEach(() => stop?.());

/** The handlers over fresh stores; `configured` saves the simulator's URL and key. */
async function setUp(configured: boolean) {
  const settings = createSettingsStore();
  if (configured) await settings.set({ baseUrl: sim.url, accessKey: sim.accessKey });
  const clients = createClientCache(settings);
  const { tracker, store } = memoryTracker();
  stop = () => tracker.stop();
  const receipts = createReceiptCache();
  const log: string[] = [];
  const notify = async () => (await settings.get())?.notify;
  const calmState = createCalmStateStore();
  const calm = createNotificationPipeline({
    adapter: createNotificationAdapter(fakeBrowser as never, { iconUrl: '/icon/128.png', firefox: false }),
    outbox: createOutbox(createStore(`outbox-handlers-${Math.random()}`, 'jobs')),
    state: calmState,
    settings: notify,
    intent: (intentId) => store.get(intentId),
    scheduleRelease: createCalmAlarm(fakeBrowser as never),
  });
  const removed = createRemovedIntents();
  const handlers = createMessageHandlers({
    tracker,
    track: createTrackIntent(tracker, removed),
    trackList: createTrackList(tracker, removed),
    clients,
    receipts,
    removed,
    trackSelection: async (text): Promise<ReplyOf<'track-text'>> => {
      log.push(`selection ${text}`);
      return { ok: true, added: false, intentId: text };
    },
    updateBadge: async () => {
      log.push('badge');
    },
    checkWatched: async (force) => {
      log.push(`watched ${force}`);
      return 0;
    },
    calm,
  });
  return { handlers, tracker, store, clients, receipts, log, calmState, settings, removed };
}

describe('message handlers', () => {
  it('tracks typed intents as the user’s, with the estimated duration given', async () => {
    const { handlers, store } = await setUp(false);
    expect(await handlers.track({ type: 'track', intentId: ` ${ID} `, estimatedDuration: 90 })).toEqual({
      ok: true,
      added: true,
      intentId: ID,
    });
    expect(store.map.get(ID)).toMatchObject({ source: 'user', estimatedDuration: 90 });
    expect(await handlers.track({ type: 'track', intentId: 'no way' })).toEqual({ ok: false, message: 'An intent ID has no spaces.' });
  });

  it('tracks a list as the user’s in one request, lifting removal marks, and says what it did', async () => {
    const { handlers, store, removed } = await setUp(false);
    const other = `0x${'cd'.repeat(32)}`;
    await handlers.track({ type: 'track', intentId: ID });
    await removed.add([other]);
    expect(
      await handlers['track-many']({ type: 'track-many', intents: [ID, other, other, 'nope'].map((intentId) => ({ intentId })) }),
    ).toEqual({
      ok: true,
      added: 1,
      already: 1,
      invalid: [{ text: 'nope', message: 'That does not look like an intent ID (letters, digits, - and _ only).' }],
      invalidCount: 1,
    });
    expect(store.map.get(other)).toMatchObject({ source: 'user', phase: 'tracking' });
    expect(await removed.has(other)).toBe(false);
  });

  it('passes selected text to the menu’s action', async () => {
    const { handlers, log } = await setUp(false);
    await handlers['track-text']({ type: 'track-text', text: 'hello' });
    expect(log).toEqual(['selection hello']);
  });

  it('marks finished intents seen and updates the badge; removes one; clears the finished ones', async () => {
    const { handlers, store, log, removed } = await setUp(false);
    const done: TrackedIntent = { intentId: ID, addedAt: 1, lastStates: [], phase: 'final', status: 'FAILED', notification: 'shown' };
    const other = `0x${'cd'.repeat(32)}`;
    await store.put(done);
    await store.put({ ...done, intentId: other, phase: 'tracking', status: 'EXECUTING', notification: 'none' });
    expect(await handlers.seen({ type: 'seen' })).toEqual({ ok: true });
    expect(store.map.get(ID)?.seen).toBe(true);
    expect(log).toEqual(['badge']);
    expect(await handlers['clear-finished']({ type: 'clear-finished' })).toEqual({ ok: true });
    expect([...store.map.keys()]).toEqual([other]);
    expect(await handlers.remove({ type: 'remove', intentId: other })).toEqual({ ok: true });
    expect(store.map.size).toBe(0);
    // Both are remembered as removed by the user (the watched-address check leaves them alone) ...
    expect([await removed.has(ID), await removed.has(other)]).toEqual([true, true]);
    // ... until the user tracks one again by hand.
    await handlers.track({ type: 'track', intentId: other });
    expect([await removed.has(ID), await removed.has(other)]).toEqual([true, false]);
  });

  it('hands the popup the tracked intents from memory: the first screenful in its order, the ones a change named, or all', async () => {
    const { handlers, store } = await setUp(false);
    const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    // 30 intents added at 1..30 s; every tenth (10, 20, 30) still in flight.
    for (let n = 1; n <= 30; n++)
      await store.put({
        intentId: hex(n),
        addedAt: n * 1_000,
        lastStates: [],
        phase: n % 10 === 0 ? 'tracking' : 'final',
        status: n % 10 === 0 ? 'EXECUTING' : 'SUCCEEDED',
        notification: 'none',
      });
    const ids = (reply: ReplyOf<'tracked'>) => (reply.ok ? reply.intents.map((t) => t.intentId) : reply.message);
    const first = await handlers.tracked({ type: 'tracked', first: 5 });
    expect(ids(first)).toEqual([hex(30), hex(20), hex(10), hex(29), hex(28)]);
    expect(first).toMatchObject({ ok: true, total: 30 });
    expect(ids(await handlers.tracked({ type: 'tracked', intentIds: [hex(7), hex(99), hex(20)] }))).toEqual([hex(20), hex(7)]);
    const all = await handlers.tracked({ type: 'tracked' });
    expect(ids(all)).toEqual(Array.from({ length: 30 }, (_, i) => hex(30 - i)));
    await handlers.remove({ type: 'remove', intentId: hex(30) });
    expect(await handlers.tracked({ type: 'tracked', intentIds: [hex(30)] })).toEqual({ ok: true, intents: [], total: 29 });
  });

  it('hands the list its rows when it asks for rows: the receipt cut to what a row reads; whole records otherwise', async () => {
    const { handlers, store } = await setUp(false);
    const receipt = {
      intentId: ID,
      status: 'SUCCEEDED' as const,
      ownerAddress: `0x${'ab'.repeat(20)}`,
      originChainId: 8453,
      destinationChainId: 137,
      originTransaction: { chainId: 8453, status: 'SUCCEEDED' as const, txnHash: `0x${'cd'.repeat(32)}`, calldata: '0x1234' },
    };
    await store.put({ intentId: ID, addedAt: 1, receipt, status: 'SUCCEEDED', lastStates: [], phase: 'final', notification: 'shown' });
    const whole = await handlers.tracked({ type: 'tracked', intentIds: [ID] });
    const rows = await handlers.tracked({ type: 'tracked', intentIds: [ID], rows: true });
    const first = await handlers.tracked({ type: 'tracked', first: 5, rows: true });
    const all = await handlers.tracked({ type: 'tracked', rows: true });
    expect(whole.ok && whole.intents[0]?.receipt).toEqual(receipt);
    for (const reply of [rows, first, all]) {
      expect(reply.ok && reply.intents[0]?.receipt).toEqual({
        intentId: ID,
        status: 'SUCCEEDED',
        originChainId: 8453,
        destinationChainId: 137,
        originTransaction: { chainId: 8453, status: 'SUCCEEDED', txnHash: `0x${'cd'.repeat(32)}` },
      });
    }
  });

  it('asks for the settings when the popup reads something before they are saved', async () => {
    const { handlers } = await setUp(false);
    const notConfigured = { ok: false, message: 'Set the service URL and access key in the settings.', openSettings: true };
    expect(await handlers.receipt({ type: 'receipt', intentId: ID })).toEqual(notConfigured);
    expect(await handlers.lookup({ type: 'lookup', operation: 'getIntentHistory', request: {} })).toEqual(notConfigured);
  });

  it("a receipt read answered with another intent's receipt is refused, not kept (issue 20)", async () => {
    const { handlers, receipts, clients } = await setUp(true);
    const [intent, other] = [sim.intents()[7]!.intentId, sim.intents()[8]!.intentId];
    const real = (await clients.current('user'))!;
    // A caching proxy in between: every receipt read gets the other intent's receipt.
    clients.current = async () =>
      Object.assign(Object.create(real), {
        getIntentReceipt: () => real.getIntentReceipt({ intentId: other }),
      });
    const reply = await handlers.receipt({ type: 'receipt', intentId: intent });
    expect(reply).toMatchObject({ ok: false });
    expect(await receipts.get(intent)).toBeUndefined();
  });

  it('reads a receipt straight from the service and keeps it in the receipt cache', async () => {
    const { handlers, receipts } = await setUp(true);
    const intent = sim.intents()[7]!;
    const reply = await handlers.receipt({ type: 'receipt', intentId: intent.intentId });
    const expected = snapshotAt(intent, sim.now()).receipt as { status: string };
    expect(reply).toMatchObject({ ok: true, receipt: { intentId: intent.intentId, status: expected.status } });
    expect((await receipts.get(intent.intentId))?.receipt).toEqual(reply.ok ? reply.receipt : undefined);
    expect(await handlers.receipt({ type: 'receipt', intentId: ID })).toMatchObject({
      ok: false,
      message: expect.stringContaining('(8000)'),
    });
  });

  it('runs a lookup operation for the page, and words its error for the user', async () => {
    const { handlers } = await setUp(true);
    const reply = await handlers.lookup({ type: 'lookup', operation: 'getIntentHistory', request: { page: { pageSize: 3 } } });
    expect(reply.ok && (reply.data as { intents: unknown[] }).intents).toHaveLength(3);
    expect(await handlers.lookup({ type: 'lookup', operation: 'searchIntents', request: {} })).toMatchObject({
      ok: false,
      message: expect.stringContaining('(2000)'),
    });
  });

  it('after the settings are saved, builds a new client and checks the watched addresses at once', async () => {
    const { handlers, clients, log } = await setUp(true);
    const before = await clients.current('user');
    expect(await handlers['settings-saved']({ type: 'settings-saved' })).toEqual({ ok: true });
    expect(await clients.current('user')).not.toBe(before);
    expect(log).toEqual(['watched true']);
  });

  it('tests unsaved settings through the worker’s budget: the probe waits its turn, first in line, and tells the outcome', async () => {
    const { handlers, clients } = await setUp(false);
    // The worker's 4 places are taken (long-polls held by the server), and the user's own by another look-up.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = [...Array.from({ length: 4 }, () => clients.budget.run('tracker', () => held)), clients.budget.run('user', () => held)];
    const from = sim.requests().length;
    const testing = handlers['test-connection']({ type: 'test-connection', baseUrl: sim.url, accessKey: sim.accessKey });
    // Until the test is queued behind the held places (a fixed 50 ms could pass first on a loaded machine).
    await vi.waitFor(() => expect(clients.budget.waiting).toBe(1), { timeout: 10_000, interval: 10 });
    expect(sim.requests().length - from).toBe(0);
    release();
    await Promise.all(holders);
    expect(await testing).toMatchObject({ ok: true, data: { kind: 'ok' } });
    expect(
      sim
        .requests()
        .slice(from)
        .map((r) => r.operation),
    ).toEqual(['GetIntentReceipt']);
    expect(await handlers['test-connection']({ type: 'test-connection', baseUrl: sim.url, accessKey: 'wrong' })).toMatchObject({
      ok: true,
      data: { kind: 'key-rejected' },
    });
  });

  it('mutes and unmutes an intent; snoozes for an hour (with the alarm that ends it) and ends the snooze early', async () => {
    const { handlers, calmState } = await setUp(false);
    expect(await handlers.mute({ type: 'mute', intentId: ID, muted: true })).toEqual({ ok: true });
    expect((await calmState.get()).muted).toEqual([ID]);
    await handlers.mute({ type: 'mute', intentId: ID, muted: false });
    expect((await calmState.get()).muted).toEqual([]);

    const before = Date.now();
    expect(await handlers.snooze({ type: 'snooze' })).toEqual({ ok: true });
    const until = (await calmState.get()).snoozeUntil!;
    expect(until).toBeGreaterThanOrEqual(before + 60 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
    expect((await fakeBrowser.alarms.get(CALM_ALARM))?.scheduledTime).toBe(until);

    await handlers.snooze({ type: 'snooze', end: true });
    expect((await calmState.get()).snoozeUntil).toBeUndefined();
    expect(await fakeBrowser.alarms.get(CALM_ALARM)).toBeUndefined();
  });

  it('after the settings are saved without quiet hours, shows the summary of what they held', async () => {
    const { handlers, calmState, store } = await setUp(true);
    // The intent held, tracked (finished) as the version that held it left it.
    await store.put({
      intentId: ID,
      addedAt: Date.now() - 5000,
      lastStates: [],
      phase: 'final',
      notification: 'shown',
      status: 'REFUNDED',
    });
    await calmState.set({ muted: [], progress: {}, held: [{ intentId: ID, status: 'REFUNDED', heldAt: Date.now() - 1000 }] });
    await handlers['settings-saved']({ type: 'settings-saved' });
    const titles = async () =>
      Object.values(
        (fakeBrowser.notifications as unknown as { getAllCreateOptions(): Record<string, { title: string }> }).getAllCreateOptions(),
      ).map((n) => n.title);
    await expect.poll(titles).toEqual(['While you were away: 1 intent finished']);
    expect((await calmState.get()).held).toEqual([]);
  });
});
