import { IDBFactory } from 'fake-indexeddb';
import { createStore, get } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore, readSyncItems } from '@/lib/store/sync';
import {
  createSeenMemory,
  createSyncSeenStore,
  mergeSyncSeen,
  readSyncSeen,
  SYNC_SEEN_KEY,
  type SyncSeenStore,
  seenFallback,
} from '@/lib/store/sync-seen';

const ME = `0x${'a1'.repeat(20)}`;
const base: Settings = {
  baseUrl: 'https://svc.example.test',
  accessKey: 'k',
  watchedAddresses: [ME],
  notify: { succeeded: true, failed: true, refunded: true, stuck: true, sound: true },
};
const MALFORMED_TICKS = { 'settings.autoTrackAddresses': { parts: 2 ** 32 } };

/** The real time of the test (ms); each device reads it through its own skew. */
let real = 1_800_000_000_000;
let warn: ReturnType<typeof vi.spyOn>;

/** A device: its own IndexedDB (settings and the record of last synced values), the shared sync area, its own clock. */
function device(name: string, opts: { skewMs?: number; seen?: SyncSeenStore | null } = {}) {
  const db = createStore(`seen-${name}`, 'settings');
  const seen = opts.seen === null ? undefined : createSeenMemory(opts.seen ?? createSyncSeenStore(db));
  const store = createSyncedSettingsStore(
    createSettingsStore(db),
    fakeBrowser.storage.sync,
    () => real + (opts.skewMs ?? 0),
    Math.random,
    seen,
  );
  return { store, db };
}

beforeEach(() => {
  fakeBrowser.reset();
  globalThis.indexedDB = new IDBFactory();
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  return () => warn.mockRestore();
});

