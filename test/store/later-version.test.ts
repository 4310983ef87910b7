/**
 * Records and a schema version written by a later version of the extension (the user went back to this one): left
 * as they are for that version — not tracked, not set aside, not deleted — and the stored version never lowered.
 */
import { IDBFactory } from 'fake-indexeddb';
import { createStore, get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAsideRecords } from '@/lib/store';
import { createCheckedIntentStore, STORE_VERSION_KEY } from '@/lib/store/checked';
import { STORE_VERSION } from '@/lib/store/records';

let intentsDb: ReturnType<typeof createStore>;
let settingsDb: ReturnType<typeof createStore>;
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  intentsDb = createStore('svc-intents', 'intents');
  settingsDb = createStore('svc-settings', 'settings');
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

const sid = (n: number) => `0x${String(n).padStart(64, '0')}`;
const record = (n: number, extra: Record<string, unknown> = {}) => ({
  intentId: sid(n),
  addedAt: 1_800_000_000_000 + n,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  ...extra,
});

describe('what a later version wrote', () => {
  it('a record with a phase this version does not know stays in the intents database, untouched and not tracked', async () => {
    const later = record(1, { phase: 'archived', notification: 'acknowledged' });
    await set(sid(1), later, intentsDb);
    await set(sid(2), record(2), intentsDb);
    const aside = createAsideRecords(settingsDb);
    const store = createCheckedIntentStore(aside, intentsDb, settingsDb, () => 0);
    expect((await store.list()).map((r) => r.intentId)).toEqual([sid(2)]);
    expect(await store.get(sid(1))).toBeUndefined();
    expect(await get(sid(1), intentsDb)).toEqual(later);
    expect(await aside.list()).toEqual([]);
  });

  it('a higher stored schema version is never overwritten with this one, and its unreadable records stay', async () => {
    await set(STORE_VERSION_KEY, STORE_VERSION + 1, settingsDb);
    const reshaped = record(3, { addedAt: '2026-11-26T10:00:00Z', lastStates: { origin: 'PENDING' } });
    await set(sid(3), reshaped, intentsDb);
    const aside = createAsideRecords(settingsDb);
    const store = createCheckedIntentStore(aside, intentsDb, settingsDb, () => 0);
    expect(await store.list()).toEqual([]);
    expect(await get(STORE_VERSION_KEY, settingsDb)).toBe(STORE_VERSION + 1);
    expect(await get(sid(3), intentsDb)).toEqual(reshaped);
    expect(await aside.list()).toEqual([]);
  });

  it('a damaged record under this version’s own number is still set aside (kept in the list, out of the database)', async () => {
    const broken = record(4, { addedAt: 'yesterday' });
    await set(sid(4), broken, intentsDb);
    const aside = createAsideRecords(settingsDb);
    const store = createCheckedIntentStore(aside, intentsDb, settingsDb, () => 0);
    expect(await store.list()).toEqual([]);
    expect((await aside.list()).map((a) => a.raw)).toEqual([broken]);
    expect(await get(sid(4), intentsDb)).toBeUndefined();
    expect(await get(STORE_VERSION_KEY, settingsDb)).toBe(STORE_VERSION);
  });
});
