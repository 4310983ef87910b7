/**
 * Issue 27, symptoms 1, 3 and 4: the user's wall clock jumps (back 10 minutes or an hour; an NTP correction of a
 * clock 10 minutes slow) while the real tracker runs against the fake service on virtual time. The service's clock
 * never jumps: it runs on the monotonic timeline. What is checked is what the service receives and what the user
 * sees (an intent expired or not).
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory';
import type { Clock } from '@/lib/time/clock';
import { Tracker } from '@/lib/tracker/engine';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { HONEST, PENDING, sid } from './engine-harness';
import { FakeService } from './fake-service';
import { EventClock, RecordingNotifier } from './fakes';

const MIN = 60_000;

/** The service's own clock: the virtual timeline, which the user's wall-clock jumps do not move. */
const serviceTime = (clock: EventClock): Clock => ({
  now: () => clock.t,
  monotonic: () => clock.t,
  sleep: (ms, signal) => clock.sleep(ms, signal),
});

/** The longest time (ms) between two requests about `intentId` that started in [from, to]. */
function longestSilence(starts: number[], from: number, to: number): number {
  const s = [from, ...starts.filter((t) => t >= from && t <= to).sort((a, b) => a - b), to];
  let longest = 0;
  for (let i = 1; i < s.length; i++) longest = Math.max(longest, s[i]! - s[i - 1]!);
  return longest;
}

/** One COMMITTED intent created `ageMs` before now on the service, and a tracker (on `serviceClock`) that reads it. */
function committedIntent(clock: EventClock, service: FakeService, serviceClock: ServiceClock, id: string, ageMs: number): Tracker {
  const createdAt = clock.t - ageMs;
  service.add({
    intentId: id,
    ownerAddress: '0xa1',
    createdAt,
    inHistory: true,
    steps: [{ at: createdAt, status: 'COMMITTED', states: PENDING }],
  });
  return new Tracker({
    store: new MemoryStore(),
    clock,
    serviceClock,
    notifier: new RecordingNotifier(),
    transport: async () => service.transport(),
    random: () => 1,
  });
}

describe('the user’s wall clock jumps while the tracker runs', () => {
  for (const jump of [-10 * MIN, -60 * MIN, 10 * MIN]) {
    it(`a jump of ${jump / MIN} min: every intent is still asked about at least once a minute (I1)`, async () => {
      const clock = new EventClock();
      const service = new FakeService(serviceTime(clock), 20_000, HONEST);
      const t0 = clock.t;
      for (let n = 1; n <= 3; n++) {
        service.add({
          intentId: sid(n),
          ownerAddress: '0xa1',
          createdAt: t0 - MIN,
          inHistory: true,
          steps: [{ at: t0 - MIN, status: 'EXECUTING', states: PENDING }],
        });
      }
      const tracker = new Tracker({
        store: new MemoryStore(),
        clock,
        notifier: new RecordingNotifier(),
        transport: async () => service.transport(),
        random: () => 1,
      });
      for (let n = 1; n <= 3; n++) await tracker.track(sid(n));
      await clock.advance(3 * MIN);
      const jumpAt = clock.t;
      clock.jumpWall(jump);
      await clock.advance(5 * MIN);
      tracker.stop();
      for (let n = 1; n <= 3; n++) {
        const starts = service.log.filter((e) => e.intentId === sid(n)).map((e) => e.start);
        // Before: 10.5 minutes of silence after a 10-minute jump back, an hour after an hour.
        expect(longestSilence(starts, jumpAt, clock.t), sid(n)).toBeLessThanOrEqual(MIN);
      }
    });
  }

  it('a clock 10 min slow corrected by NTP: a COMMITTED intent 5 min old is not expired (symptom 3)', async () => {
    const clock = new EventClock();
    clock.jumpWall(-10 * MIN);
    const service = new FakeService(serviceTime(clock), 20_000, HONEST);
    const serviceClock = new ServiceClock(clock);
    service.onServerTime = (ms) => serviceClock.observeDate(ms);
    const id = sid(7);
    const tracker = committedIntent(clock, service, serviceClock, id, 5 * MIN);
    await tracker.track(id);
    await clock.advance(MIN);
    // NTP sets the user's clock right.
    clock.jumpWall(10 * MIN);
    await clock.advance(2 * MIN);
    // 8 minutes after its creation on the service's clock: inside the commit window.
    expect((await tracker.list())[0]).toMatchObject({ phase: 'tracking', status: 'COMMITTED' });
    expect(Math.abs(serviceClock.now() - clock.t)).toBeLessThanOrEqual(2_000);
    tracker.stop();
  });

  it('a receipt with updatedAt 72 years ahead does not move the service clock (symptom 4)', async () => {
    const clock = new EventClock();
    const serviceClock = new ServiceClock(clock);
    for (let i = 0; i < 3; i++) {
      serviceClock.observeDate(Math.floor(clock.t / 1000) * 1000, clock.t - 200, clock.t);
      await clock.advance(5_000);
    }
    serviceClock.observeAtLeast(clock.t + 72 * 365 * 24 * 60 * MIN);
    expect(Math.abs(serviceClock.now() - clock.t)).toBeLessThanOrEqual(2_000);
    // With no Date header at all, a lower bound moves the estimate at most 15 minutes ahead of the local clock.
    const bare = new ServiceClock(clock);
    bare.observeAtLeast(clock.t + 72 * 365 * 24 * 60 * MIN);
    expect(bare.now()).toBe(clock.now());
  });

  it('nothing is expired while the service’s Date headers disagree; once they agree, the expiry is decided', async () => {
    const clock = new EventClock();
    const service = new FakeService(serviceTime(clock), 20_000, HONEST);
    const serviceClock = new ServiceClock(clock);
    let lying = true;
    let n = 0;
    // Every other answer comes through a proxy whose Date is an hour behind: no majority, no decision.
    service.onServerTime = (ms) => serviceClock.observeDate(lying && n++ % 2 === 0 ? ms - 60 * MIN : ms);
    const id = sid(8);
    const tracker = committedIntent(clock, service, serviceClock, id, 12 * MIN);
    await tracker.track(id);
    await clock.advance(3 * MIN);
    expect(serviceClock.decidable).toBe(false);
    expect((await tracker.list())[0]).toMatchObject({ phase: 'tracking' });
    lying = false;
    // Decided on EXPIRY_ANSWERS fresh answers in a row past the window (a long-poll answer every 20 s here).
    await clock.advance(4 * MIN);
    expect((await tracker.list())[0]).toMatchObject({ phase: 'expired' });
    tracker.stop();
  });
});

