/**
 * The IndexedDB stores (fake-indexeddb): atomic read-modify-write of one intent, nothing written when there is
 * nothing to write, and the tracker state and the watched-address checkpoints kept apart.
 */
import { createStore, keys, set, type UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import {
  createIntentStore,
  createRemovedIntents,
  createTrackerStateStore,
  createWatchedCheckpoints,
  type TrackedIntent,
} from '@/lib/store';

let n = 0;
const fresh = (name: string) => createStore(`store-test-${name}-${++n}-${Math.random()}`, 'kv');
const ID = `0x${'a'.repeat(64)}`;
const record = (over: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId: ID,
  addedAt: 1,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  ...over,
});

describe('intent store', () => {
  it('update writes what the function returns and resolves with it', async () => {
    const store = createIntentStore(fresh('intents'));
    const written = await store.update(ID, (c) => (c ? undefined : record({ status: 'COMMITTED' })));
    expect(written).toEqual(record({ status: 'COMMITTED' }));
    expect(await store.get(ID)).toEqual(record({ status: 'COMMITTED' }));
  });

  it('update writes nothing when the function returns undefined (no empty key left behind)', async () => {
    const db = fresh('intents');
    const store = createIntentStore(db);
    expect(await store.update(ID, () => undefined)).toBeUndefined();
    expect(await keys(db)).toEqual([]);
    await store.put(record({ status: 'EXECUTING' }));
    expect(await store.update(ID, () => undefined)).toEqual(record({ status: 'EXECUTING' }));
    expect(await store.get(ID)).toEqual(record({ status: 'EXECUTING' }));
  });

  it('concurrent updates of one intent each see the previous one (none is lost)', async () => {
    const store = createIntentStore(fresh('intents'));
    await store.put(record({ lastStates: [] }));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.update(ID, (c) => (c ? { ...c, lastStates: [...c.lastStates, String(i)] } : undefined))),
    );
    const states = (await store.get(ID))?.lastStates ?? [];
    expect([...states].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });

  it('an error thrown by the function rejects and leaves the record as it was', async () => {
    const store = createIntentStore(fresh('intents'));
    await store.put(record({ status: 'EXECUTING' }));
    await expect(
      store.update(ID, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.get(ID)).toEqual(record({ status: 'EXECUTING' }));
  });
});

describe('intent store: updateMany', () => {
  const id = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;
  /** A UseStore that counts the transactions opened through it. */
  const counted = (db: UseStore) => {
    const count = { transactions: 0 };
    const use: UseStore = (mode, callback) => {
      count.transactions++;
      return db(mode, callback);
    };
    return { use, count };
  };

  it('writes 1,000 records in one transaction, each decided from its current record, in the order given', async () => {
    const { use, count } = counted(fresh('many'));
    const store = createIntentStore(use);
    await store.put(record({ intentId: id(5), status: 'EXECUTING' }));
    const before = count.transactions;
    const ids = Array.from({ length: 1_000 }, (_, i) => id(i));
    const written = await store.updateMany!(ids, (intentId, current) => (current ? undefined : record({ intentId, addedAt: 7 })));
    expect(count.transactions - before).toBe(1);
    expect(written).toHaveLength(1_000);
    expect(written[5]).toEqual(record({ intentId: id(5), status: 'EXECUTING' }));
    expect(written[999]).toEqual(record({ intentId: id(999), addedAt: 7 }));
    expect((await store.list()).length).toBe(1_000);
    expect(await store.get(id(5))).toEqual(record({ intentId: id(5), status: 'EXECUTING' }));
  });

  it('writes none when the function throws for one of them', async () => {
    const db = fresh('many-throw');
    const store = createIntentStore(db);
    const ids = [id(1), id(2), id(3)];
    await expect(
      store.updateMany!(ids, (intentId) => {
        if (intentId === id(3)) throw new Error('boom');
        return record({ intentId });
      }),
    ).rejects.toThrow('boom');
    expect(await keys(db)).toEqual([]);
  });
});

describe('removal marks: deleteMany', () => {
  it('lifts many marks in one write and leaves the others', async () => {
    const removed = createRemovedIntents(fresh('marks'));
    await removed.add(['a', 'b', 'c', 'd']);
    await removed.deleteMany(['b', 'd', 'x']);
    expect(await removed.has('a')).toBe(true);
    expect(await removed.has('b')).toBe(false);
    expect(await removed.has('c')).toBe(true);
    expect(await removed.has('d')).toBe(false);
  });
});

describe('tracker state and watched-address checkpoints', () => {
  it('live under separate keys of the settings database, so neither write overwrites the other', async () => {
    const db = fresh('settings');
    const state = createTrackerStateStore(db);
    const watched = createWatchedCheckpoints(db);
    expect(await watched.get()).toEqual({});
    await watched.set({ '0xabc': { fromTime: 1_700_000_000 } });
    await state.set({ pausedUntil: 5 });
    await state.set({});
    expect(await watched.get()).toEqual({ '0xabc': { fromTime: 1_700_000_000 } });
    await watched.set({ '0xabc': { fromTime: 1_700_000_060, after: 1_700_000_100_000 } });
    expect(await state.get()).toEqual({});
  });

  it('reads a checkpoint saved by an earlier version (the time of the last check) as a start a minute before it', async () => {
    const db = fresh('settings');
    await set('watched-checked-at', { '0xabc': 1_700_000_000 }, db);
    expect(await createWatchedCheckpoints(db).get()).toEqual({ '0xabc': { fromTime: 1_699_999_940 } });
  });
});
