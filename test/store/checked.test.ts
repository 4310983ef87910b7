/**
 * The worker's checked stores (lib/store/checked.ts) on fake-indexeddb: `get` reads one record as `list` does
 * (migrated, set aside, or left for a later version), `list` writes back what it migrated and records the stored
 * shapes' version without ever lowering it; the checked settings keep what they could not read once and move
 * version 1's checkpoints only when there are none.
 */
import { createStore, get, keys, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { createAsideRecords, createSettingsStore } from '@/lib/store';
import { createCheckedIntentStore, createCheckedSettingsStore, STORE_VERSION_KEY } from '@/lib/store/checked';
import { STORE_VERSION } from '@/lib/store/records';

let n = 0;
const fresh = (name: string) => createStore(`checked-test-${name}-${++n}-${Math.random()}`, 'kv');
const ID = `0x${'c'.repeat(64)}`;
const current = { intentId: ID, addedAt: 7, lastStates: [], phase: 'tracking', notification: 'none' };

const setup = () => {
  const db = fresh('intents');
  const settingsDb = fresh('settings');
  const aside = createAsideRecords(settingsDb);
  return { db, settingsDb, aside, store: createCheckedIntentStore(aside, db, settingsDb, () => 1_000) };
};

describe('checked intent store: get', () => {
  it('reads nothing for an intent not stored, and a current record as it is', async () => {
    const { db, store, aside } = setup();
    expect(await store.get(ID)).toBeUndefined();
    await set(ID, current, db);
    expect(await store.get(ID)).toEqual(current);
    expect(await aside.list()).toEqual([]);
  });

  it('reads an earlier version’s record migrated (its key as intentId, the receipt’s status, phase from it)', async () => {
    const { db, store } = setup();
    await set(ID, { receipt: { intentId: ID, status: 'SUCCEEDED' }, lastCheckedAt: 5 }, db);
    expect(await store.get(ID)).toMatchObject({ intentId: ID, status: 'SUCCEEDED', phase: 'final', notification: 'pending', addedAt: 5 });
  });

  it('sets an unreadable record aside (kept with why and when) and deletes it', async () => {
    const { db, store, aside } = setup();
    const raw = { ...current, addedAt: 'yesterday' };
    await set(ID, raw, db);
    expect(await store.get(ID)).toBeUndefined();
    expect(await keys(db)).toEqual([]);
    const [kept] = await aside.list();
    expect(kept).toMatchObject({ key: ID, raw, at: 1_000 });
    expect(kept?.reason).toContain('addedAt');
  });

  it('leaves an unreadable record where it is when a later version is recorded', async () => {
    const { db, settingsDb, store, aside } = setup();
    await set(STORE_VERSION_KEY, STORE_VERSION + 1, settingsDb);
    const raw = { ...current, addedAt: 'yesterday' };
    await set(ID, raw, db);
    expect(await store.get(ID)).toBeUndefined();
    expect(await get(ID, db)).toEqual(raw);
    expect(await aside.list()).toEqual([]);
  });

  it('sets it aside when this very version is recorded (only a later one keeps it)', async () => {
    const { db, settingsDb, store, aside } = setup();
    await set(STORE_VERSION_KEY, STORE_VERSION, settingsDb);
    await set(ID, { ...current, addedAt: 'yesterday' }, db);
    expect(await store.get(ID)).toBeUndefined();
    expect(await keys(db)).toEqual([]);
    expect(await aside.list()).toHaveLength(1);
  });
});

describe('checked intent store: list', () => {
  it('writes back only what it migrated, newest first, and records this version over none or an older one', async () => {
    const { db, settingsDb, store } = setup();
    const old = { intentId: `${ID}1`, addedAt: 3 };
    await set(`${ID}1`, old, db);
    await set(ID, current, db);
    await set(`${ID}2`, { ...current, intentId: `${ID}2`, addedAt: 9 }, db);
    expect((await store.list()).map((r) => r.addedAt)).toEqual([9, 7, 3]);
    expect(await get(`${ID}1`, db)).toMatchObject({ intentId: `${ID}1`, phase: 'tracking', lastStates: [] });
    expect(await get(STORE_VERSION_KEY, settingsDb)).toBe(STORE_VERSION);
    await set(STORE_VERSION_KEY, STORE_VERSION - 1, settingsDb);
    await store.list();
    expect(await get(STORE_VERSION_KEY, settingsDb)).toBe(STORE_VERSION);
  });

  it('treats a stored version that is not a number as none', async () => {
    const { db, settingsDb, store, aside } = setup();
    await set(STORE_VERSION_KEY, '99', settingsDb);
    await set(ID, { ...current, addedAt: 'yesterday' }, db);
    expect(await store.list()).toEqual([]);
    expect(await aside.list()).toHaveLength(1);
    expect(await get(STORE_VERSION_KEY, settingsDb)).toBe(STORE_VERSION);
  });

  it('sets aside an unreadable record when this very version is recorded', async () => {
    const { db, settingsDb, store, aside } = setup();
    await set(STORE_VERSION_KEY, STORE_VERSION, settingsDb);
    await set(ID, { ...current, lastStates: 'none' }, db);
    expect(await store.list()).toEqual([]);
    expect(await aside.list()).toHaveLength(1);
  });
});

describe('checked settings store', () => {
  const settings = { baseUrl: 'https://svc.example', accessKey: 'k', watchedAddresses: [] };

  it('reads nothing saved as undefined, and saves through the inner store', async () => {
    const settingsDb = fresh('settings');
    const inner = createSettingsStore(settingsDb);
    const checked = createCheckedSettingsStore(inner, settingsDb);
    expect(await checked.get()).toBeUndefined();
    await checked.set(settings as never);
    expect(await inner.get()).toEqual(settings);
    expect(await checked.get()).toEqual(settings);
    expect(await get('settings-unreadable', settingsDb)).toBeUndefined();
    expect(await get('watched-checked-at', settingsDb)).toBeUndefined();
  });

  it('keeps the first unreadable original only, and moves version 1’s checkpoints only when there are none', async () => {
    const settingsDb = fresh('settings');
    const inner = createSettingsStore(settingsDb);
    const checked = createCheckedSettingsStore(inner, settingsDb);
    const first = { ...settings, watchedAddresses: 'all', watchedCheckedAt: { '0xa': 100 } };
    await set('settings', first, settingsDb);
    expect((await checked.get())?.watchedAddresses).toBeUndefined();
    expect(await get('settings-unreadable', settingsDb)).toEqual({ raw: first, dropped: ['watchedAddresses'] });
    expect(await get('watched-checked-at', settingsDb)).toEqual({ '0xa': 100 });
    await set('settings', { ...settings, syncSettings: 'yes', watchedCheckedAt: { '0xa': 999 } }, settingsDb);
    await checked.get();
    expect(await get('settings-unreadable', settingsDb)).toEqual({ raw: first, dropped: ['watchedAddresses'] });
    expect(await get('watched-checked-at', settingsDb)).toEqual({ '0xa': 100 });
  });
});
