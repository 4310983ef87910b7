/**
 * The tracked intents in IndexedDB: each its own key, so that writes for different intents never overwrite each
 * other; `update` is atomic for one key, `updateMany` for many.
 */
import { createStore, del, entries, get, promisifyRequest, set, type UseStore } from 'idb-keyval';
import { DB_NAMES } from './db-names';
import type { TrackedIntent } from './types';

/** Read/write access to the tracked intents. Implemented on IndexedDB; the tracker depends on this interface only. */
export interface IntentStore {
  get(intentId: string): Promise<TrackedIntent | undefined>;
  /** Every tracked intent, newest added first. */
  list(): Promise<TrackedIntent[]>;
  put(intent: TrackedIntent): Promise<void>;
  /**
   * Atomically replaces the record of `intentId` with `fn(current)`; when `fn` returns undefined the record is left
   * as it is. Resolves with the record as written (or the unchanged one).
   */
  update(intentId: string, fn: (current: TrackedIntent | undefined) => TrackedIntent | undefined): Promise<TrackedIntent | undefined>;
  /**
   * {@link IntentStore.update} of many records at once, all or none: `fn(intentId, current)` per id (in order; ids
   * unique), every write in one transaction. Resolves with the record as written (or the unchanged one) per id, in
   * the order given.
   */
  updateMany(
    intentIds: readonly string[],
    fn: (intentId: string, current: TrackedIntent | undefined) => TrackedIntent | undefined,
  ): Promise<Array<TrackedIntent | undefined>>;
  remove(intentId: string): Promise<void>;
}

/** Creates the IndexedDB-backed intent store. */
export function createIntentStore(db: UseStore = createStore(DB_NAMES.intents, 'intents')): IntentStore {
  return {
    get: (intentId) => get<TrackedIntent>(intentId, db),
    async list() {
      const all = await entries<string, TrackedIntent>(db);
      // A record the worker has not read yet (an earlier version's, or damaged) is left out here rather than break
      // the page: the worker migrates it or sets it aside when it loads (./records.ts).
      return all
        .map(([, v]) => v)
        .filter(
          (v): v is TrackedIntent =>
            typeof v === 'object' &&
            v !== null &&
            typeof v.intentId === 'string' &&
            typeof v.addedAt === 'number' &&
            Array.isArray(v.lastStates) &&
            ['tracking', 'final', 'not-found', 'expired'].includes(v.phase),
        )
        .sort((a, b) => b.addedAt - a.addedAt);
    },
    put: (intent) => set(intent.intentId, intent, db),
    update: (intentId, fn) =>
      // One readwrite transaction: read, decide, and write only when `fn` returns a record (idb-keyval's own
      // `update` would store `undefined` under the key when there is nothing to write). `fn` runs in the request's
      // success callback, where the transaction is certainly still active.
      db(
        'readwrite',
        (store) =>
          new Promise<TrackedIntent | undefined>((resolve, reject) => {
            const request = store.get(intentId) as IDBRequest<TrackedIntent | undefined>;
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              try {
                const current = request.result ?? undefined;
                const next = fn(current);
                if (next === undefined) return resolve(current);
                store.put(next, intentId);
                promisifyRequest(store.transaction).then(() => resolve(next), reject);
              } catch (err) {
                reject(err);
              }
            };
          }),
      ),
    updateMany: (intentIds, fn) =>
      // One readwrite transaction: every get is queued at once, each write decided in its own success callback
      // (the transaction is active there); it resolves once the whole transaction has committed.
      db('readwrite', (store) => {
        const out: Array<TrackedIntent | undefined> = new Array(intentIds.length);
        let failure: unknown;
        intentIds.forEach((intentId, i) => {
          const request = store.get(intentId) as IDBRequest<TrackedIntent | undefined>;
          request.onsuccess = () => {
            if (failure !== undefined) return;
            try {
              const current = request.result ?? undefined;
              const next = fn(intentId, current);
              out[i] = next ?? current;
              if (next !== undefined) store.put(next, intentId);
            } catch (err) {
              failure = err;
              store.transaction.abort();
            }
          };
        });
        return promisifyRequest(store.transaction).then(
          () => out,
          (err: unknown) => Promise.reject(failure ?? err),
        );
      }),
    remove: (intentId) => del(intentId, db),
  };
}
