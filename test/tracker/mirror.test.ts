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