describe('a worker restarted after the wall clock went back', () => {
  it('asks an intent last answered NotFound within S(N), its error time moved back with the rest (world campaign seed 20261129, runs 5270, 5669, 22083)', async () => {
    const clock = new EventClock();
    const service = new FakeService(serviceTime(clock), 20_000, HONEST);
    const t0 = clock.t;
    // Four executing intents (three hold the long-poll slots, one is read by the sweeper) and one the service does
    // not know: the sweeper's individual checks are all that reads it.
    for (let n = 1; n <= 4; n++) {
      service.add({
        intentId: sid(n),
        ownerAddress: '0xa1',
        createdAt: t0 - MIN,
        inHistory: true,
        steps: [{ at: t0 - MIN, status: 'EXECUTING', states: PENDING }],
      });
    }
    const unknown = sid(9);
    service.add({
      intentId: unknown,
      ownerAddress: '0xa1',
      createdAt: t0,
      inHistory: true,
      visibleAt: Number.POSITIVE_INFINITY,
      steps: [{ at: t0, status: 'COMMITTED', states: PENDING }],
    });
    const store = new MemoryStore();
    const worker = () =>
      new Tracker({ store, clock, notifier: new RecordingNotifier(), transport: async () => service.transport(), random: () => 1 });
    // The first worker runs with the user's clock an hour fast; NTP sets it right while the browser is closed.
    clock.jumpWall(60 * MIN);
    const first = worker();
    for (const n of [1, 2, 3, 4, 9]) await first.track(sid(n));
    await clock.advance(2 * MIN);
    first.stop();
    const lastAsked = Math.max(...service.log.filter((e) => e.intentId === unknown).map((e) => e.start));
    expect(lastAsked).toBeGreaterThan(t0 + MIN);
    await clock.advance(30_000);
    clock.jumpWall(-60 * MIN);
    const second = worker();
    const restartAt = clock.t;
    await second.resume();
    await clock.advance(3 * MIN);
    second.stop();
    const starts = service.log.filter((e) => e.intentId === unknown && e.start >= restartAt).map((e) => e.start);
    // S(N) = 60 s for two intents outside the slots, counted from the restart (the browser closed excuses its 30 s).
    expect(starts.length).toBeGreaterThan(0);
    expect(longestSilence(starts, restartAt, clock.t)).toBeLessThanOrEqual(61_000);
  });
});
