/**
 * The worker's intent and settings stores: what is loaded is parsed and migrated (`./records`), so that a record
 * from an earlier version is tracked as it should be, and one that cannot be read is set aside (`AsideRecords`) —
 * never handed to the tracker, never dropped, and said in the popup.
 */
import { createStore, del, entries, get, set, type UseStore } from 'idb-keyval';
import { type AsideRecords, createIntentStore, DB_NAMES, type IntentStore, type SettingsStore, type WatchedCheckpoint } from './index';
import { readSettings, readTrackedIntent, STORE_VERSION } from './records';
import type { TrackedIntent } from './types';

/** Where the version of the stored shapes is kept (beside the settings). */
export const STORE_VERSION_KEY = 'store-version';

/**
 * The intent store of the worker over `db`: `list()` (the tracker's load) reads every record through
 * {@link readTrackedIntent}, writes back the ones it migrated, sets aside the ones it cannot read (kept first, then
 * deleted here), and records {@link STORE_VERSION}; `get()` reads the same way. Writes are the plain store's.
 */
export function createCheckedIntentStore(
  aside: AsideRecords,
  db: UseStore = createStore(DB_NAMES.intents, 'intents'),
  settingsDb: UseStore = createStore(DB_NAMES.settings, 'settings'),
  now: () => number = Date.now,
): IntentStore {
  const plain = createIntentStore(db);
  const setAside = async (key: string, raw: unknown, reason: string) => {
    await aside.add([{ key, raw, reason, at: now() }]);
    await del(key, db);
  };
  return {
    ...plain,
    async get(intentId) {
      const raw = await get<unknown>(intentId, db);
      if (raw === undefined) return undefined;
      const read = readTrackedIntent(raw, intentId);
      if (read.ok) return read.record;
      await setAside(intentId, raw, read.reason);
      return undefined;
    },
    async list() {
      const all = await entries<IDBValidKey, unknown>(db);
      const records: TrackedIntent[] = [];
      for (const [key, raw] of all) {
        const read = readTrackedIntent(raw, key);
        if (!read.ok) {
          await setAside(String(key), raw, read.reason);
          continue;
        }
        if (read.migrated) await set(key, read.record, db);
        records.push(read.record);
      }
      await set(STORE_VERSION_KEY, STORE_VERSION, settingsDb);
      return records.sort((a, b) => b.addedAt - a.addedAt);
    },
  };
}

/**
 * Settings read through {@link readSettings}: fields of the wrong type are left out (their defaults apply, the
 * original is kept under `settings-unreadable`), and version 1's `watchedCheckedAt` moves to the checkpoints when
 * they have none.
 */
export function createCheckedSettingsStore(
  inner: SettingsStore,
  settingsDb: UseStore = createStore(DB_NAMES.settings, 'settings'),
): SettingsStore {
  return {
    async get() {
      const raw = await inner.get();
      const read = readSettings(raw);
      if (!read) return undefined;
      if (read.dropped.length > 0 && (await get('settings-unreadable', settingsDb)) === undefined) {
        await set('settings-unreadable', { raw, dropped: read.dropped }, settingsDb);
      }
      if (read.watchedCheckedAt && (await get('watched-checked-at', settingsDb)) === undefined) {
        const checkpoints: Record<string, number | WatchedCheckpoint> = read.watchedCheckedAt;
        await set('watched-checked-at', checkpoints, settingsDb);
      }
      return read.settings;
    },
    set: (settings) => inner.set(settings),
  };
}
