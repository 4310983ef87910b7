/**
 * The notification outbox (lib/store/outbox.ts) on fake-indexeddb: what `update` writes and resolves with, the
 * pruning of finished jobs (final jobs kept newest first up to KEEP_TOLD, shown stuck/chain/progress jobs kept, every
 * other finished job dropped), and an update's function never handed the stored object itself.
 */
import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { createOutbox, KEEP_TOLD, type NotificationJob, pruneJobs } from '@/lib/store/outbox';

let n = 0;
const fresh = () => createStore(`outbox-test-${++n}-${Math.random()}`, 'jobs');
const job = (key: string, over: Partial<NotificationJob> = {}): NotificationJob => ({
  key,
  kind: 'final',
  state: 'queued',
  intentIds: ['0x01'],
  attempts: 0,
  nextAt: 0,
  at: 0,
  ...over,
});
const byKey = (...jobs: NotificationJob[]) => Object.fromEntries(jobs.map((j) => [j.key, j]));

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

  it('gives update a copy: changing it in place and then throwing writes nothing', async () => {
    const outbox = createOutbox(fresh());
    await outbox.update(() => byKey(job('final:a')));
    await expect(
      outbox.update((jobs) => {
        (jobs['final:a'] as NotificationJob).state = 'shown';
        throw new Error('decided nothing');
      }),
    ).rejects.toThrow('decided nothing');
    expect((await outbox.all())['final:a']?.state).toBe('queued');
  });
});
