import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory';
import { IntentMirror } from '@/lib/tracker/mirror';
import { trackedRecord as rec } from './fakes';

describe('IntentMirror', () => {
  it('loads the store once, writes through it, and tells listeners unless quiet', async () => {
    const store = new MemoryStore();
    await store.put(rec('a'));
    const changes: string[] = [];
    const mirror = new IntentMirror(store, (id) => changes.push(id));
    await mirror.load();
    await store.put(rec('b'));
    await mirror.load();
    expect(mirror.values().map((t) => t.intentId)).toEqual(['a']);
    await mirror.write('a', (c) => (c ? { ...c, seen: true } : undefined));
    await mirror.write('a', (c) => (c ? { ...c, status: 'X' } : undefined), { quiet: true });
    await mirror.write('a', () => undefined);
    expect(changes).toEqual(['a']);
    expect(mirror.get('a')).toMatchObject({ seen: true, status: 'X' });
    expect(await store.get('a')).toEqual(mirror.get('a'));
  });

  it('a write that leaves an unknown intent alone adds nothing to the mirror', async () => {
    const changes: string[] = [];
    const mirror = new IntentMirror(new MemoryStore(), (id) => changes.push(id));
    await mirror.load();
    expect(await mirror.write('unknown', (c) => c)).toBeUndefined();
    expect(mirror.get('unknown')).toBeUndefined();
    expect(mirror.values()).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('a write that lands after remove() does not bring the intent back; revive() lifts that', async () => {
    const store = new MemoryStore();
    const mirror = new IntentMirror(store);
    await mirror.write('a', () => rec('a'));
    let release!: () => void;
    const update = store.update.bind(store);
    store.update = async (id, fn) => {
      const written = await update(id, fn);
      await new Promise<void>((r) => (release = r));
      return written;
    };
    const write = mirror.write('a', (c) => (c ? { ...c, status: 'EXECUTING' } : undefined));
    await Promise.resolve();
    const removed = mirror.remove('a');
    release();
    expect(await write).toBeUndefined();
    await removed;
    expect(mirror.get('a')).toBeUndefined();
    store.update = update;
    mirror.revive('a');
    await mirror.write('a', () => rec('a'));
    expect(mirror.get('a')).toBeDefined();
  });

  it('a load that read the store before a write or a remove lands keeps the newer mirror', async () => {
    const store = new MemoryStore();
    await store.put(rec('a', { status: 'COMMITTED' }));
    await store.put(rec('b'));
    const list = store.list.bind(store);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    store.list = async () => {
      const picture = await list();
      await gate;
      return picture;
    };
    const mirror = new IntentMirror(store);
    const loading = mirror.load();
    await mirror.write('a', (c) => (c ? { ...c, status: 'EXECUTING' } : undefined));
    await mirror.remove('b');
    release();
    await loading;
    expect(mirror.get('a')?.status).toBe('EXECUTING');
    expect(mirror.get('b')).toBeUndefined();
    expect(mirror.values().map((t) => t.intentId)).toEqual(['a']);
  });

  it('a removal the store refuses keeps the copy held in memory, not the older one the store has', async () => {
    // Seed 20261130 run 11618: times moved back at load (the clock went back an hour) were held while IndexedDB refused
    // writes; the user's remove was refused too, and the store's copy, an hour ahead, came back: never asked again.
    const store = new MemoryStore();
    const hourAhead = 3_600_000;
    await store.put(rec('a', { lastCheckedAt: 10 + hourAhead, retry: { attempt: 8, nextAt: 20 + hourAhead, at: 10 + hourAhead } }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    const movedBack = rec('a', { lastCheckedAt: 10, retry: { attempt: 8, nextAt: 20, at: 10 } });
    mirror.hold(movedBack);
    const remove = store.remove.bind(store);
    store.remove = () => Promise.reject(new DOMException('quota', 'QuotaExceededError'));
    await expect(mirror.remove('a')).rejects.toThrow('quota');
    expect(mirror.get('a')).toEqual(movedBack);
    // Still held: the next write starts from it (here one that refreshes the grace only), not from the store's copy.
    await mirror.write('a', (c) => (c ? { ...c, seen: true } : undefined));
    expect(await store.get('a')).toEqual({ ...movedBack, seen: true });
    // A removal the store accepts forgets the intent, held copy and all.
    mirror.hold({ ...movedBack, seen: false });
    store.remove = remove;
    await mirror.remove('a');
    expect(mirror.get('a')).toBeUndefined();
    expect(await store.get('a')).toBeUndefined();
  });

  it('a refused removal keeps a write that landed meanwhile (the store is then newer than the held copy)', async () => {
    const store = new MemoryStore();
    await store.put(rec('a', { status: 'COMMITTED' }));
    const mirror = new IntentMirror(store);
    await mirror.load();
    mirror.hold(rec('a', { status: 'COMMITTED', lastCheckedAt: 5 }));
    let reject!: (err: Error) => void;
    store.remove = () => new Promise<void>((_resolve, r) => (reject = r));
    const removing = mirror.remove('a');
    await mirror.write('a', (c) => (c ? { ...c, status: 'EXECUTING' } : undefined));
    reject(new Error('refused'));
    await expect(removing).rejects.toThrow('refused');
    expect(mirror.get('a')).toMatchObject({ status: 'EXECUTING', lastCheckedAt: 5 });
  });

  it('a failed load is tried again by the next call', async () => {
    const store = new MemoryStore();
    await store.put(rec('a'));
    const list = store.list.bind(store);
    let fail = true;
    store.list = () => (fail ? Promise.reject(new Error('blocked')) : list());
    const mirror = new IntentMirror(store);
    await expect(mirror.load()).rejects.toThrow('blocked');
    fail = false;
    await mirror.load();
    expect(mirror.get('a')).toBeDefined();
  });
});
