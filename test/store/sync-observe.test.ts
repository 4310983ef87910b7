import { IDBFactory } from 'fake-indexeddb';
import { createStore, get } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore } from '@/lib/store/sync';
import { keepSyncedChanges, type StorageChange } from '@/lib/store/sync-observe';
import { createSeenMemory, createSyncSeenStore, readSyncSeen, SYNC_SEEN_KEY } from '@/lib/store/sync-seen';

const ME = `0x${'a1'.repeat(20)}`;
const base: Settings = { baseUrl: 'https://svc.example.test', accessKey: 'k', watchedAddresses: [ME] };
const MALFORMED_TICKS = { 'settings.autoTrackAddresses': { parts: 2 ** 32 } };

describe('a synced value from another device is kept as it arrives by storage.onChanged', () => {
  /** What the listeners started, to wait for. */
  let pending: Promise<void>[];
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
    pending = [];
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    return () => vi.restoreAllMocks();
  });
  /** This device: its settings and record in its IndexedDB, the worker's listener on the shared sync area. */
  const desk = () => {
    const db = createStore('observe-desk', 'settings');
    const seen = createSeenMemory(createSyncSeenStore(db));
    const keep = keepSyncedChanges(fakeBrowser.storage.sync, seen);
    fakeBrowser.storage.onChanged.addListener((changes, area) => void pending.push(keep(changes as Record<string, StorageChange>, area)));
    return { db, store: createSyncedSettingsStore(createSettingsStore(db), fakeBrowser.storage.sync, () => 1_000, Math.random, seen) };
  };
  const laptop = () =>
    createSyncedSettingsStore(createSettingsStore(createStore('observe-laptop', 'settings')), fakeBrowser.storage.sync, () => 0);
  const settle = async () => {
    while (pending.length > 0) await Promise.all(pending.splice(0));
  };

  it('an untick replaced by a malformed list before this device read the settings again stays unticked', async () => {
    const here = desk();
    await here.store.set({ ...base, autoTrackAddresses: [ME] });
    expect((await here.store.get())?.autoTrackAddresses).toEqual([ME]);
    const other = laptop();
    await other.set({ ...(await other.get())!, autoTrackAddresses: [] });
    await settle();
    // No read of this device between the untick and the malformed list.
    await fakeBrowser.storage.sync.set(MALFORMED_TICKS);
    await settle();
    expect((await here.store.get())?.autoTrackAddresses).toEqual([]);
  });

  it('reads a change over what the area holds, under the change’s version; removals and other areas are let go', async () => {
    const here = desk();
    await here.store.set({ ...base, autoTrackAddresses: [ME] });
    await settle();
    const before = readSyncSeen(await get(SYNC_SEEN_KEY, here.db));
    const keep = keepSyncedChanges(fakeBrowser.storage.sync, createSeenMemory(createSyncSeenStore(here.db)));
    await keep({ 'settings.autoTrackAddresses': { newValue: [] } }, 'local');
    await keep({ 'settings.autoTrackAddresses': {} }, 'sync');
    await keep({ chainPreferences: { newValue: {} } }, 'sync');
    expect(readSyncSeen(await get(SYNC_SEEN_KEY, here.db))).toEqual(before);
    await keep({ 'settings.autoTrackAddresses': { newValue: [] }, 'settings.$version': { newValue: { counter: 7, device: 'x' } } }, 'sync');
    const after = readSyncSeen(await get(SYNC_SEEN_KEY, here.db));
    expect(after.autoTrackAddresses).toEqual({ value: [], counter: 7 });
    expect(after.watchedAddresses).toEqual({ value: before.watchedAddresses?.value, counter: 7 });
  });

  it('a split list of which only some parts changed is read over the parts the area holds', async () => {
    const here = desk();
    const many = Array.from({ length: 400 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    await here.store.set({ ...base, watchedAddresses: many });
    await settle();
    const changed = [...many.slice(0, 399), ME];
    const items = (await fakeBrowser.storage.sync.get(null)) as Record<string, unknown>;
    const parts = (items['settings.watchedAddresses'] as { parts: number }).parts;
    const last = `settings.watchedAddresses#${parts - 1}`;
    const lastPart = [...(items[last] as string[]).slice(0, -1), ME];
    await fakeBrowser.storage.sync.set({ [last]: lastPart, 'settings.$version': { counter: 9, device: 'laptop' } });
    await settle();
    expect(readSyncSeen(await get(SYNC_SEEN_KEY, here.db)).watchedAddresses).toEqual({ value: changed, counter: 9 });
  });

  it('a refused read of the area or write of the record is let go', async () => {
    const here = desk();
    await here.store.set(base);
    const refusing = { ...fakeBrowser.storage.sync, get: () => Promise.reject(new Error('sync unavailable')) };
    const keep = keepSyncedChanges(refusing, createSeenMemory(createSyncSeenStore(here.db)));
    await expect(keep({ 'settings.autoTrackAddresses': { newValue: [] } }, 'sync')).resolves.toBeUndefined();
    const full = { get: async () => undefined, update: () => Promise.reject(new DOMException('full', 'QuotaExceededError')) };
    await expect(
      keepSyncedChanges(fakeBrowser.storage.sync, createSeenMemory(full))({ 'settings.autoTrackAddresses': { newValue: [] } }, 'sync'),
    ).resolves.toBeUndefined();
  });
});
