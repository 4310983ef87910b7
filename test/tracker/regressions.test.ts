/**
 * One test per defect found in review of the tracker (issue 10), each against the fake service on virtual time.
 * Each failed on the engine before the rewrite.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import type { TrackerDeps } from '@/lib/tracker/types';
import { HONEST, sid as id, PENDING } from './engine-harness';
import { type FakeIntent, FakeService, type HistoryMode } from './fake-service';
import { EventClock, RecordingNotifier } from './fakes';

const OWNER = '0x00000000000000000000000000000000000000a1';
const UNKNOWN = ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'];

/** An intent created at `at`: COMMITTED, then each [delay, status, states] step after the previous one. */
function intent(n: number, at: number, steps: Array<[number, string, string[]]>, extra: Partial<FakeIntent> = {}): FakeIntent {
  let t = at;
  return {
    intentId: id(n),
    ownerAddress: OWNER,
    createdAt: at,
    inHistory: true,
    steps: [
      { at, status: 'COMMITTED', states: UNKNOWN },
      ...steps.map(([d, status, states]) => {
        t += d;
        return { at: t, status, states };
      }),
    ],
    ...extra,
  };
}

function setup(waitMs: number, history: HistoryMode | undefined, overrides: Partial<TrackerDeps> = {}) {
  const clock = new EventClock();
  const service = new FakeService(clock, waitMs, history);
  const store = new MemoryStore();
  const notifier = new RecordingNotifier();
  const tracker = new Tracker({
    store,
    stateStore: new MemoryStateStore(),
    clock,
    notifier,
    transport: async () => service.transport(),
    random: () => 0.5,
    ...overrides,
  });
  const shownAt = new Map<string, number>();
  const show = notifier.show.bind(notifier);
  notifier.show = async (t: TrackedIntent) => {
    shownAt.set(t.intentId, clock.now());
    return show(t);
  };
  return { clock, service, store, notifier, tracker, shownAt };
}

