/**
 * The in-memory stores (lib/store/memory.ts) keep the IndexedDB stores' contract: newest first, an update that
 * returns nothing writes nothing and resolves with what is stored, and a throwing updateMany writes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';

const record = (intentId: string, addedAt: number, over: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId,
  addedAt,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  ...over,
});

describe('MemoryStore', () => {
  it('lists the newest first', async () => {
    const s = new MemoryStore();
    await s.put(record('b', 2));
    await s.put(record('c', 3));
    await s.put(record('a', 1));
    expect((await s.list()).map((r) => r.intentId)).toEqual(['c', 'b', 'a']);
  });

  it('update writes what the function returns; nothing when it returns undefined, resolving with the stored one', async () => {
    const s = new MemoryStore();
    expect(await s.update('a', () => undefined)).toBeUndefined();
    expect(s.map.has('a')).toBe(false);
    expect(await s.update('a', (c) => (c ? undefined : record('a', 1)))).toEqual(record('a', 1));
    expect(await s.update('a', () => undefined)).toEqual(record('a', 1));
    expect(await s.update('a', (c) => c && { ...c, status: 'EXECUTING' })).toEqual(record('a', 1, { status: 'EXECUTING' }));
    expect(await s.get('a')).toEqual(record('a', 1, { status: 'EXECUTING' }));
    await s.remove('a');
    expect(await s.get('a')).toBeUndefined();
  });

  it('updateMany writes each decision, resolves with what is stored, and writes nothing when fn throws', async () => {
    const s = new MemoryStore();
    await s.put(record('a', 1));
    const out = await s.updateMany(['a', 'b', 'c'], (id, c) => (id === 'b' ? record('b', 2) : id === 'a' ? undefined : c));
    expect(out).toEqual([record('a', 1), record('b', 2), undefined]);
    expect([...s.map.keys()].sort()).toEqual(['a', 'b']);
    await expect(
      s.updateMany(['a', 'b'], (id, c) => {
        if (id === 'b') throw new Error('no');
        return c && { ...c, status: 'FAILED' };
      }),
    ).rejects.toThrow('no');
    expect(s.map.get('a')?.status).toBeUndefined();
  });
});

describe('MemoryStateStore', () => {
  it('holds nothing, then what was set', async () => {
    const s = new MemoryStateStore();
    expect(await s.get()).toBeUndefined();
    const state = { pausedUntil: 5, pauseReason: 'rate' };
    await s.set(state);
    expect(await s.get()).toBe(state);
  });
});
