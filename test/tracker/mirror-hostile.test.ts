/**
 * Hostile tests of IntentMirror.remove when IndexedDB refuses a removal: removals racing, remove then track again,
 * a removal of an intent never loaded.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory';
import { IntentMirror } from '@/lib/tracker/mirror';
import { trackedRecord as rec } from './fakes';

/**
 * A store whose operations run one after another in the order asked, as IndexedDB runs read-write transactions on one
 * object store; each removal waits for the test to accept or refuse it, and holds every later operation behind it.
 */
function gatedRemovals(store: MemoryStore) {
  const pending: Array<{ id: string; accept: () => void; refuse: (err: Error) => void }> = [];
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const run = queue.then(op);
    queue = run.catch(() => {});
    return run;
  };
  const { get, update, updateMany, remove } = {
    get: store.get.bind(store),
    update: store.update.bind(store),
    updateMany: store.updateMany.bind(store),
    remove: store.remove.bind(store),
  };
  store.get = (id) => serial(() => get(id));
  store.update = (id, fn) => serial(() => update(id, fn));
  store.updateMany = (ids, fn) => serial(() => updateMany(ids, fn));
  store.remove = (id) =>
    serial(() => new Promise<void>((resolve, reject) => pending.push({ id, accept: () => void remove(id).then(resolve), refuse: reject })));
  return pending;
}

/** Lets every queued step run. */
const settle = () => new Promise<void>((r) => setTimeout(r, 0));

describe('IntentMirror.remove under refusals (hostile)', () => {
  for (const held of [false, true])
    it(`two removals racing, the first refused and the second accepted: the intent is gone from the mirror too (${held ? 'a held copy' : 'no held copy'})`, async () => {
      const store = new MemoryStore();
      await store.put(rec('a', { lastCheckedAt: 3_600_010 }));
      const mirror = new IntentMirror(store);
      await mirror.load();
      if (held) mirror.hold(rec('a', { lastCheckedAt: 10 }));
      const pending = gatedRemovals(store);
      // The user clicks Remove twice (or Remove and Clear finished) while the disk is full; room comes back between.
      const first = mirror.remove('a');
      const second = mirror.remove('a');
      first.catch(() => {});
      await settle();
      pending[0]?.refuse(new DOMException('quota', 'QuotaExceededError'));
      await settle();
      expect(pending.length).toBe(2);
      pending[1]?.accept();
      await expect(first).rejects.toThrow('quota');
      await second;
      expect(await store.get('a')).toBeUndefined();
      // The store no longer has it: the mirror must not keep checking (and listing) it until the worker restarts.
      expect(mirror.get('a')).toBeUndefined();
      expect(mirror.values()).toEqual([]);
    });

  it('two removals racing, both refused: the held copy survives (not the store copy an hour ahead)', async () => {
    const store = new MemoryStore();
    await store.put(rec('a', { lastCheckedAt: 3_600_010 }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    const movedBack = rec('a', { lastCheckedAt: 10 });
    mirror.hold(movedBack);
    const pending = gatedRemovals(store);
    const first = mirror.remove('a');
    const second = mirror.remove('a');
    first.catch(() => {});
    second.catch(() => {});
    await settle();
    pending[0]?.refuse(new Error('refused 1'));
    await settle();
    pending[1]?.refuse(new Error('refused 2'));
    await expect(first).rejects.toThrow('refused 1');
    await expect(second).rejects.toThrow('refused 2');
    expect(mirror.get('a')).toEqual(movedBack);
    await mirror.write('a', (c) => (c ? { ...c, seen: true } : undefined));
    expect(await store.get('a')).toEqual({ ...movedBack, seen: true });
  });

  it('remove refused while the intent is tracked again: the new record stays, tracked and stored', async () => {
    const store = new MemoryStore();
    await store.put(rec('a', { lastCheckedAt: 3_600_010 }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    mirror.hold(rec('a', { lastCheckedAt: 10 }));
    const pending = gatedRemovals(store);
    const removing = mirror.remove('a');
    removing.catch(() => {});
    // Track again (Tracker.trackMany: revive, then write) while the removal is pending.
    mirror.revive('a');
    const tracking = mirror.write('a', (c) => rec('a', { addedAt: 2, lastCheckedAt: c?.lastCheckedAt }));
    await settle();
    pending[0]?.refuse(new Error('refused'));
    await expect(removing).rejects.toThrow('refused');
    await tracking;
    expect(mirror.get('a')).toMatchObject({ addedAt: 2, lastCheckedAt: 10 });
    expect(await store.get('a')).toEqual(mirror.get('a'));
  });

  it('remove accepted while the intent is tracked again: the new record stays (the removal came first)', async () => {
    const store = new MemoryStore();
    await store.put(rec('a'));
    const mirror = new IntentMirror(store);
    await mirror.load();
    const pending = gatedRemovals(store);
    const removing = mirror.remove('a');
    mirror.revive('a');
    const tracking = mirror.write('a', (c) => rec('a', { addedAt: c ? c.addedAt : 2 }));
    await settle();
    pending[0]?.accept();
    await removing;
    await tracking;
    // Whatever the store kept, the mirror shows the same: what it checks is what a restarted worker would find.
    expect(mirror.get('a')).toEqual(await store.get('a'));
  });

  it('a refused removal of an intent never loaded or tracked adds nothing', async () => {
    const store = new MemoryStore();
    const mirror = new IntentMirror(store);
    await mirror.load();
    store.remove = () => Promise.reject(new Error('refused'));
    await expect(mirror.remove('ghost')).rejects.toThrow('refused');
    expect(mirror.get('ghost')).toBeUndefined();
    expect(mirror.values()).toEqual([]);
  });
});