describe('tracker regressions (issue 10)', () => {
  it('five intents with history on: the two outside the long-poll slots are read again, never expired while executing, and notified', async () => {
    const { clock, service, tracker, store, shownAt } = setup(20_000, HONEST);
    const t0 = clock.now();
    for (const n of [1, 2, 3]) service.add(intent(n, t0, [[1_000, 'EXECUTING', PENDING]]));
    // Tracked a second later: COMMITTED at first, EXECUTING 30 s later, finished after 14 minutes.
    for (const n of [4, 5]) {
      service.add(
        intent(n, t0 + 1_000, [
          [30_000, 'EXECUTING', PENDING],
          [14 * 60_000, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']],
        ]),
      );
    }
    for (const n of [1, 2, 3]) await tracker.track(id(n));
    await clock.advance(1_000);
    for (const n of [4, 5]) await tracker.track(id(n));
    await clock.advance(12 * 60_000);
    for (const n of [4, 5]) expect((await store.get(id(n)))?.phase).toBe('tracking');
    for (const n of [4, 5]) expect((await store.get(id(n)))?.status).toBe('EXECUTING');
    await clock.advance(4 * 60_000);
    for (const n of [4, 5]) {
      expect((await store.get(id(n)))?.phase).toBe('final');
      const finished = t0 + 1_000 + 30_000 + 14 * 60_000;
      expect(shownAt.get(id(n))! - finished).toBeLessThanOrEqual(61_000);
    }
    tracker.stop();
  });

  it('intents history never lists are still read at least once a minute while others hold the long-poll slots', async () => {
    const { clock, service, tracker } = setup(20_000, HONEST);
    const t0 = clock.now();
    // 1–3 change every 10 s (they keep the slots); 4–6 never change and history never lists them.
    const busy = Array.from({ length: 60 }, (_, i) => [10_000, 'EXECUTING', ['PENDING', `S${i}`, 'UNKNOWN']] as [number, string, string[]]);
    for (let n = 1; n <= 3; n++) service.add(intent(n, t0, [[1_000, 'EXECUTING', PENDING], ...busy]));
    for (let n = 4; n <= 6; n++) service.add(intent(n, t0, [[1_000, 'EXECUTING', PENDING]], { inHistory: false }));
    for (let n = 1; n <= 6; n++) await tracker.track(id(n));
    await clock.advance(10 * 60_000);
    for (let n = 4; n <= 6; n++) {
      const answers = [t0, ...service.log.filter((e) => e.intentId === id(n) && e.outcome === 'answer').map((e) => e.end!), clock.now()];
      const gaps = answers.slice(1).map((at, i) => at - answers[i]!);
      expect(Math.max(...gaps), id(n)).toBeLessThanOrEqual(61_000);
    }
    tracker.stop();
  });

  it('remove() while a write of the same intent is in flight: no more requests, never listed again', async () => {
    const { clock, service, tracker, store } = setup(20_000, undefined);
    const t0 = clock.now();
    // States change on every step: each answer is written, so a write is often in flight.
    service.add(
      intent(
        1,
        t0,
        Array.from({ length: 200 }, (_, i) => [300, 'EXECUTING', ['PENDING', `S${i}`, 'UNKNOWN']] as [number, string, string[]]),
      ),
    );
    // The store has written the answer, but its promise resolves only when released (an IndexedDB transaction
    // that committed while remove() was called).
    let hold: (() => void) | undefined;
    const update = store.update.bind(store);
    store.update = async (intentId, fn) => {
      const written = await update(intentId, fn);
      if (hold === undefined && service.log.length >= 3) await new Promise<void>((r) => (hold = r));
      return written;
    };
    await tracker.track(id(1));
    await clock.advance(2_000);
    expect(hold).toBeDefined();
    const removed = tracker.remove(id(1));
    hold!();
    await removed;
    const after = service.log.length;
    await clock.advance(5_000);
    expect(service.log.slice(after).filter((e) => e.intentId === id(1))).toEqual([]);
    expect((await tracker.list()).map((t) => t.intentId)).not.toContain(id(1));
    expect(await store.get(id(1))).toBeUndefined();
    tracker.stop();
  });

  it('refresh() sends a GetIntentReceipt and resolves with its answer written', async () => {
    const { clock, service, tracker } = setup(20_000, undefined);
    const t0 = clock.now();
    service.add(
      intent(1, t0, [
        [1_000, 'EXECUTING', PENDING],
        [10_000, 'REFUNDED', PENDING],
      ]),
    );
    await tracker.track(id(1));
    await clock.advance(12_000);
    const before = service.log.length;
    const refreshed = tracker.refresh(id(1));
    await clock.advance(100);
    const record = await refreshed;
    expect(service.log.slice(before).map((e) => e.op)).toContain('receipt');
    expect(record?.status).toBe('REFUNDED');
    tracker.stop();
  });

  it('after a history page the tracker holds what the store holds (nothing in memory only)', async () => {
    const { clock, service, tracker, store } = setup(20_000, HONEST);
    const t0 = clock.now();
    for (let n = 1; n <= 6; n++) service.add(intent(n, t0, [[1_000, 'EXECUTING', PENDING]]));
    for (let n = 1; n <= 6; n++) await tracker.track(id(n));
    await clock.advance(30_000);
    expect(service.log.some((e) => e.op === 'history')).toBe(true);
    const strip = (l: TrackedIntent[]) => l.map((t) => ({ ...t })).sort((a, b) => a.intentId.localeCompare(b.intentId));
    expect(strip(await tracker.list())).toEqual(strip(await store.list()));
    tracker.stop();
  });

  it('a server that answers WaitIntentReceipt at once: idle cost stays under 60 a minute and does not grow with N', async () => {
    for (const n of [6, 12]) {
      const { clock, service, tracker } = setup(0, HONEST);
      const t0 = clock.now();
      for (let i = 1; i <= n; i++) service.add(intent(i, t0, [[1_000, 'EXECUTING', PENDING]]));
      for (let i = 1; i <= n; i++) await tracker.track(id(i));
      await clock.advance(120_000);
      const from = clock.now();
      await clock.advance(60_000);
      const perMinute = service.log.filter((e) => e.start >= from).length;
      expect(perMinute, `${n} intents`).toBeLessThanOrEqual(45);
      tracker.stop();
    }
  });

  it('REFUNDED while the intent holds a long-poll slot (leg states unchanged) is notified within seconds', async () => {
    const { clock, service, tracker, shownAt } = setup(120_000, HONEST);
    const t0 = clock.now();
    service.add(
      intent(1, t0, [
        [1_000, 'EXECUTING', PENDING],
        [30_000, 'REFUNDED', PENDING],
      ]),
    );
    await tracker.track(id(1));
    await clock.advance(60_000);
    expect(shownAt.get(id(1))! - (t0 + 31_000)).toBeLessThanOrEqual(5_500);
    tracker.stop();
  });

  it('an intent unknown at first (NotFound) is notified within 5 s of finishing when it appears a moment later', async () => {
    const { clock, service, tracker, shownAt } = setup(20_000, HONEST);
    const t0 = clock.now();
    const steps: Array<[number, string, string[]]> = [
      [25_000, 'EXECUTING', PENDING],
      [2_000, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']],
    ];
    service.add(intent(1, t0, steps, { visibleAt: t0 + 25_000 }));
    await tracker.track(id(1));
    await clock.advance(90_000);
    expect(shownAt.get(id(1))! - (t0 + 27_000)).toBeLessThanOrEqual(5_000);
    tracker.stop();
  });
});
