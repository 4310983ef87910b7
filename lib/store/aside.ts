/**
 * The stored records the worker could not read, kept aside in IndexedDB beside the settings.
 */
import { createStore, get, type UseStore, update } from 'idb-keyval';
import { DB_NAMES } from './db-names';

/** A stored record the worker could not read, kept aside as it was (never dropped); `at` when it was set aside (ms). */
export interface AsideRecord {
  /** Its key in the intents database. */
  key: string;
  raw: unknown;
  /** What could not be read (a zod issue: path and message). */
  reason: string;
  at: number;
}

/** The records set aside (`unreadable-intents` beside the settings). The popup reads it to say so. */
export interface AsideRecords {
  list(): Promise<AsideRecord[]>;
  add(records: readonly AsideRecord[]): Promise<void>;
}

/** Creates the IndexedDB-backed list of records set aside. No zod here: the popup reads it too. */
export function createAsideRecords(db: UseStore = createStore(DB_NAMES.settings, 'settings')): AsideRecords {
  const KEY = 'unreadable-intents';
  return {
    list: async () => {
      const saved = await get<unknown>(KEY, db);
      return Array.isArray(saved) ? (saved as AsideRecord[]) : [];
    },
    async add(records) {
      if (records.length === 0) return;
      await update<unknown>(KEY, (saved) => [...(Array.isArray(saved) ? saved : []), ...records], db);
    },
  };
}
