import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore, readSyncItems } from '@/lib/store/sync';

const ME = `0x${'a1'.repeat(20)}`;
const THEM = `0x${'b2'.repeat(20)}`;
const mine: Settings = {
  baseUrl: 'https://svc.example.test',
  accessKey: 'k',
  watchedAddresses: [ME],
  autoTrackAddresses: [ME],
  notify: { succeeded: false, failed: true, refunded: true, stuck: true, sound: false, quietHours: { start: '22:00', end: '07:00' } },
};

describe('storage.sync items from another device are checked before they are believed', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });
  const device = (name: string) =>
    createSyncedSettingsStore(createSettingsStore(createStore(`sv-${name}`, 'settings')), fakeBrowser.storage.sync);

  it('a split list announcing 2**32 parts is ignored with a warning: the settings still read, this device’s list stands', async () => {
    const laptop = device('laptop');
    await laptop.set(mine);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // Another device (a broken or later version) writes a header no reader can honour, and a sane notify.
    await fakeBrowser.storage.sync.set({
      'settings.watchedAddresses': { parts: 2 ** 32 },
      'settings.notify': { ...mine.notify, failed: false },
    });
    const read = await laptop.get();
    expect(read?.watchedAddresses).toEqual([ME]);
    expect(read?.notify?.failed).toBe(false);
    expect(read?.notify?.quietHours).toEqual({ start: '22:00', end: '07:00' });
    expect(warn.mock.calls.flat().join(' ')).toContain('settings.watchedAddresses');
    warn.mockRestore();
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['NaN', Number.NaN],
    ['a string', '3'],
    ['above the 512 items sync holds', 513],
  ])('a part count that is %s is ignored, never read', (_, parts) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const items = { 'settings.watchedAddresses': { parts }, 'settings.watchedAddresses#0': [THEM] };
    expect(readSyncItems(items).synced).toEqual({});
    warn.mockRestore();
  });

  it('a notify or address list of the wrong shape is ignored; the well-formed keys beside it still apply', async () => {
    const laptop = device('laptop');
    await laptop.set(mine);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await fakeBrowser.storage.sync.set({
      'settings.notify': { succeeded: 'yes' },
      'settings.autoTrackAddresses': [42],
      'settings.watchedAddresses': [ME, THEM],
    });
    const read = await laptop.get();
    expect(read?.notify).toEqual(mine.notify);
    expect(read?.autoTrackAddresses).toEqual([ME]);
    expect(read?.watchedAddresses).toEqual([ME, THEM]);
    warn.mockRestore();
  });
});
