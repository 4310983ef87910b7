/** The user's Refresh requests waiting for their read (lib/tracker/refresh-waiters.ts). */
import { describe, expect, it } from 'vitest';
import { RefreshWaiters } from '@/lib/tracker/refresh-waiters';

describe('RefreshWaiters', () => {
  it('keeps the intents asked in order, and lets each one’s waiters go when it is settled', async () => {
    const w = new RefreshWaiters();
    const done: string[] = [];
    const a1 = w.wait('a').then(() => done.push('a1'));
    void w.wait('b').then(() => done.push('b'));
    const a2 = w.wait('a').then(() => done.push('a2'));
    expect(w.ids()).toEqual(['a', 'b']);
    w.settle('a');
    await Promise.all([a1, a2]);
    expect(done).toEqual(['a1', 'a2']);
    expect(w.ids()).toEqual(['b']);
    w.settle('nobody');
    w.settleAll();
    await Promise.resolve();
    expect(done).toEqual(['a1', 'a2', 'b']);
    expect(w.ids()).toEqual([]);
  });
});
