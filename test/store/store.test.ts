/**
 * The IndexedDB stores (fake-indexeddb): atomic read-modify-write of one intent, nothing written when there is
 * nothing to write, and the tracker state and the watched-address checkpoints kept apart.
 */
import { createStore, get, keys, set, type UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import {
  createAsideRecords,
  createCalmStateStore,
  createIntentStore,
  createReceiptCache,
  createRemovedIntents,
  createServiceOffsetStore,
  createTrackerStateStore,
  createWatchedCheckpoints,
  EMPTY_CALM,
  MAX_REMOVED_MARKS,
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

const idOf = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

/** Counts the read-write transactions run on `db` (a write of idb-keyval's set/update/del is one each). */
const counting = (db: UseStore) => {
  const counted = Object.assign(
    ((mode, callback) => {
      if (mode === 'readwrite') counted.writes++;
      return db(mode, callback);
    }) as UseStore,
    { writes: 0 },
  );
  return counted;
};

describe('intent store: list and remove', () => {
  it('lists readable records newest first and leaves out what the worker has not read yet', async () => {
    const db = fresh('list');
    const store = createIntentStore(db);
    await store.put(record({ intentId: idOf(1), addedAt: 10 }));
    await store.put(record({ intentId: idOf(3), addedAt: 30 }));
    await store.put(record({ intentId: idOf(2), addedAt: 20, phase: 'final' }));
    const damaged = [
      null,
      'text',
      { ...record({ intentId: idOf(4) }), intentId: 4 },
      { ...record({ intentId: idOf(5) }), addedAt: '5' },
      { ...record({ intentId: idOf(6) }), lastStates: undefined },
      { ...record({ intentId: idOf(7) }), phase: 'archived' },
    ];
    for (const [i, raw] of damaged.entries()) await set(`damaged-${i}`, raw, db);
    expect((await store.list()).map((r) => r.intentId)).toEqual([idOf(3), idOf(2), idOf(1)]);
    for (const phase of ['not-found', 'expired'] as const) await store.put(record({ intentId: idOf(8), addedAt: 40, phase }));
    expect((await store.list()).map((r) => r.intentId)).toEqual([idOf(8), idOf(3), idOf(2), idOf(1)]);
  });

  it('remove deletes the one record', async () => {
    const store = createIntentStore(fresh('remove'));
    await store.put(record({ intentId: idOf(1) }));
    await store.put(record({ intentId: idOf(2) }));
    await store.remove(idOf(1));
    expect(await store.get(idOf(1))).toBeUndefined();
    expect((await store.list()).map((r) => r.intentId)).toEqual([idOf(2)]);
  });

  it('updateMany rejects with the error the function threw, not the transaction’s abort', async () => {
    const store = createIntentStore(fresh('many-error'));
    const thrown = new Error('the decision failed');
    await expect(
      store.updateMany!([idOf(1), idOf(2)], (intentId) => {
        if (intentId === idOf(2)) throw thrown;
        return record({ intentId });
      }),
    ).rejects.toBe(thrown);
  });
});

describe('removal marks: add', () => {
  it('a mark added again becomes the newest; the newest MAX_REMOVED_MARKS are kept', async () => {
    const db = fresh('marks-cap');
    const removed = createRemovedIntents(db);
    expect(MAX_REMOVED_MARKS).toBe(5_000);
    await removed.add(Array.from({ length: 5_000 }, (_, i) => `m${i}`));
    await removed.add(['m0']);
    await removed.add(['new']);
    // m1 was the oldest once m0 was marked again: it is the one forgotten.
    expect(await removed.has('m1')).toBe(false);
    expect(await removed.has('m0')).toBe(true);
    expect(await removed.has('m2')).toBe(true);
    expect(await removed.has('new')).toBe(true);
  });

  it('reads marks an earlier version stored, skipping anything not an intentId string', async () => {
    const db = fresh('marks-saved');
    await set('removed-intents', ['a', 7, null, 'b'], db);
    const removed = createRemovedIntents(db);
    expect(await removed.has('a')).toBe(true);
    await removed.add(['c']);
    expect(await get('removed-intents', db)).toEqual(['a', 'b', 'c']);
  });

  it('writes nothing for no intents, and deleteMany writes nothing when none of them is marked', async () => {
    const db = counting(fresh('marks-writes'));
    const removed = createRemovedIntents(db);
    await removed.add([]);
    expect(db.writes).toBe(0);
    await removed.add(['a']);
    expect(db.writes).toBe(1);
    await removed.deleteMany(['x', 'y']);
    expect(db.writes).toBe(1);
    await removed.deleteMany(['a']);
    expect(db.writes).toBe(2);
  });
});

describe('records set aside', () => {
  it('are listed in the order added, read back from what an earlier version stored, and a no-op add writes nothing', async () => {
    const db = counting(fresh('aside'));
    const aside = createAsideRecords(db);
    expect(await aside.list()).toEqual([]);
    const a = { key: 'k1', raw: { x: 1 }, reason: 'phase: Invalid', at: 5 };
    await set('unreadable-intents', [a], db);
    const writes = db.writes;
    await aside.add([]);
    expect(db.writes).toBe(writes);
    const b = { key: 'k2', raw: 'junk', reason: 'not an object', at: 6 };
    await aside.add([b]);
    expect(await aside.list()).toEqual([a, b]);
  });

  it('a damaged list reads as none, and the next add starts a new one', async () => {
    const db = fresh('aside-damaged');
    await set('unreadable-intents', { not: 'a list' }, db);
    const aside = createAsideRecords(db);
    expect(await aside.list()).toEqual([]);
    const b = { key: 'k2', raw: 1, reason: 'r', at: 6 };
    await aside.add([b]);
    expect(await aside.list()).toEqual([b]);
  });
});

describe('service offset and calm state', () => {
  it('the service offset reads 0 when none or a non-finite number was saved, else what was saved', async () => {
    const db = fresh('offset');
    const offset = createServiceOffsetStore(db);
    expect(await offset.get()).toBe(0);
    await offset.set(-1_234);
    expect(await offset.get()).toBe(-1_234);
    expect(await get('service-offset', db)).toBe(-1_234);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '5']) {
      await set('service-offset', bad, db);
      expect(await offset.get()).toBe(0);
    }
  });

  it('the calm state reads as empty, then as saved over the empty one, with fresh lists each time', async () => {
    const db = fresh('calm');
    const calm = createCalmStateStore(db);
    const first = await calm.get();
    expect(first).toEqual({ muted: [], held: [], progress: {} });
    first.muted.push('0x01');
    expect((await calm.get()).muted).toEqual([]);
    await calm.set({ ...EMPTY_CALM, muted: ['0x02'] });
    expect(await calm.get()).toEqual({ muted: ['0x02'], held: [], progress: {} });
    await set('calm-state', { held: [] }, db);
    expect(await calm.get()).toEqual({ muted: [], held: [], progress: {} });
  });
});

describe('receipt cache', () => {
  const entry = (fetchedAt: number) => ({ receipt: { intentId: `r${fetchedAt}` } as never, fetchedAt });

  it('keeps the newest `cap` receipts by fetch time, whatever their keys', async () => {
    const cache = createReceiptCache(fresh('receipts'), 2);
    await cache.put('c', entry(30));
    await cache.put('a', entry(10));
    expect(await cache.get('a')).toEqual(entry(10));
    await cache.put('b', entry(20));
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('b')).toEqual(entry(20));
    expect(await cache.get('c')).toEqual(entry(30));
    await cache.put('d', entry(5));
    expect(await cache.get('d')).toBeUndefined();
    expect(await cache.get('b')).toEqual(entry(20));
  });
});
