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
 * deleted here), and records {@link STORE_VERSION} unless a later version is recorded; `get()` reads the same way.
 * Written by a later version — a record with a value this version does not know in an enumeration, or any
 * unreadable record once the stored version is above this one (the user went back to an older version) — a record
 * is left where it is, as it is: not tracked, not set aside, not deleted, so that the later version finds it again.
 * Writes are the plain store's.
 */
export function createCheckedIntentStore(
  aside: AsideRecords,
  db: UseStore = createStore(DB_NAMES.intents, 'intents'),
  settingsDb: UseStore = createStore(DB_NAMES.settings, 'settings'),
  now: () => number = Date.now,
): IntentStore {
  const plain = createIntentStore(db);
  /** The version of the stored shapes recorded beside the settings (undefined: none, or not a number). */
  const storedVersion = async () => {
    const v = await get<unknown>(STORE_VERSION_KEY, settingsDb);
    return typeof v === 'number' ? v : undefined;
  };
  /** Sets aside a record this version cannot read, unless a later version wrote it (then it stays as it is). */
  const unreadable = async (key: string, raw: unknown, read: { reason: string; later: boolean }, newer: boolean) => {
    if (read.later || newer) {
      console.warn(`intent record ${key} left as it is: written by a later version (${read.reason})`);
      return;
    }
    await aside.add([{ key, raw, reason: read.reason, at: now() }]);
    await del(key, db);
  };
  return {
    ...plain,
    async get(intentId) {
      const raw = await get<unknown>(intentId, db);
      if (raw === undefined) return undefined;
      const read = readTrackedIntent(raw, intentId);
      if (read.ok) return read.record;
      await unreadable(intentId, raw, read, ((await storedVersion()) ?? 0) > STORE_VERSION);
      return undefined;
    },
    async list() {
      const stored = await storedVersion();
      const newer = (stored ?? 0) > STORE_VERSION;
      const all = await entries<IDBValidKey, unknown>(db);
      const records: TrackedIntent[] = [];
      for (const [key, raw] of all) {
        const read = readTrackedIntent(raw, key);
        if (!read.ok) {
          await unreadable(String(key), raw, read, newer);
          continue;
        }
        if (read.migrated) await set(key, read.record, db);
        records.push(read.record);
      }
      // Never lowered: a later version's number stays for that version to read.
      if (stored === undefined || stored < STORE_VERSION) await set(STORE_VERSION_KEY, STORE_VERSION, settingsDb);
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