describe('a malformed synced item falls back to the last well-formed synced value, not to this device’s own older save', () => {
  it('an untick synced from another device stays unticked when a malformed autoTrackAddresses follows it (seed 20261130 run 21095)', async () => {
    const desk = device('desk');
    // The laptop's clock is 10 minutes slow: no wall clock decides.
    const laptop = device('laptop', { skewMs: -10 * 60_000 });
    await desk.store.set({ ...base, autoTrackAddresses: [ME] });
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([ME]);
    real += 211_000;
    const seenByLaptop = (await laptop.store.get())!;
    await laptop.store.set({ ...seenByLaptop, autoTrackAddresses: [] });
    // The desk's worker reads the untick (its check, a minute later).
    real += 60_000;
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([]);
    // A third device writes the list malformed; the version item stays the laptop's.
    real += 300_000;
    await fakeBrowser.storage.sync.set(MALFORMED_TICKS);
    const read = await desk.store.get();
    expect(read?.autoTrackAddresses).toEqual([]);
    expect(read?.watchedAddresses).toEqual([ME]);
    expect(warn.mock.calls.flat().join(' ')).toContain('settings.autoTrackAddresses');
  });

  it('a notify written malformed reads as the quiet hours last synced from another device', async () => {
    const desk = device('desk');
    const laptop = device('laptop');
    await desk.store.set(base);
    const quiet = { ...base.notify!, quietHours: { start: '22:00', end: '07:00' } };
    await laptop.store.set({ ...(await laptop.store.get())!, notify: quiet });
    expect((await desk.store.get())?.notify).toEqual(quiet);
    await fakeBrowser.storage.sync.set({ 'settings.notify': 'loud' });
    expect((await desk.store.get())?.notify).toEqual(quiet);
  });

  it('a split list whose parts went missing reads as the whole list last synced', async () => {
    const desk = device('desk');
    const laptop = device('laptop');
    await desk.store.set(base);
    const many = Array.from({ length: 400 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    await laptop.store.set({ ...(await laptop.store.get())!, watchedAddresses: many });
    const header = (await fakeBrowser.storage.sync.get('settings.watchedAddresses'))['settings.watchedAddresses'] as { parts: number };
    expect(header.parts).toBeGreaterThan(1);
    expect((await desk.store.get())?.watchedAddresses).toEqual(many);
    await fakeBrowser.storage.sync.remove([`settings.watchedAddresses#${header.parts - 1}`]);
    expect((await desk.store.get())?.watchedAddresses).toEqual(many);
    // The record is in this device's IndexedDB, not in storage.sync: nothing more is synced.
    expect(Object.keys(await fakeBrowser.storage.sync.get(null)).some((k) => k.includes('seen'))).toBe(false);
    expect(readSyncSeen(await get(SYNC_SEEN_KEY, desk.db)).watchedAddresses?.value).toEqual(many);
  });

  it('this device’s own save made after the last synced value it read stands for a malformed item', async () => {
    const desk = device('desk');
    const laptop = device('laptop');
    await desk.store.set({ ...base, autoTrackAddresses: [ME] });
    await laptop.store.set({ ...(await laptop.store.get())!, autoTrackAddresses: [] });
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([]);
    // The desk ticks it again, and a malformed list arrives before its next read.
    await desk.store.set({ ...base, autoTrackAddresses: [ME] });
    await fakeBrowser.storage.sync.set(MALFORMED_TICKS);
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([ME]);
  });

  it('a record that cannot be written is let go and written at the next read; one that cannot be read leaves this device’s copy', async () => {
    const db = createStore('seen-desk', 'settings');
    const kept = createSyncSeenStore(db);
    let refuse = 0;
    let unreadable = false;
    const flaky: SyncSeenStore = {
      get: () => (unreadable ? Promise.reject(new Error('UnknownError')) : kept.get()),
      update: (fn) => (refuse-- > 0 ? Promise.reject(new DOMException('full', 'QuotaExceededError')) : kept.update(fn)),
    };
    const desk = device('desk', { seen: flaky });
    const laptop = device('laptop');
    await desk.store.set({ ...base, autoTrackAddresses: [ME] });
    await laptop.store.set({ ...(await laptop.store.get())!, autoTrackAddresses: [] });
    // The read that brings the untick cannot keep it; the settings still read.
    refuse = 1;
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([]);
    expect(readSyncSeen(await get(SYNC_SEEN_KEY, db)).autoTrackAddresses).toBeUndefined();
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([]);
    expect(readSyncSeen(await get(SYNC_SEEN_KEY, db)).autoTrackAddresses?.value).toEqual([]);
    await fakeBrowser.storage.sync.set(MALFORMED_TICKS);
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([]);
    unreadable = true;
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([ME]);
  });

  it('without a record (none given) a malformed item leaves this device’s own copy, as before', async () => {
    const desk = device('desk', { seen: null });
    await desk.store.set({ ...base, autoTrackAddresses: [ME] });
    await fakeBrowser.storage.sync.set({ 'settings.autoTrackAddresses': [] });
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([]);
    await fakeBrowser.storage.sync.set(MALFORMED_TICKS);
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([ME]);
  });

  it('a read that brings nothing new writes nothing', async () => {
    const db = createStore('seen-desk', 'settings');
    const inner = createSyncSeenStore(db);
    const update = vi.fn(inner.update);
    const desk = device('desk', { seen: { get: inner.get, update } });
    await desk.store.set(base);
    await desk.store.get();
    const writes = update.mock.calls.length;
    await desk.store.get();
    await desk.store.get();
    expect(update.mock.calls.length).toBe(writes);
  });
});

describe('readSyncItems names the synced keys it could not read', () => {
  it('a bad part count, missing parts and a wrong shape are named; well-formed and absent keys are not', () => {
    const read = readSyncItems({
      'settings.autoTrackAddresses': { parts: 2 ** 32 },
      'settings.watchedAddresses': { parts: 2 },
      'settings.watchedAddresses#0': [ME],
      'settings.notify': 'loud',
      'settings.autoTrackTicks': [`${ME}:abcdefgh`],
    });
    expect(read.malformed.sort()).toEqual(['autoTrackAddresses', 'notify', 'watchedAddresses']);
    expect(read.synced).toEqual({ autoTrackTicks: [`${ME}:abcdefgh`] });
  });
});

describe('the record of last synced values', () => {
  const v = (counter: number) => ({ counter, device: 'd' });

  it('keeps a value read under a higher counter over one read under a lower counter, whatever order they come in', () => {
    const newer = mergeSyncSeen({}, { autoTrackAddresses: [] }, v(3));
    expect(mergeSyncSeen(newer, { autoTrackAddresses: [ME] }, v(2))).toBe(newer);
    expect(mergeSyncSeen(newer, { autoTrackAddresses: [ME] }, v(4)).autoTrackAddresses).toEqual({ value: [ME], counter: 4 });
    // The same counter: an item rewritten without a new version (the read after it is the newer).
    expect(mergeSyncSeen(newer, { autoTrackAddresses: [ME] }, v(3)).autoTrackAddresses).toEqual({ value: [ME], counter: 3 });
    expect(mergeSyncSeen(newer, { autoTrackAddresses: [] }, v(3))).toBe(newer);
    // Written by a version before the logical clock: counter 0.
    expect(mergeSyncSeen({}, { notify: base.notify }, undefined).notify?.counter).toBe(0);
  });

  it('believes only well-formed entries of known keys', () => {
    expect(
      readSyncSeen({
        autoTrackAddresses: { value: [ME], counter: 2 },
        notify: { value: 'loud', counter: 2 },
        watchedAddresses: { value: [ME], counter: -1 },
        autoTrackTicks: { value: [], counter: 1.5 },
        accessKey: { value: 'k', counter: 9 },
        baseUrl: null,
      }),
    ).toEqual({ autoTrackAddresses: { value: [ME], counter: 2 } });
    expect(readSyncSeen('nonsense')).toEqual({});
    expect(readSyncSeen([{ value: [], counter: 1 }])).toEqual({});
  });

  it('stands for a malformed key unless this device saved after reading it', () => {
    const seen = { autoTrackAddresses: { value: [], counter: 2 }, notify: { value: base.notify, counter: 1 } };
    expect(seenFallback(seen, ['autoTrackAddresses', 'notify', 'watchedAddresses'], 2)).toEqual({ autoTrackAddresses: [] });
    expect(seenFallback(seen, ['autoTrackAddresses'], 3)).toEqual({});
    expect(seenFallback(seen, ['notify'], 0)).toEqual({ notify: base.notify });
  });
});
