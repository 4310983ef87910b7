/**
 * The worker's settings keep the last well-formed synced value of each key as it arrives by `storage.onChanged`
 * (lib/worker/compose.ts, lib/store/sync-observe.ts): an untick synced from another device, then replaced by a
 * malformed `settings.autoTrackAddresses` before the worker read the settings, still reads unticked. Found by the
 * world campaign, seed 20261130 run 21095 (test/world/kept/watch.ts).
 */
import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { realPlatform } from '@/lib/platform';
import { createSettingsStore } from '@/lib/store';
import { createSyncedSettingsStore } from '@/lib/store/sync';
import { openWorkerStores } from '@/lib/worker/compose';

const ME = `0x${'a1'.repeat(20)}`;

describe('the worker keeps a synced value as it arrives', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    return () => vi.restoreAllMocks();
  });

  it('an untick from another device, made malformed before the worker read it, reads unticked', async () => {
    const platform = realPlatform(fakeBrowser as never);
    const stores = openWorkerStores(platform, () => platform.clock.now());
    await stores.settings.set({ baseUrl: 'https://svc.example', accessKey: 'k', watchedAddresses: [ME], autoTrackAddresses: [ME] });
    expect((await stores.settings.get())?.autoTrackAddresses).toEqual([ME]);
    const laptop = createSyncedSettingsStore(
      createSettingsStore(createStore('wiring-laptop', 'settings')),
      fakeBrowser.storage.sync,
      () => 0,
    );
    await laptop.set({ ...(await laptop.get())!, autoTrackAddresses: [] });
    await fakeBrowser.storage.sync.set({ 'settings.autoTrackAddresses': { parts: 2 ** 32 } });
    await vi.waitFor(async () => expect((await stores.settings.get())?.autoTrackAddresses).toEqual([]), { timeout: 2_000 });
  });
});
