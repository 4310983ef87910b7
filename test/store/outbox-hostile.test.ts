/**
 * Hostile tests of the per-job outbox (lib/store/outbox.ts): where it departs from the whole-table semantics it
 * replaced (read, clone, `pruneJobs(fn(table))`, write), or from what IndexedDB holds.
 */
import { promisifyRequest, set, type UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { createOutbox, type NotificationJob, storedJobs } from '@/lib/store/outbox';
import { byKey, freshOutboxStore, job } from './outbox-jobs';

const fresh = freshOutboxStore;

describe('update: the function', () => {
  it('returning undefined (a forgotten `return`) is refused, as before, rather than deleting every job', async () => {
    const db = fresh();
    const outbox = createOutbox(db);
    await outbox.update(() => byKey(job('final:a'), job('final:b')));
    // Old: pruneJobs(undefined) throws (Object.values of undefined): the update rejects, nothing is written.
    await expect(outbox.update(() => undefined as unknown as Record<string, NotificationJob>)).rejects.toThrow(TypeError);
    expect(Object.keys(await storedJobs(db)).sort()).toEqual(['final:a', 'final:b']);
  });

  it('a job under a key other than its own, or a value that is no job, is refused: nothing changes', async () => {
    // The whole-table version re-keyed such a job (pruneJobs writes `out[j.key]`), which could drop or replace the job
    // living at the key it names; no caller does it, so it is now an error.
    const db = fresh();
    const outbox = createOutbox(db);
    const a = job('final:a', { state: 'queued' });
    await outbox.update(() => byKey(a));
    await expect(outbox.update((jobs) => ({ x: job('final:a', { state: 'showing' }), ...jobs }))).rejects.toThrow(TypeError);
    await expect(outbox.update((jobs) => ({ ...jobs, x: job('final:a', { kind: 'info', state: 'done' }) }))).rejects.toThrow(TypeError);
    await expect(outbox.update((jobs) => ({ ...jobs, 'final:b': 'no job' as unknown as NotificationJob }))).rejects.toThrow(TypeError);
    expect(await outbox.all()).toEqual(byKey(a));
    expect(await storedJobs(db)).toEqual(byKey(a));
  });

  it('leaves the object it returned alone (not pruned in place, not frozen), as pruneJobs did', async () => {
    const outbox = createOutbox(fresh());
    const mine = byKey(job('final:a'), job('info:1', { kind: 'info', state: 'done' }));
    await outbox.update(() => mine);
    expect(Object.keys(mine).sort()).toEqual(['final:a', 'info:1']);
    expect(Object.isFrozen(mine)).toBe(false);
  });
});

describe('update: a put the store refuses at once', () => {
  it('writes nothing (one atomic write, as the single record was): memory and store agree', async () => {
    const db = fresh();
    const outbox = createOutbox(db);
    await outbox.update(() => byKey(job('final:a')));
    // A job that cannot be cloned: IDBObjectStore.put throws DataCloneError synchronously, after final:b's put was made.
    const bad = { ...job('final:c'), extra: () => 0 } as unknown as NotificationJob;
    await expect(outbox.update((jobs) => ({ ...jobs, 'final:b': job('final:b'), 'final:c': bad }))).rejects.toThrow();
    expect(Object.keys(await outbox.all())).toEqual(['final:a']);
    // Old: nothing written. New: final:b's put committed with the transaction.
    expect(Object.keys(await storedJobs(db)).sort()).toEqual(['final:a']);
  });
});

describe('load', () => {
  it('reads a life’s jobs while writes are refused (no legacy record to migrate)', async () => {
    const db = fresh();
    await createOutbox(db).update(() => byKey(job('final:a')));
    const readOnly: UseStore = (mode, callback) =>
      mode === 'readwrite' ? Promise.reject(new DOMException('refused', 'QuotaExceededError')) : db(mode, callback);
    // Old: all() was a readonly get. New: the first load of a life is a readwrite transaction.
    expect(Object.keys(await createOutbox(readOnly).all())).toEqual(['final:a']);
  });

  it('a migration that prunes a job stored in its own record deletes that record too', async () => {
    const db = fresh();
    // A per-job record (finished, not kept) alongside the earlier version's single record.
    await set('info:1', job('info:1', { kind: 'info', state: 'done' }), db);
    await set('jobs', byKey(job('final:a')), db);
    expect(await createOutbox(db).all()).toEqual(byKey(job('final:a')));
    // The next life reads the records: info:1 is back, and stays (an update leaves an unchanged job alone).
    const next = createOutbox(db);
    expect(await next.update((jobs) => jobs)).toEqual(byKey(job('final:a')));
    expect(await storedJobs(db)).toEqual(byKey(job('final:a')));
  });

  it('a legacy record that is not a table of jobs does not make every load fail', async () => {
    const db = fresh();
    await set('jobs', 'garbage', db);
    const outbox = createOutbox(db);
    await expect(outbox.all()).resolves.toBeDefined();
    await expect(outbox.all()).resolves.toBeDefined(); // not only the first: the record is never removed
  });

  it('a legacy job without a key does not make every load fail', async () => {
    const db = fresh();
    const { key: _k, ...keyless } = job('final:z');
    await set('jobs', { 'final:a': job('final:a'), 'final:z': keyless }, db);
    await expect(createOutbox(db).all()).resolves.toBeDefined();
  });
});

describe('attacks that held (expected to pass)', () => {
  it('a failed load is retried by the next call', async () => {
    const db = fresh();
    await createOutbox(db).update(() => byKey(job('final:a')));
    let fail = true;
    const flaky: UseStore = (mode, callback) => (fail ? Promise.reject(new Error('closed')) : db(mode, callback));
    const outbox = createOutbox(flaky);
    const first = outbox.all();
    const second = outbox.update((jobs) => ({ ...jobs, 'final:b': job('final:b') }));
    await expect(first).rejects.toThrow('closed');
    await expect(second).rejects.toThrow('closed');
    fail = false;
    expect(Object.keys(await outbox.all())).toEqual(['final:a']);
  });

  it('an all() asked during an update sees it; a rejected fn between two updates leaves them chained', async () => {
    const outbox = createOutbox(fresh());
    const u1 = outbox.update(() => byKey(job('final:a')));
    const r1 = outbox.all();
    const u2 = outbox.update(() => {
      throw new Error('no');
    });
    const u3 = outbox.update((jobs) => ({ ...jobs, 'final:b': job('final:b') }));
    const r2 = outbox.all();
    await u1;
    expect(Object.keys(await r1)).toEqual(['final:a']);
    await expect(u2).rejects.toThrow('no');
    await u3;
    expect(Object.keys(await r2).sort()).toEqual(['final:a', 'final:b']);
  });

  it('a job put then deleted in one update, a frozen return; re-keying onto a deleted key is refused', async () => {
    const db = fresh();
    const outbox = createOutbox(db);
    const a = job('final:a');
    await outbox.update(() => byKey(a));
    const snapshot = await outbox.all();
    expect(
      await outbox.update((jobs) => {
        jobs['final:b'] = job('final:b');
        delete jobs['final:b'];
        return jobs;
      }),
    ).toEqual(byKey(a));
    expect(await outbox.update(() => snapshot)).toEqual(byKey(a));
    await expect(
      outbox.update((jobs) => {
        const j = { ...jobs['final:a']!, state: 'showing' as const };
        delete jobs['final:a'];
        return { ...jobs, x: j };
      }),
    ).rejects.toThrow(TypeError);
    expect((await storedJobs(db))['final:a']?.state).toBe('queued');
  });

  it('legacy plus per-job records (a downgrade, then this version again): the legacy record, written last, wins and replaces them; re-keyed legacy jobs land under their key', async () => {
    const db = fresh();
    await set('stuck:s', job('stuck:s', { kind: 'stuck', state: 'showing' }), db);
    await set('final:gone', job('final:gone'), db);
    await set('jobs', { 'stuck:s': job('stuck:s', { kind: 'stuck', state: 'queued' }), wrong: job('final:w') }, db);
    const all = await createOutbox(db).all();
    expect(all['stuck:s']?.state).toBe('queued');
    expect(Object.keys(all).sort()).toEqual(['final:w', 'stuck:s']);
    const keys = await db('readonly', (s) => promisifyRequest(s.getAllKeys()));
    expect(keys).toEqual(['final:w', 'stuck:s']);
  });
});
