/**
 * Issue 20, reproductions 1–4: the tracker checks the service's answers before believing them (a receipt about another
 * intent, `done` without a final status, a status that flips) and compares the service's timestamps with the
 * service's clock, not the user's. Each test failed on the engine before issue 20.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import type { Clock } from '@/lib/time/clock';
import { Tracker } from '@/lib/tracker/engine';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { engineHarness, PENDING, sid } from './engine-harness';
import { FakeService } from './fake-service';
import { EventClock, RecordingNotifier } from './fakes';

const DONE = ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'];
const MIN = 60_000;

/** The user's clock: the virtual clock off by `skewMs` (positive: fast). */
function skewed(clock: EventClock, skewMs: number): Clock {
  return { now: () => clock.now() + skewMs, monotonic: () => clock.now(), sleep: (ms, signal) => clock.sleep(ms, signal) };
}

describe('answers checked before they are believed (issue 20)', () => {
  it('done: true with a non-final status does not end tracking; the SUCCEEDED that follows is notified', async () => {
    const { clock, service, tracker, store, notifier, add } = engineHarness(20_000, null);
    service.doneWhile = ['EXECUTING'];
    add(1, [
      [1_000, 'EXECUTING', PENDING],
      [30_000, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'UNKNOWN']],
      [30_000, 'SUCCEEDED', DONE],
    ]);
    await tracker.track(sid(1));
    await clock.advance(3 * MIN);
    expect(notifier.shown.map((t) => t.status)).toEqual(['SUCCEEDED']);
    expect((await store.get(sid(1)))?.status).toBe('SUCCEEDED');
    expect(service.log.filter((e) => e.status === 'SUCCEEDED').length).toBeGreaterThan(0);
    tracker.stop();
  });

  it('a WaitIntentReceipt answer about another intent is not recorded: the asked intent is notified SUCCEEDED, never FAILED', async () => {
    const { clock, service, tracker, store, notifier, add } = engineHarness(20_000, null);
    add(1, [
      [1_000, 'EXECUTING', PENDING],
      [30_000, 'SUCCEEDED', DONE],
    ]);
    add(2, [[1_000, 'FAILED', ['SUCCEEDED', 'FAILED', 'UNKNOWN']]]);
    service.answerAbout = (op, id, n) => (op === 'wait' && id === sid(1) && n < 3 ? sid(2) : undefined);
    await tracker.track(sid(1));
    const seen: Array<string | undefined> = [];
    for (let i = 0; i < 60; i++) {
      await clock.advance(2_000);
      seen.push((await store.get(sid(1)))?.receipt?.intentId);
    }
    expect(service.log.some((e) => e.foreign === sid(2))).toBe(true);
    expect(seen.filter((x) => x !== undefined && x !== sid(1))).toEqual([]);
    expect(notifier.shown.map((t) => [t.intentId, t.status])).toEqual([[sid(1), 'SUCCEEDED']]);
    const record = await store.get(sid(1));
    expect(record?.receipt?.intentId).toBe(sid(1));
    tracker.stop();
  });

  it('a GetIntentReceipt answer about another intent is not recorded (a refresh gets a typed error instead)', async () => {
    const { clock, service, tracker, notifier, add } = engineHarness(20_000, null);
    add(1, [[1_000, 'EXECUTING', PENDING]]);
    add(2, [[1_000, 'FAILED', ['SUCCEEDED', 'FAILED', 'UNKNOWN']]]);
    await tracker.track(sid(1));
    await clock.advance(5_000);
    service.answerAbout = (op, id) => (op === 'receipt' && id === sid(1) ? sid(2) : undefined);
    const refreshed = tracker.refresh(sid(1));
    await clock.advance(1_000);
    const record = await refreshed;
    expect(service.log.some((e) => e.op === 'receipt' && e.foreign === sid(2))).toBe(true);
    expect(record?.phase).toBe('tracking');
    expect(record?.status).toBe('EXECUTING');
    expect(record?.receipt?.intentId).toBe(sid(1));
    expect(record?.lastError?.kind).toBe('foreign-receipt');
    expect(notifier.shown).toEqual([]);
    tracker.stop();
  });

  it('a status that flips every 100 ms costs at most 60 requests a minute, and the end is still notified', async () => {
    const { clock, service, tracker, notifier, add } = engineHarness(20_000, null);
    const a = ['PENDING', 'UNKNOWN', 'UNKNOWN'];
    const b = ['SUCCEEDED', 'PENDING', 'UNKNOWN'];
    const flips = Array.from({ length: 6 * 600 }, (_, i) => [100, 'EXECUTING', i % 2 ? a : b] as [number, string, string[]]);
    add(1, [[1_000, 'EXECUTING', a], ...flips, [1_000, 'SUCCEEDED', DONE]]);
    await tracker.track(sid(1));
    await clock.advance(2 * MIN);
    const from = clock.now();
    await clock.advance(MIN);
    const perMinute = service.log.filter((e) => e.start >= from).length;
    expect(perMinute).toBeLessThanOrEqual(60);
    await clock.advance(6 * MIN);
    expect(notifier.shown.map((t) => t.status)).toEqual(['SUCCEEDED']);
    tracker.stop();
  });
});

