/** Tracking on request: validation, idempotence, pruning of the oldest finished intents, "Clear finished". */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { clearFinished, createTrackIntent, MAX_FINISHED, pruneFinished } from '@/lib/worker/track';
import { memoryTracker } from './helpers';

const ID = `0x${'ef'.repeat(32)}`;
const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const finished = (n: number, notifiedAt: number): TrackedIntent => ({
  intentId: hex(n),
  addedAt: n,
  notifiedAt,
  lastStates: [],
  phase: 'final',
  status: 'SUCCEEDED',
  notification: 'shown',
});

let stop: (() => void) | undefined;
afterEach(() => stop?.());

describe('createTrackIntent', () => {
  it('refuses text that is not an intentId with the reason, and tracks a valid one once', async () => {
    const { tracker, store } = memoryTracker();
    stop = () => tracker.stop();
    const track = createTrackIntent(tracker);
    expect(await track('hello world')).toEqual({ ok: false, message: 'An intent ID has no spaces.' });
    expect(await track(` ${ID.toUpperCase().replace('0X', '0x')} `, { source: 'menu' })).toEqual({ ok: true, added: true, intentId: ID });
    expect(await track(ID)).toEqual({ ok: true, added: false, intentId: ID });
    expect(store.map.get(ID)).toMatchObject({ source: 'menu', phase: 'tracking' });
  });

  it('prunes the finished intents beyond the newest 200 when a new one is added', async () => {
    const { tracker, store } = memoryTracker();
    stop = () => tracker.stop();
    for (let i = 0; i < MAX_FINISHED + 3; i++) await store.put(finished(i, 10_000 + i));
    await createTrackIntent(tracker)(ID);
    await vi.waitFor(() => expect([...store.map.values()].filter((t) => t.phase === 'final')).toHaveLength(MAX_FINISHED));
    for (let i = 0; i < 3; i++) expect(store.map.has(hex(i))).toBe(false);
    expect(store.map.has(ID)).toBe(true);
  });
});

describe('pruneFinished and clearFinished', () => {
  it('keeps the most recently notified, and clears every finished intent but none in flight', async () => {
    const { tracker, store } = memoryTracker();
    stop = () => tracker.stop();
    await store.put(finished(1, 500));
    await store.put({ ...finished(2, 0), notifiedAt: undefined, addedAt: 900 });
    await store.put(finished(3, 100));
    await store.put({ ...finished(4, 0), phase: 'tracking', status: 'EXECUTING', notification: 'none' });
    await pruneFinished(tracker, 2);
    expect([...store.map.keys()].sort()).toEqual([hex(1), hex(2), hex(4)]);
    await clearFinished(tracker);
    expect([...store.map.keys()]).toEqual([hex(4)]);
  });
});
