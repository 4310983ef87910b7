/**
 * Reading a tracked intent's record from the outside (drivers/fixtures/storage.ts `storedIntent`), as the e2e suites
 * do in the Chromium worker and in Firefox's chrome scope; here on fake-indexeddb, with the extension's own stores.
 */
import { IDBFactory } from 'fake-indexeddb';
import { set } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storedIntent } from '../../drivers/fixtures/storage';
import { DB_NAMES } from '../../lib/store/db-names';
import { storesOn } from '../../lib/store/idb';

// Each test on an IndexedDB of its own (the setup gives one a file): the global factory, put back after.
const global = globalThis as { indexedDB: IDBFactory };
let saved: IDBFactory;
beforeEach(() => {
  saved = global.indexedDB;
  global.indexedDB = new IDBFactory();
});
afterEach(() => {
  global.indexedDB = saved;
});

const names = async () => (await indexedDB.databases()).map((d) => d.name);

describe('storedIntent', () => {
  it('reads the record the store wrote, and undefined for an intent not stored', async () => {
    const store = storesOn(indexedDB)(DB_NAMES.intents, 'intents');
    await set('0xaa', { intentId: '0xaa', phase: 'tracking', addedAt: 1 }, store);
    expect(await storedIntent('0xaa')).toEqual({ intentId: '0xaa', phase: 'tracking', addedAt: 1 });
    expect(await storedIntent('0xbb')).toBeUndefined();
  });

  it('before the extension stored anything: undefined, and no database made that would keep its store from being created', async () => {
    expect(await names()).not.toContain(DB_NAMES.intents);
    expect(await storedIntent('0xaa')).toBeUndefined();
    expect(await names()).not.toContain(DB_NAMES.intents);
    // The extension then creates its store as on a fresh profile.
    const store = storesOn(indexedDB)(DB_NAMES.intents, 'intents');
    await set('0xaa', { intentId: '0xaa' }, store);
    expect(await storedIntent('0xaa')).toEqual({ intentId: '0xaa' });
  });

  it('rejects at once when the database has no intents store, rather than never settling', async () => {
    const open = indexedDB.open(DB_NAMES.intents);
    await new Promise((resolve) => {
      open.onsuccess = resolve;
    });
    open.result.close();
    await expect(storedIntent('0xaa')).rejects.toThrow(/intents|not found|NotFound/i);
  });
});