describe('one clock: the service’s (issue 20)', () => {
  async function run(skewMs: number, steps: Array<[number, string, string[]]>, minutes: number) {
    const clock = new EventClock();
    const service = new FakeService(clock, 20_000, undefined);
    const user = skewed(clock, skewMs);
    const serviceClock = new ServiceClock(() => user.now());
    service.onServerTime = (ms) => serviceClock.observeDate(ms);
    const store = new MemoryStore();
    const notifier = new RecordingNotifier();
    const stuck: Array<{ id: string; at: number }> = [];
    const stuckNotifier = Object.assign(notifier, {
      showStuck: async (t: TrackedIntent) => {
        stuck.push({ id: t.intentId, at: clock.now() });
      },
    });
    const tracker = new Tracker({ store, clock: user, serviceClock, notifier: stuckNotifier, transport: async () => service.transport() });
    const t0 = clock.now();
    let t = t0;
    service.add({
      intentId: sid(1),
      ownerAddress: '0xa1',
      createdAt: t0,
      inHistory: true,
      steps: [
        { at: t0, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
        ...steps.map(([d, status, states]) => {
          t += d;
          return { at: t, status, states };
        }),
      ],
    });
    await tracker.track(sid(1));
    const phases: Array<{ at: number; phase: string }> = [];
    for (let i = 0; i < minutes * 6; i++) {
      await clock.advance(10_000);
      const p = (await store.get(sid(1)))?.phase ?? 'none';
      if (phases.at(-1)?.phase !== p) phases.push({ at: clock.now() - t0, phase: p });
    }
    tracker.stop();
    return { notifier, phases, stuck, store };
  }

  for (const skew of [6 * MIN, 10 * MIN, -10 * MIN]) {
    it(`a user clock ${skew / MIN} min off: COMMITTED executed 9 min after its commit succeeds and is notified`, async () => {
      const { notifier, phases } = await run(
        skew,
        [
          [9 * MIN, 'EXECUTING', PENDING],
          [MIN, 'SUCCEEDED', DONE],
        ],
        14,
      );
      expect(phases.map((p) => p.phase)).toEqual(['tracking', 'final']);
      expect(notifier.shown.map((t) => t.status)).toEqual(['SUCCEEDED']);
    });

    it(`a user clock ${skew / MIN} min off: a COMMITTED intent never executed expires 11 to 14 min after its commit`, async () => {
      const { phases } = await run(skew, [], 16);
      const expired = phases.find((p) => p.phase === 'expired');
      // The estimate is good to the `Date` header's second; the expiry is confirmed on EXPIRY_ANSWERS fresh answers
      // in a row past the window (a stale replica may answer COMMITTED for an intent that executes).
      expect(expired?.at).toBeGreaterThanOrEqual(11 * MIN - 2_000);
      // (EXPIRY_ANSWERS = 10 answers, one every 20 s here: about 3.3 min after the window).
      expect(expired?.at).toBeLessThanOrEqual(14 * MIN);
    });

    it(`a user clock ${skew / MIN} min off: the stuck warning comes after 15 min EXECUTING, not before`, async () => {
      const { stuck } = await run(skew, [[1_000, 'EXECUTING', PENDING]], 18);
      expect(stuck).toHaveLength(1);
      // The fake service's receipts carry no startedAt: EXECUTING counts from createdAt.
      const after = stuck[0]!.at - 1_800_000_000_000;
      expect(after).toBeGreaterThanOrEqual(15 * MIN - 2_000);
      expect(after).toBeLessThanOrEqual(16 * MIN);
    });
  }
});

describe('one clock after a restart', () => {
  it('a worker started with the user clock 10 min fast asks the service before expiring an intent committed 5 min ago', async () => {
    const clock = new EventClock();
    const service = new FakeService(clock, 20_000, undefined);
    const user = skewed(clock, 10 * MIN);
    const serviceClock = new ServiceClock(() => user.now());
    service.onServerTime = (ms) => serviceClock.observeDate(ms);
    const t0 = clock.now() - 5 * MIN;
    service.add({
      intentId: sid(1),
      ownerAddress: '0xa1',
      createdAt: t0,
      inHistory: true,
      steps: [{ at: t0, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] }],
    });
    // The record a previous worker wrote 5 s ago (on the user's clock): COMMITTED, fresh.
    const store = new MemoryStore();
    await store.put({
      intentId: sid(1),
      addedAt: user.now() - 5 * MIN,
      lastStates: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'],
      phase: 'tracking',
      notification: 'none',
      status: 'COMMITTED',
      receipt: service.receiptAt(sid(1), clock.now() - 5_000),
      lastCheckedAt: user.now() - 5_000,
    });
    const tracker = new Tracker({
      store,
      clock: user,
      serviceClock,
      notifier: new RecordingNotifier(),
      transport: async () => service.transport(),
    });
    await tracker.resume();
    await clock.advance(30_000);
    expect((await store.get(sid(1)))?.phase).toBe('tracking');
    // Expired on EXPIRY_ANSWERS fresh answers in a row past the window (a long-poll answer every 20 s here).
    await clock.advance(9 * MIN);
    expect((await store.get(sid(1)))?.phase).toBe('expired');
    tracker.stop();
  });
});
