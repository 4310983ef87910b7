import { IDBFactory } from 'fake-indexeddb';
import { get, set } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storesOn } from '@/lib/store/idb';

describe('storesOn', () => {
  const global = globalThis.indexedDB;
  beforeEach(() => {
    // Any use of the global factory fails the test.
    globalThis.indexedDB = new Proxy({} as IDBFactory, {
      get: () => {
        throw new Error('the global indexedDB was used');
      },
    });
  });
  afterEach(() => {
    globalThis.indexedDB = global;
  });

  it('opens the database through the injected factory only, one per factory', async () => {
    const a = new IDBFactory();
    const b = new IDBFactory();
    await set('k', 1, storesOn(a)('db', 'store'));
    await set('k', 2, storesOn(b)('db', 'store'));
    expect(await get('k', storesOn(a)('db', 'store'))).toBe(1);
    expect(await get('k', storesOn(b)('db', 'store'))).toBe(2);
    expect((await a.databases()).map((d) => d.name)).toEqual(['db']);
  });

  it('rejects the operation when the factory refuses, and opens again on the next use', async () => {
    const real = new IDBFactory();
    let refuse = true;
    const flaky = {
      open: (name: string) => {
        if (refuse) throw new DOMException('refused', 'UnknownError');
        return real.open(name);
      },
    } as unknown as IDBFactory;
    const db = storesOn(flaky)('db', 'store');
    await expect(set('k', 1, db)).rejects.toThrow('refused');
    refuse = false;
    await set('k', 1, db);
    expect(await get('k', db)).toBe(1);
  });
});
