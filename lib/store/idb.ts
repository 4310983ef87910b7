/**
 * idb-keyval stores over an injected IndexedDB factory. idb-keyval's own `createStore` opens its database through
 * the global `indexedDB`; the worker opens every database through the platform's factory instead (`Platform.indexedDB`
 * of lib/platform.ts), so that the campaign can give each simulated browser profile its own IndexedDB, with faults.
 */
import { promisifyRequest, type UseStore } from 'idb-keyval';

/** Opens `storeName` of database `dbName` (created when missing), as idb-keyval's `createStore` does. */
export type StoreOpener = (dbName: string, storeName: string) => UseStore;

/**
 * A {@link StoreOpener} over `factory`. The connection is opened on first use and kept; when the browser closes it
 * (`onclose`) or the open fails, the next use opens it again. Errors of the open (thrown or reported) and of the
 * transaction reject the operation's promise (e.g. a DOMException `QuotaExceededError`).
 */
export function storesOn(factory: IDBFactory): StoreOpener {
  return (dbName, storeName) => {
    let dbp: Promise<IDBDatabase> | undefined;
    const getDB = () => {
      if (dbp) return dbp;
      const request = factory.open(dbName);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName);
      const opened = promisifyRequest(request);
      dbp = opened;
      opened.then(
        (db) => {
          db.onclose = () => {
            dbp = undefined;
          };
        },
        () => {
          dbp = undefined;
        },
      );
      return opened;
    };
    // A factory that throws at once (Firefox's private windows did) rejects the operation as any other failure does.
    return (txMode, callback) =>
      new Promise<IDBDatabase>((resolve) => resolve(getDB())).then((db) =>
        callback(db.transaction(storeName, txMode).objectStore(storeName)),
      );
  };
}
