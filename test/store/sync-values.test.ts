import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore, readSyncItems } from '@/lib/store/sync';
import { isPartsHeader, MAX_SYNC_PARTS, readSyncVersion, syncPartCount, validSyncedValue } from '@/lib/store/sync-values';

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

describe('the checks of one synced item, value by value', () => {
  it('a split list’s header is believed for a whole number of parts from 1 to 512 only', () => {
    expect(MAX_SYNC_PARTS).toBe(512);
    expect(syncPartCount({ parts: 1 })).toBe(1);
    expect(syncPartCount({ parts: 512 })).toBe(512);
    for (const bad of [{ parts: 0 }, { parts: 513 }, { parts: 2.5 }, { parts: '2' }, { parts: 2 ** 32 }, {}, null, 3, [2], '{"parts":2}'])
      expect(syncPartCount(bad), JSON.stringify(bad)).toBeUndefined();
  });

  it('a header is any object with a parts field, valid or not', () => {
    expect(isPartsHeader({ parts: 2 ** 32 })).toBe(true);
    expect(isPartsHeader({ parts: undefined })).toBe(true);
    for (const no of [{ part: 2 }, null, ['parts'], 'parts', 2]) expect(isPartsHeader(no), JSON.stringify(no)).toBe(false);
  });

  it('notification choices need the five switches as booleans; progress and quiet hours are optional but typed', () => {
    const notify = { succeeded: true, failed: false, refunded: true, stuck: true, sound: false };
    expect(validSyncedValue('notify', notify)).toBe(true);
    expect(validSyncedValue('notify', { ...notify, progress: true, quietHours: { start: '22:00', end: '07:00' }, later: 1 })).toBe(true);
    for (const bad of [
      undefined,
      null,
      [notify],
      { ...notify, sound: 'yes' },
      { ...notify, succeeded: undefined },
      { ...notify, progress: 'on' },
      { ...notify, quietHours: null },
      { ...notify, quietHours: ['22:00', '07:00'] },
      { ...notify, quietHours: { start: '22:00' } },
      { ...notify, quietHours: { end: '07:00' } },
    ])
      expect(validSyncedValue('notify', bad), JSON.stringify(bad) ?? 'undefined').toBe(false);
  });

  it('the three lists must be lists of strings; a key this version does not know is never valid', () => {
    for (const key of ['watchedAddresses', 'autoTrackAddresses', 'autoTrackTicks']) {
      expect(validSyncedValue(key, ['a', 'b'])).toBe(true);
      expect(validSyncedValue(key, [])).toBe(true);
      expect(validSyncedValue(key, ['a', 1])).toBe(false);
      expect(validSyncedValue(key, 'a')).toBe(false);
    }
    expect(validSyncedValue('accessKey', 'k')).toBe(false);
    expect(validSyncedValue('later', ['a'])).toBe(false);
  });

  it('a version needs a whole counter of at least 1, at most 2^40, and a device name', () => {
    expect(readSyncVersion({ counter: 1, device: 'd' })).toEqual({ counter: 1, device: 'd' });
    // 2^40 saves at storage.sync's 120 writes a minute take 17,000 years: a larger counter is corrupt.
    expect(readSyncVersion({ counter: 2 ** 40, device: 'd' })).toEqual({ counter: 2 ** 40, device: 'd' });
    expect(readSyncVersion({ counter: 7, device: 'd', extra: true })).toEqual({ counter: 7, device: 'd' });
    for (const bad of [
      { counter: 0, device: 'd' },
      { counter: 1.5, device: 'd' },
      { counter: 2 ** 53, device: 'd' },
      { counter: 2 ** 40 + 1, device: 'd' },
      { counter: Number.MAX_SAFE_INTEGER, device: 'd' },
      { counter: '1', device: 'd' },
      { counter: 1 },
      { counter: 1, device: 2 },
      null,
      [1, 'd'],
    ])
      expect(readSyncVersion(bad), JSON.stringify(bad)).toBeUndefined();
  });
});
