import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore, pickSynced, SYNCED_SETTING_KEYS, type SyncArea, SyncFailedError } from '@/lib/store/sync';

const KEY = 'sk_live_do-not-sync_8f3a1c';
const URL = 'https://svc.example.test';
const ME = `0x${'a1'.repeat(20)}`;

const full: Settings = {
  baseUrl: URL,
  accessKey: KEY,
  watchedAddresses: [ME],
  autoTrackAddresses: [ME],
  notify: { succeeded: true, failed: true, refunded: false, stuck: true, sound: false },
};

/** A device: its own IndexedDB, sharing the user's sync area. */
const device = (name: string, area: SyncArea | undefined = fakeBrowser.storage.sync) =>
  createSyncedSettingsStore(createSettingsStore(createStore(`settings-${name}`, 'settings')), area);

/** Everything in the sync area, as the browser would upload it. */
const syncedText = async () => JSON.stringify(await fakeBrowser.storage.sync.get(null));

describe('settings synced through storage.sync', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });

  it('never writes the access key or the service URL to sync storage', async () => {
    const laptop = device('laptop');
    await laptop.set(full);
    await laptop.set({ ...full, accessKey: `${KEY}-2`, notify: { ...full.notify!, sound: true } });
    const text = await syncedText();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('sk_live');
    expect(text).not.toContain(URL);
    expect(text).not.toContain('svc.example');
    expect(Object.keys(await fakeBrowser.storage.sync.get(null)).sort()).toEqual([
      'settings.autoTrackAddresses',
      'settings.notify',
      'settings.watchedAddresses',
    ]);
    // This device keeps everything.
    expect(await laptop.get()).toMatchObject({ accessKey: `${KEY}-2`, baseUrl: URL });
  });

  it('keeps the key out of sync even when the object handed over carries extra fields', async () => {
    const sneaky = { ...full, 'settings.accessKey': KEY, token: KEY } as unknown as Settings;
    expect(JSON.stringify(pickSynced(sneaky))).not.toContain(KEY);
    await device('laptop').set(sneaky);
    expect(await syncedText()).not.toContain(KEY);
  });

  it('gives another browser of the user the notification choices and the watched addresses, not the key', async () => {
    await device('laptop').set(full);
    const desktop = device('desktop');
    const seen = await desktop.get();
    expect(seen).toMatchObject({ notify: full.notify, watchedAddresses: [ME], autoTrackAddresses: [ME] });
    expect(seen?.accessKey).toBe('');
    expect(seen?.baseUrl).toBe('');
    // Once the desktop has its own connection, synced changes from the laptop still arrive.
    await desktop.set({ ...seen!, baseUrl: 'https://other.example', accessKey: 'desk-key' });
    await device('laptop').set({ ...full, watchedAddresses: [], autoTrackAddresses: [] });
    expect(await desktop.get()).toMatchObject({ baseUrl: 'https://other.example', accessKey: 'desk-key', watchedAddresses: [] });
  });

  it('syncs nothing, and reads nothing synced, on a device that turned syncing off', async () => {
    await device('laptop').set(full);
    const privateOne = device('private');
    await privateOne.set({ baseUrl: URL, accessKey: KEY, notify: { ...full.notify!, failed: false }, syncSettings: false });
    expect(await privateOne.get()).toMatchObject({ notify: { failed: false }, syncSettings: false });
    expect(await privateOne.get()).not.toHaveProperty('watchedAddresses');
    expect(((await fakeBrowser.storage.sync.get('settings.notify')) as Record<string, Settings['notify']>)['settings.notify']?.failed).toBe(
      true,
    );
  });

  it('saves on the device and says so when only the sync fails', async () => {
    const broken: SyncArea = {
      get: async () => ({}),
      set: async () => {
        throw new Error('QUOTA_BYTES_PER_ITEM quota exceeded');
      },
      remove: async () => {},
    };
    const store = device('laptop', broken);
    const error = await store.set(full).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncFailedError);
    expect((error as Error).message).toBe(
      'Saved on this device, but not synced to your other browsers: QUOTA_BYTES_PER_ITEM quota exceeded',
    );
    expect(await createSettingsStore(createStore('settings-laptop', 'settings')).get()).toEqual(full);
  });

  it('reads this device’s copy when the sync area cannot be read', async () => {
    const unreadable: SyncArea = {
      get: async () => {
        throw new Error('sync is disabled by policy');
      },
      set: async () => {},
      remove: async () => {},
    };
    const store = device('laptop', unreadable);
    await store.set(full);
    expect(await store.get()).toEqual(full);
  });

  it('lists only preferences in the synced set', () => {
    // The type already refuses the key and the URL; this guards a cast.
    expect(SYNCED_SETTING_KEYS).not.toContain('accessKey');
    expect(SYNCED_SETTING_KEYS).not.toContain('baseUrl');
    expect(SYNCED_SETTING_KEYS).not.toContain('syncSettings');
  });
});
