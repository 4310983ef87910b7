/**
 * The pipeline as `lib/background.ts` builds it: no clock, no timers, no grouping window given, so the defaults hold
 * (`Date.now`, `setTimeout`, a 300 ms grouping window with a 100 ms quiet flush, as PipelineDeps documents), on a fake
 * Chrome desktop: what appears, and when. Vitest's fake timers stand in for `setTimeout` and `Date` (IndexedDB's own
 * scheduling, `setImmediate`, stays real).
 */
import { createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotificationAdapter, intentIdsOfNotification } from '@/lib/notify/browser';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import { createCalmStateStore, DEFAULT_NOTIFY, type TrackedIntent } from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import { id, receiptOf, trackedStandIn } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let db = 0;
function defaultPipeline(desktop: FakeDesktop) {
  db++;
  const browser = desktop.worker();
  const pipeline = createNotificationPipeline({
    adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: false }),
    outbox: createOutbox(createStore(`defaults-outbox-${db}`, 'jobs')),
    state: createCalmStateStore(createStore(`defaults-calm-${db}`, 'calm')),
    settings: async () => DEFAULT_NOTIFY,
    intent: trackedStandIn,
    scheduleRelease: async () => {},
  });
  return { browser, pipeline };
}

const final = (n: number): TrackedIntent => ({
  intentId: id(n),
  addedAt: Date.now(),
  lastStates: [],
  phase: 'final',
  notification: 'pending',
  status: 'SUCCEEDED',
  receipt: receiptOf(n, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']),
});
/** Lets promise chains and IndexedDB's callbacks run (setImmediate: not faked). */
const settle = async (rounds = 20) => {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
};
/** Moves the fake clock by `ms`, firing the timers due, and lets IndexedDB's callbacks run. */
const sleep = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
};
/** Lets `p` settle while the fake clock stands still; 'pending' when it did not. */
const state = (p: Promise<unknown>) => Promise.race([p.then(() => 'done'), settle(50).then(() => 'pending')]);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date(2026, 10, 22, 12) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the pipeline with its defaults (wall clock, setTimeout, 300 ms window, 100 ms quiet)', () => {
  it('shows the first at once; one that follows waits for the quiet flush; one after the flush waits for the window to close', async () => {
    const desktop = new FakeDesktop('chrome', () => Date.now());
    const { pipeline } = defaultPipeline(desktop);
    const ids = () => desktop.log.map((a) => intentIdsOfNotification(a.id));
    const t0 = Date.now();
    expect(await state(pipeline.show(final(1)))).toBe('done');
    expect(ids()).toEqual([[id(1)]]);
    // Stamped with the clock.
    expect(desktop.log[0]!.id).toBe(`svc-intent:${id(1)}:${t0}`);
    const second = pipeline.show(final(2));
    await settle();
    await sleep(99);
    expect(await state(second)).toBe('pending');
    await sleep(1);
    // The quiet flush, 100 ms after it came; the window (300 ms after the first) is still open.
    expect(await state(second)).toBe('done');
    expect(ids()).toEqual([[id(1)], [id(2)]]);
    await sleep(50);
    const third = pipeline.show(final(3));
    await settle();
    // The quiet flush is spent: it waits for the end of the window, 300 ms after the first.
    await sleep(149);
    expect(await state(third)).toBe('pending');
    await sleep(1);
    expect(await state(third)).toBe('done');
    expect(Date.now() - t0).toBe(300);
    expect(ids()).toEqual([[id(1)], [id(2)], [id(3)]]);
  });

  it('a burst widens the window to 2 s: a few notifications a second, each intent told once, none waiting more than 2 s', async () => {
    const desktop = new FakeDesktop('chrome', () => Date.now());
    const { pipeline } = defaultPipeline(desktop);
    const t0 = Date.now();
    // 200 finishes, one every 25 ms: 5 s of a burst (a desk's history pages). The fake clock moves in steps of 25 ms
    // (IndexedDB's callbacks run between steps): what is due within a step happens at its end.
    const STEP = 25;
    const cameAt = new Map<string, number>();
    const shows: Promise<unknown>[] = [];
    for (let n = 1; n <= 200; n++) {
      cameAt.set(id(n), Date.now());
      shows.push(pipeline.show(final(n)));
      await settle();
      await sleep(STEP);
    }
    for (let i = 0; i < 2_100 / STEP; i++) await sleep(STEP);
    await Promise.all(shows);
    const told = desktop.log.flatMap((a) => intentIdsOfNotification(a.id).map((intentId) => ({ intentId, at: a.at })));
    // Every one told, once.
    expect(told.map((x) => x.intentId).sort()).toEqual([...cameAt.keys()].sort());
    // None waited for its group longer than the widest window.
    for (const { intentId, at } of told) expect(at - cameAt.get(intentId)!).toBeLessThanOrEqual(2_000 + STEP);
    // Windows of 300, 600, 1,200, then 2,000 ms cover the 5 s in six windows, at most three notifications each
    // (with the 300 ms window throughout, the same burst made 34).
    expect(desktop.log.length).toBeLessThanOrEqual(18);
    expect(desktop.log.at(-1)!.at - t0).toBeLessThanOrEqual(5_000 + 2_000);
    // Calm again: a lone finish long after the burst goes at once.
    await sleep(5_000);
    const alone = Date.now();
    expect(await state(pipeline.show(final(201)))).toBe('done');
    expect(desktop.log.at(-1)).toMatchObject({ at: alone });
    expect(intentIdsOfNotification(desktop.log.at(-1)!.id)).toEqual([id(201)]);
  });

  it('a rejected create is tried again a second later, on its own', async () => {
    const desktop = new FakeDesktop('chrome', () => Date.now());
    const { browser, pipeline } = defaultPipeline(desktop);
    browser.fail('create');
    expect(await state(pipeline.show(final(1)))).toBe('done');
    expect(desktop.log).toEqual([]);
    await sleep(999);
    expect(desktop.log).toEqual([]);
    await sleep(1);
    expect(desktop.log.map((a) => intentIdsOfNotification(a.id))).toEqual([[id(1)]]);
  });
});
