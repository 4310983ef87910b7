/**
 * Marks of the notifications handed to the browser, per intentId, in IndexedDB (idb-keyval). Firefox needs them for
 * exactly-once recovery: its `notifications.getAll()` forgets a notification once it has left the screen (at once
 * on a system without a notification server), so "is it already shown?" is answered from these marks instead.
 */
import { createStore, del, delMany, entries, get, set, type UseStore } from 'idb-keyval';

/** IndexedDB database of the marks (one object store: idb-keyval opens one store per database). */
export const MARKS_DB = 'svc-notified';

/** The marks: intentId → when its notification was handed to the browser (ms since the epoch). */
export interface NotificationMarks {
  /** True when a notification for the intent was handed to the browser (or was about to be). */
  has(intentId: string): Promise<boolean>;
  /** Marks the intents before their notification is created; keeps the newest `cap` marks. */
  add(intentIds: readonly string[], at: number): Promise<void>;
  /** Forgets an intent's mark (when it is no longer tracked). */
  remove(intentId: string): Promise<void>;
}

/** Creates the IndexedDB-backed marks (at most `cap` kept, default 1 000: five times the finished intents kept). */
export function createNotificationMarks(db: UseStore = createStore(MARKS_DB, 'marks'), cap = 1000): NotificationMarks {
  return {
    has: async (intentId) => (await get<number>(intentId, db)) !== undefined,
    async add(intentIds, at) {
      for (const id of intentIds) await set(id, at, db);
      const all = await entries<string, number>(db);
      if (all.length <= cap) return;
      const oldest = all.sort((a, b) => a[1] - b[1]).slice(0, all.length - cap);
      await delMany(
        oldest.map(([k]) => k),
        db,
      );
    },
    remove: (intentId) => del(intentId, db),
  };
}
