/**
 * The receipts the popup looked at (history, search), cached in IndexedDB for instant display.
 */
import { createStore, delMany, entries, get, set, type UseStore } from 'idb-keyval';
import type { IntentReceipt } from '../api/schemas/receipt';
import { DB_NAMES } from './db-names';

/** A receipt read for an intent that may not be tracked; `fetchedAt` in ms. */
export interface CachedReceipt {
  receipt: IntentReceipt;
  fetchedAt: number;
}

/** Receipts of intents looked at in the popup (history, search), kept for instant display. */
export interface ReceiptCache {
  get(intentId: string): Promise<CachedReceipt | undefined>;
  /** Stores a receipt; keeps the newest `cap` entries. */
  put(intentId: string, entry: CachedReceipt): Promise<void>;
}

/** Creates the IndexedDB-backed receipt cache (at most `cap` entries, default 200). */
export function createReceiptCache(db: UseStore = createStore(DB_NAMES.receipts, 'receipts'), cap = 200): ReceiptCache {
  return {
    get: (intentId) => get<CachedReceipt>(intentId, db),
    async put(intentId, entry) {
      await set(intentId, entry, db);
      const all = await entries<string, CachedReceipt>(db);
      if (all.length <= cap) return;
      const oldest = all.sort((a, b) => a[1].fetchedAt - b[1].fetchedAt).slice(0, all.length - cap);
      await delMany(
        oldest.map(([k]) => k),
        db,
      );
    },
  };
}
