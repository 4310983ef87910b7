/**
 * Tracking a list at once (`track-many`, import): 5,000 ids in one store transaction with one listing, repeats and
 * invalid ids reported, removal marks lifted in one write, imported intents that had ended never notified again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { IntentStore, TrackedIntent } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { realClock } from '@/lib/time/clock';
import { Tracker } from '@/lib/tracker/engine';
import type { ReceiptTransport } from '@/lib/tracker/types';
import { MAX_FINISHED } from '@/lib/worker/track';
import { createTrackList, MAX_REPORTED_INVALID } from '@/lib/worker/track-many';
import { memoryTracker } from './helpers';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** Counts every call of each IntentStore method. */
function countingStore() {
  const inner = new MemoryStore();
  const calls: Record<string, number> = {};
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || name === 'constructor') return value;
      return (...args: unknown[]) => {
        calls[String(name)] = (calls[String(name)] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as MemoryStore & IntentStore;
  return { store, inner, calls };
}

/** A tracker whose transport never answers: the pump waits on it and writes nothing of its own. */
function setUp(transport: () => Promise<ReceiptTransport | undefined> = () => new Promise(() => {})) {
  const { store: counted, inner, calls } = countingStore();
  const { tracker } = memoryTracker(transport, counted);
  const listed = { count: 0 };
  const list = tracker.list.bind(tracker);
  tracker.list = () => {
    listed.count++;
    return list();
  };
  const marks = { deleteMany: vi.fn(async (_ids: readonly string[]) => {}) };
  return { tracker, store: inner, calls, listed, marks, trackList: createTrackList(tracker, marks) };
}

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('createTrackList', () => {
  it('tracks 5,000 ids with one store transaction, one load, one listing and one marks write', async () => {
    const { tracker, store, calls, listed, marks, trackList } = setUp();
    stop = () => tracker.stop();
    const ids = Array.from({ length: 5_000 }, (_, i) => hex(i));
    const result = await trackList(
      ids.map((intentId) => ({ intentId })),
      { source: 'user' },
    );
    expect(result.added).toHaveLength(5_000);
    expect(result.already).toBe(0);
    expect(store.map.size).toBe(5_000);
    await vi.waitFor(() => expect(listed.count).toBe(1));
    // Per id: no update, get or put of its own; the store is listed once (the tracker's load), written once.
    expect(calls).toEqual({ list: 1, updateMany: 1 });
    expect(marks.deleteMany).toHaveBeenCalledTimes(1);
    expect(marks.deleteMany.mock.calls[0]?.[0]).toHaveLength(5_000);
    expect(store.map.get(hex(4_999))).toMatchObject({ phase: 'tracking', notification: 'none', source: 'user' });
  });

  it('counts repeats once and ids tracked already as such, and reports invalid ones (the first 100, all counted)', async () => {
    const { tracker, store, trackList } = setUp();
    stop = () => tracker.stop();
    await tracker.track(hex(1));
    const bad = Array.from({ length: MAX_REPORTED_INVALID + 5 }, (_, i) => `bad id ${i}`);
    const result = await trackList(
      [hex(1), hex(2), hex(2).toUpperCase().replace('0X', '0x'), hex(3), ...bad].map((intentId) => ({ intentId })),
    );
    expect(result.added).toEqual([hex(2), hex(3)]);
    expect(result.already).toBe(1);
    expect(result.invalidCount).toBe(MAX_REPORTED_INVALID + 5);
    expect(result.invalid).toHaveLength(MAX_REPORTED_INVALID);
    expect(result.invalid[0]).toEqual({ text: 'bad id 0', message: 'An intent ID has no spaces.' });
    expect([...store.map.keys()].sort()).toEqual([hex(1), hex(2), hex(3)]);
  });

  it('tracks a stopped intent again, and prunes the finished beyond the kept number once', async () => {
    const { tracker, store, listed, trackList } = setUp();
    stop = () => tracker.stop();
    const final = (n: number): TrackedIntent => ({
      intentId: hex(n),
      addedAt: n,
      notifiedAt: 1_000 + n,
      lastStates: [],
      phase: 'final',
      status: 'SUCCEEDED',
      notification: 'shown',
    });
    for (let i = 0; i < MAX_FINISHED + 2; i++) await store.put(final(i));
    await store.put({ ...final(9_999), phase: 'not-found', status: undefined, notification: 'none' });
    const result = await trackList([{ intentId: hex(9_999) }, { intentId: hex(10_000) }]);
    expect(result.added).toEqual([hex(10_000)]);
    expect(result.already).toBe(1);
    expect(store.map.get(hex(9_999))?.phase).toBe('tracking');
    await vi.waitFor(() => expect([...store.map.values()].filter((t) => t.phase === 'final')).toHaveLength(MAX_FINISHED));
    expect(listed.count).toBe(1);
    expect(store.map.has(hex(0))).toBe(false);
  });

  it('writes nothing and rejects when the store refuses the transaction', async () => {
    const { tracker, store, trackList } = setUp();
    stop = () => tracker.stop();
    store.updateMany = async () => {
      throw new DOMException('disk full', 'QuotaExceededError');
    };
    await expect(trackList([{ intentId: hex(1) }, { intentId: hex(2) }])).rejects.toThrow('disk full');
    expect(store.map.size).toBe(0);
    expect(await tracker.list()).toEqual([]);
  });
});

describe('an imported intent', () => {
  const receipt = (intentId: string, status: string) => ({ intentId, status }) as unknown as IntentReceipt;

  it('that had ended is confirmed by one read and never notified again; one in flight is notified when it ends', async () => {
    const shown: string[] = [];
    const answers = new Map([
      [hex(1), 'SUCCEEDED'],
      [hex(2), 'SUCCEEDED'],
    ]);
    const transport: ReceiptTransport = {
      getIntentReceipt: async ({ intentId }) => ({ intentReceipt: receipt(intentId, answers.get(intentId) ?? 'EXECUTING') }),
      waitIntentReceipt: async ({ intentId }) => ({ intentReceipt: receipt(intentId, answers.get(intentId) ?? 'EXECUTING'), done: true }),
    };
    const store = new MemoryStore();
    const tracker = new Tracker({
      store,
      stateStore: new MemoryStateStore(),
      clock: realClock,
      transport: async () => transport,
      notifier: {
        show: async (t) => {
          shown.push(t.intentId);
          return { title: 't', message: 'm' };
        },
        exists: async () => false,
      },
    });
    stop = () => tracker.stop();
    const trackList = createTrackList(tracker);
    const result = await trackList([
      { intentId: hex(1), seed: { status: 'SUCCEEDED', notifiedAt: 5_000, addedAt: 4_000, receipt: receipt(hex(1), 'SUCCEEDED') } },
      { intentId: hex(2), seed: { status: 'EXECUTING', addedAt: 4_000 } },
    ]);
    expect(result.added).toEqual([hex(1), hex(2)]);
    expect(store.map.get(hex(1))).toMatchObject({ addedAt: 4_000, notifiedAt: 5_000, notification: 'shown', seen: true });
    await vi.waitFor(() => expect(store.map.get(hex(1))?.phase).toBe('final'));
    await vi.waitFor(() => expect(store.map.get(hex(2))?.phase).toBe('final'));
    await vi.waitFor(() => expect(shown).toEqual([hex(2)]));
    expect(store.map.get(hex(1))?.notification).toBe('shown');
  });
});
