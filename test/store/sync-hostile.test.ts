/**
 * Hostile tests of the last synced values (lib/store/sync-seen.ts, sync-observe.ts, sync.ts): a malformed synced item
 * reads as the last well-formed synced value this device saw, ordered by the version counters.
 */
import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore, SYNC_VERSION_ITEM } from '@/lib/store/sync';
import { keepSyncedChanges, type StorageChange } from '@/lib/store/sync-observe';
import { createSeenMemory, createSyncSeenStore } from '@/lib/store/sync-seen';

const ME = `0x${'a1'.repeat(20)}`;
const base: Settings = { baseUrl: 'https://svc.example.test', accessKey: 'k', watchedAddresses: [ME] };
const MALFORMED_TICKS = { 'settings.autoTrackAddresses': { parts: 2 ** 32 } };
const notify = (stuck: boolean) => ({ succeeded: true, failed: true, refunded: true, stuck, sound: true });

/** A device: its settings and record of last synced values in its own IndexedDB, over the shared sync area. */
function device(name: string) {
  const db = createStore(`sync-hostile-${name}`, 'settings');
  const seen = createSeenMemory(createSyncSeenStore(db));
  return { seen, store: createSyncedSettingsStore(createSettingsStore(db), fakeBrowser.storage.sync, () => 1_000, Math.random, seen) };
}

beforeEach(() => {
  fakeBrowser.reset();
  globalThis.indexedDB = new IDBFactory();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  return () => vi.restoreAllMocks();
});

describe('the last synced values under hostile sync areas', () => {
  // One version item with a counter at Number.MAX_SAFE_INTEGER (another install's bug, corrupt sync data) would never
  // be outranked: the next save's counter (2^53) unreadable, the one after from 1 again, the value kept at the huge
  // counter standing for every malformed item after, over the user's own later saves. A counter above 2^40 reads as
  // no version (lib/store/sync-values.ts MAX_SYNC_COUNTER).
  it('a huge version counter does not pin the fallback to its value over this device’s later saves', async () => {
    const desk = device('desk');
    await fakeBrowser.storage.sync.set({
      'settings.notify': notify(true),
      [SYNC_VERSION_ITEM]: { counter: Number.MAX_SAFE_INTEGER, device: 'corrupt' },
    });
    expect((await desk.store.get())?.notify?.stuck).toBe(true);
    await desk.store.set({ ...base, notify: notify(false) });
    await desk.store.set({ ...base, notify: notify(false), watchedAddresses: [] });
    expect((await desk.store.get())?.notify?.stuck).toBe(false);
    await fakeBrowser.storage.sync.set({ 'settings.notify': { stuck: 'maybe' } });
    expect((await desk.store.get())?.notify?.stuck).toBe(false);
  });

  it('a removal seen by onChanged (oldValue only) keeps nothing, and the value before it still stands for a malformed item', async () => {
    const desk = device('desk2');
    const keep = keepSyncedChanges(fakeBrowser.storage.sync, desk.seen);
    const pending: Promise<void>[] = [];
    fakeBrowser.storage.onChanged.addListener((changes, area) => void pending.push(keep(changes as Record<string, StorageChange>, area)));
    await desk.store.set({ ...base, autoTrackAddresses: [ME] });
    const laptop = createSyncedSettingsStore(
      createSettingsStore(createStore('sync-hostile-laptop', 'settings')),
      fakeBrowser.storage.sync,
      () => 0,
    );
    await laptop.set({ ...(await laptop.get())!, autoTrackAddresses: [] });
    // The item is removed (the change carries only its oldValue), then written malformed.
    await keep({ 'settings.autoTrackAddresses': { oldValue: [] } as StorageChange }, 'sync');
    await fakeBrowser.storage.sync.remove(['settings.autoTrackAddresses']);
    await fakeBrowser.storage.sync.set(MALFORMED_TICKS);
    await Promise.all(pending);
    expect((await desk.store.get())?.autoTrackAddresses).toEqual([]);
  });

  it('a refused record write, then a malformed item: this device’s own copy stands (never a value it did not keep)', async () => {
    const db = createStore('sync-hostile-refused', 'settings');
    const seenStore = createSyncSeenStore(db);
    const refusing = { get: seenStore.get, update: () => Promise.reject(new DOMException('quota', 'QuotaExceededError')) };
    const store = createSyncedSettingsStore(
      createSettingsStore(db),
      fakeBrowser.storage.sync,
      () => 1_000,
      Math.random,
      createSeenMemory(refusing),
    );
    await store.set({ ...base, autoTrackAddresses: [ME] });
    const laptop = createSyncedSettingsStore(
      createSettingsStore(createStore('sync-hostile-laptop2', 'settings')),
      fakeBrowser.storage.sync,
      () => 0,
    );
    await laptop.set({ ...(await laptop.get())!, autoTrackAddresses: [] });
    expect((await store.get())?.autoTrackAddresses).toEqual([]);
    await fakeBrowser.storage.sync.set(MALFORMED_TICKS);
    // Nothing was kept (every write refused): the device's own save is all it has.
    expect((await store.get())?.autoTrackAddresses).toEqual([ME]);
  });
});
