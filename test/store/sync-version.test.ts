import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore, type SyncArea } from '@/lib/store/sync';

const base: Settings = {
  baseUrl: 'https://svc.example.test',
  accessKey: 'k',
  notify: { succeeded: true, failed: true, refunded: true, stuck: true, sound: true },
};
const quiet = (start: string) => ({ ...base, notify: { ...base.notify!, quietHours: { start, end: '07:00' } } });

/** The real time of the test (ms); each device reads it through its own skew. */
let real = 1_800_000_000_000;

describe('sync decides between devices by a logical clock, never by their wall clocks', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });
  const device = (name: string, skewMs: number, area: SyncArea = fakeBrowser.storage.sync) =>
    createSyncedSettingsStore(createSettingsStore(createStore(`ver-${name}`, 'settings')), area, () => real + skewMs);

  it('a change made on a device 10 minutes slow, after one made on a correct device, is what both read', async () => {
    const desk = device('desk', 0);
    const slow = device('slow-laptop', -10 * 60_000);
    await desk.set(quiet('22:00'));
    real += 60_000;
    // A minute later, on the laptop whose clock is 10 minutes behind.
    await slow.set(quiet('23:00'));
    expect((await slow.get())?.notify?.quietHours?.start).toBe('23:00');
    expect((await desk.get())?.notify?.quietHours?.start).toBe('23:00');
  });

  it('a change made on a device 10 minutes fast is not kept over a later one from a correct device', async () => {
    const fast = device('fast', 10 * 60_000);
    const desk = device('desk', 0);
    await fast.set(quiet('21:00'));
    real += 60_000;
    await desk.set(quiet('20:00'));
    expect((await fast.get())?.notify?.quietHours?.start).toBe('20:00');
    expect((await desk.get())?.notify?.quietHours?.start).toBe('20:00');
  });

  it('a save that could not be synced still wins on its device over the older synced values, whatever the clocks', async () => {
    const area = fakeBrowser.storage.sync;
    const desk = device('desk', 0);
    await desk.set(quiet('22:00'));
    real += 60_000;
    const refusing: SyncArea = {
      get: (keys) => area.get(keys),
      set: async () => {
        throw new Error('sync is disabled by policy');
      },
      remove: async () => {},
    };
    // The same device (its IndexedDB), its clock now an hour behind, cannot reach sync for this save.
    const offline = device('desk', -3_600_000, refusing);
    await offline.set(quiet('23:30')).catch(() => {});
    expect((await device('desk', -3_600_000).get())?.notify?.quietHours?.start).toBe('23:30');
    // Another device still reads the last synced save. Its next save never saw the desk's: the two are concurrent,
    // and the synced one is what every device reads (they agree).
    const other = device('other', 0);
    expect((await other.get())?.notify?.quietHours?.start).toBe('22:00');
    real += 60_000;
    await other.set(quiet('20:30'));
    expect((await device('desk', 0).get())?.notify?.quietHours?.start).toBe('20:30');
    expect((await other.get())?.notify?.quietHours?.start).toBe('20:30');
  });
});
