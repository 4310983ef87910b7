/**
 * The notification outbox (lib/store/outbox.ts) on fake-indexeddb: what `update` writes and resolves with, the
 * pruning of finished jobs (final jobs kept newest first up to KEEP_TOLD, shown stuck/chain/progress jobs kept, every
 * other finished job dropped), an update's function never handed the stored jobs to change in place, one record per
 * job with only the changed ones written, the single record of the earlier version read and turned into records, and
 * random updates against a model that reads, clones, prunes and writes the whole table each time, as that version did.
 */
import fc from 'fast-check';
import { set, type UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { createOutbox, KEEP_TOLD, type NotificationJob, pruneJobs, storedJobs } from '@/lib/store/outbox';
import { byKey, freshOutboxStore, job } from './outbox-jobs';

const fresh = freshOutboxStore;

describe('pruneJobs', () => {
  it('keeps every unfinished job of every kind', () => {
    const states = ['held', 'queued', 'clearing', 'showing'] as const;
    const kinds = ['final', 'progress', 'away', 'stuck', 'info', 'chain'] as const;
    const jobs = byKey(...kinds.flatMap((kind) => states.map((state) => job(`${kind}:${state}`, { kind, state }))));
    expect(Object.keys(pruneJobs(jobs)).sort()).toEqual(Object.keys(jobs).sort());
  });

  it('keeps shown and done final jobs, shown stuck, chain and progress jobs; drops the other finished jobs', () => {
    const jobs = byKey(
      job('final:a', { kind: 'final', state: 'shown' }),
      job('final:b', { kind: 'final', state: 'done' }),
      job('stuck:a', { kind: 'stuck', state: 'shown' }),
      job('stuck:b', { kind: 'stuck', state: 'done' }),
      job('chain:a', { kind: 'chain', state: 'shown' }),
      job('chain:b', { kind: 'chain', state: 'done' }),
      job('progress:a', { kind: 'progress', state: 'shown' }),
      job('progress:b', { kind: 'progress', state: 'done' }),
      job('away:1', { kind: 'away', state: 'shown' }),
      job('away:2', { kind: 'away', state: 'done' }),
      job('info:1', { kind: 'info', state: 'shown' }),
      job('info:2', { kind: 'info', state: 'done' }),
    );
    expect(Object.keys(pruneJobs(jobs)).sort()).toEqual(['chain:a', 'final:a', 'final:b', 'progress:a', 'stuck:a']);
  });

  it('keeps the newest KEEP_TOLD finished jobs by creation time, and every unfinished one besides', () => {
    expect(KEEP_TOLD).toBe(1000);
    // Written oldest last, so that the order of the keys is not the order of `at`.
    const told = Array.from({ length: 1005 }, (_, i) => job(`final:${i}`, { state: i % 2 ? 'shown' : 'done', at: 5000 - i }));
    const open = job('final:open', { state: 'queued', at: 0 });
    const out = pruneJobs(byKey(...told, open));
    expect(Object.keys(out)).toHaveLength(1001);
    expect(out['final:open']).toEqual(open);
    // The five oldest (the highest i: the smallest `at`) are the ones dropped.
    for (let i = 1000; i < 1005; i++) expect(out[`final:${i}`]).toBeUndefined();
    for (const i of [0, 1, 500, 999]) expect(out[`final:${i}`]).toEqual(told[i]);
  });

  it('drops the oldest when they were written first too', () => {
    const told = Array.from({ length: 1001 }, (_, i) => job(`final:${i}`, { state: 'shown', at: i }));
    const out = pruneJobs(byKey(...told));
    expect(out['final:0']).toBeUndefined();
    expect(out['final:1']).toBeDefined();
    expect(out['final:1000']).toBeDefined();
  });
});

describe('createOutbox', () => {
  it('reads as empty before anything is written', async () => {
    expect(await createOutbox(fresh()).all()).toEqual({});
  });

  it('hands update an empty record at first, writes what it returns (pruned) and resolves with it', async () => {
    const outbox = createOutbox(fresh());
    const seen: Record<string, NotificationJob>[] = [];
    const kept = job('final:a', { state: 'queued' });
    const written = await outbox.update((jobs) => {
      seen.push(jobs);
      return { ...jobs, [kept.key]: kept, 'info:1': job('info:1', { kind: 'info', state: 'done' }) };
    });
    expect(seen).toEqual([{}]);
    expect(written).toEqual({ 'final:a': kept });
    expect(await outbox.all()).toEqual({ 'final:a': kept });
    // A second update starts from what the first wrote.
    await outbox.update((jobs) => {
      seen.push(jobs);
      return jobs;
    });
    expect(seen[1]).toEqual({ 'final:a': kept });
  });

  it('gives update a copy whose jobs cannot be changed in place: the attempt throws and nothing is written', async () => {
    const db = fresh();
    const outbox = createOutbox(db);
    await outbox.update(() => byKey(job('final:a')));
    await expect(
      outbox.update((jobs) => {
        (jobs['final:a'] as NotificationJob).state = 'shown';
        return jobs;
      }),
    ).rejects.toThrow(TypeError);
    await expect(
      outbox.update((jobs) => {
        delete jobs['final:a'];
        throw new Error('decided nothing');
      }),
    ).rejects.toThrow('decided nothing');
    expect((await outbox.all())['final:a']?.state).toBe('queued');
    expect(await storedJobs(db)).toEqual({ 'final:a': job('final:a') });
  });

  it('keeps one record per job, and an update writes only the jobs it changed', async () => {
    const { db, writes } = counted(fresh());
    const outbox = createOutbox(db);
    await outbox.update(() => byKey(...Array.from({ length: 50 }, (_, i) => job(`final:${i}`))));
    expect(writes.splice(0)).toHaveLength(50);
    await outbox.update((jobs) => ({ ...jobs, 'final:7': { ...jobs['final:7']!, state: 'showing' } }));
    expect(writes.splice(0)).toEqual(['put final:7']);
    await outbox.update((jobs) => {
      delete jobs['final:3'];
      jobs['info:1'] = job('info:1', { kind: 'info', state: 'done' }); // finished and not kept: never written
      return jobs;
    });
    expect(writes.splice(0)).toEqual(['delete final:3']);
    await outbox.update((jobs) => jobs);
    expect(writes).toEqual([]);
    const stored = await storedJobs(db);
    expect(Object.keys(stored).sort()).toEqual(Object.keys(await outbox.all()).sort());
    expect(stored['final:7']?.state).toBe('showing');
  });

  it('runs updates in the order asked, each on what the one before wrote; a read waits for the updates before it', async () => {
    const outbox = createOutbox(fresh());
    const seen: number[] = [];
    const updates = Array.from({ length: 20 }, (_, i) =>
      outbox.update((jobs) => {
        seen.push(Object.keys(jobs).length);
        jobs[`final:${i}`] = job(`final:${i}`, { at: i });
        return jobs;
      }),
    );
    const read = outbox.all();
    await Promise.all(updates);
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(Object.keys(await read)).toHaveLength(20);
  });

  it('a write the store refuses changes nothing, and the next update starts from what was there', async () => {
    const db = fresh();
    let refuse = false;
    const refusing: UseStore = (mode, callback) =>
      refuse && mode === 'readwrite' ? Promise.reject(new DOMException('refused', 'QuotaExceededError')) : db(mode, callback);
    const outbox = createOutbox(refusing);
    await outbox.update(() => byKey(job('final:a')));
    refuse = true;
    await expect(outbox.update((jobs) => ({ ...jobs, 'final:b': job('final:b') }))).rejects.toThrow('refused');
    expect(Object.keys(await outbox.all())).toEqual(['final:a']);
    refuse = false;
    await outbox.update((jobs) => ({ ...jobs, 'final:c': job('final:c') }));
    expect(Object.keys(await storedJobs(db)).sort()).toEqual(['final:a', 'final:c']);
  });

  it('reads the single record of the earlier version, then keeps its jobs one per record', async () => {
    const db = fresh();
    const legacy = byKey(
      job('final:a', { state: 'shown', at: 5 }),
      job('final:b', { state: 'queued', at: 6 }),
      job('info:1', { kind: 'info', state: 'done' }),
    );
    await set('jobs', legacy, db);
    const outbox = createOutbox(db);
    expect(await outbox.all()).toEqual(pruneJobs(legacy));
    const keys = await db(
      'readonly',
      (store) =>
        new Promise<IDBValidKey[]>((resolve) => {
          const req = store.getAllKeys();
          req.onsuccess = () => resolve(req.result);
        }),
    );
    expect(keys.sort()).toEqual(['final:a', 'final:b']);
    // A later life reads the records.
    expect(await createOutbox(db).all()).toEqual(pruneJobs(legacy));
  });

  it('after any updates holds and stores what reading, cloning, pruning and writing the whole table would', async () => {
    const keys = ['final:a', 'final:b', 'final:c', 'progress:a', 'stuck:b', 'chain:c:x:1', 'away:1:a', 'info:1:1'];
    const kinds = { final: 'final', progress: 'progress', stuck: 'stuck', chain: 'chain', away: 'away', info: 'info' } as const;
    const states = ['held', 'queued', 'clearing', 'showing', 'shown', 'done'] as const;
    const change = fc.oneof(
      fc.record({
        op: fc.constant('put' as const),
        key: fc.constantFrom(...keys),
        state: fc.constantFrom(...states),
        at: fc.integer({ min: 0, max: 5 }),
      }),
      fc.record({ op: fc.constant('delete' as const), key: fc.constantFrom(...keys) }),
      fc.record({ op: fc.constant('throw' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(change, { maxLength: 4 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        async (updates, keep) => {
          const db = fresh();
          let outbox = createOutbox(db, keep);
          let model: Record<string, NotificationJob> = {};
          const apply = (jobs: Record<string, NotificationJob>, changes: (typeof updates)[number]) => {
            for (const c of changes) {
              if (c.op === 'throw') throw new Error('refused');
              if (c.op === 'delete') delete jobs[c.key];
              else jobs[c.key] = job(c.key, { kind: kinds[c.key.split(':')[0] as keyof typeof kinds], state: c.state, at: c.at });
            }
            return jobs;
          };
          for (const [i, changes] of updates.entries()) {
            let expected: Record<string, NotificationJob> | undefined;
            try {
              expected = pruneJobs(apply(structuredClone(model), changes), keep);
            } catch {}
            const written = await outbox.update((jobs) => apply(jobs, changes)).catch(() => undefined);
            expect(written).toEqual(expected);
            if (expected) model = expected;
            expect(await outbox.all()).toEqual(model);
            // Now and then a new life reads what the last one stored.
            if (i % 3 === 2) outbox = createOutbox(db, keep);
          }
          expect(await storedJobs(db)).toEqual(model);
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** `db` with every put and delete of its transactions noted in `writes` (`put <key>`, `delete <key>`). */
function counted(db: UseStore): { db: UseStore; writes: string[] } {
  const writes: string[] = [];
  const wrapped: UseStore = (mode, callback) =>
    db(mode, (store) =>
      callback(
        new Proxy(store, {
          get(target, prop) {
            if (prop === 'put')
              return (value: unknown, key: IDBValidKey) => {
                writes.push(`put ${String(key)}`);
                return target.put(value, key);
              };
            if (prop === 'delete')
              return (key: IDBValidKey) => {
                writes.push(`delete ${String(key)}`);
                return target.delete(key);
              };
            const v = Reflect.get(target, prop, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        }),
      ),
    );
  return { db: wrapped, writes };
}
