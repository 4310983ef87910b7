/**
 * Unit-suite setup, run before each test file: a fresh IndexedDB (fake-indexeddb's factory) with every connection an
 * earlier file opened closed, a reset fakeBrowser, real timers and no spies or stubbed globals left. The unit project
 * shares its modules between the files a worker runs (`isolate: false`, vitest.config.ts): without this, a file would
 * see the databases, storage areas, listeners, fake clock and spies the worker's earlier files left behind — and a
 * store made once at a module's top (the popup's, `entrypoints/popup/stores.ts`) would keep reading the database an
 * earlier file opened. Closed by force, as the browser closes a database whose data the user cleared, its connection
 * fires `close`, and the store opens the database again from the global factory at its next use.
 */
import { forceCloseDatabase, IDBFactory } from 'fake-indexeddb';
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

/** Every connection opened in this worker and not closed by force yet (weakly: a run's databases may be collected). */
const shared = globalThis as { svcOpenConnections?: Set<WeakRef<IDBDatabase>> };
if (!shared.svcOpenConnections) {
  const opened = new Set<WeakRef<IDBDatabase>>();
  shared.svcOpenConnections = opened;
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
    const request = open.apply(this, args);
    request.addEventListener('success', () => void opened.add(new WeakRef(request.result)));
    return request;
  };
}
for (const ref of shared.svcOpenConnections) {
  const db = ref.deref();
  // fake-indexeddb types its argument as the IDBDatabase class; it takes a connection.
  if (db) forceCloseDatabase(db as never);
}
shared.svcOpenConnections.clear();

vi.useRealTimers();
vi.restoreAllMocks();
vi.unstubAllGlobals();
globalThis.indexedDB = new IDBFactory();
fakeBrowser.reset();
