/**
 * Issue 27, symptom 6: a watched-address check run while the service clock is wrong stored a checkpoint in 2098, and
 * that address's new intents were never tracked again. No checkpoint is ever stored beyond the latest the service's
 * time can be, and none is moved while the service clock's Date headers disagree.
 */
import { describe, expect, it } from 'vitest';
import type { Settings } from '@/lib/store';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { EventClock } from '../tracker/fakes';
import { type OwnerRow, watchedOnHistory } from './watched-harness';

const MINE = `0x${'a1'.repeat(20)}`;
const YEARS_72 = 72 * 365 * 24 * 3600_000;

/**
 * A check over an in-memory history of `rows` (ms creation times), on `serviceClock`, as lib/background.ts wires it;
 * the k-th answer's Date header is `lie(k)` ms off the service's time (default: none).
 */
function setUp(serviceClock: ServiceClock, clock: EventClock, rows: OwnerRow[], lie: (k: number) => number = () => 0) {
  let k = 0;
  const settings: Settings = { baseUrl: 'https://svc.example', accessKey: 'k', autoTrackAddresses: [MINE] };
  return watchedOnHistory({
    owner: MINE,
    settings,
    rows,
    serviceClock,
    now: () => clock.now(),
    monotonic: () => clock.monotonic(),
    // Every answer carries a Date header, to the second (the service's time is the EventClock's).
    onAnswer: () => serviceClock.observeDate(Math.floor(clock.t / 1000) * 1000 + lie(k++), clock.monotonic(), clock.monotonic()),
  });
}

describe('watched checkpoints and the service clock', () => {
  it('a receipt 72 years ahead does not carry the checkpoint into the future; new intents are still tracked', async () => {
    const clock = new EventClock();
    const serviceClock = new ServiceClock(clock);
    serviceClock.observeDate(Math.floor(clock.t / 1000) * 1000);
    serviceClock.observeAtLeast(clock.t + YEARS_72);
    const rows = [{ intentId: `0x${'1'.repeat(64)}`, at: clock.t - 60_000 }];
    const w = setUp(serviceClock, clock, rows);
    await w.check(true);
    expect(w.checkpoint()!.fromTime * 1000).toBeLessThanOrEqual(clock.t);
    rows.push({ intentId: `0x${'2'.repeat(64)}`, at: clock.t + 30_000 });
    await clock.advance(60_000);
    await w.check(true);
    expect(new Set(w.tracked)).toEqual(new Set(rows.map((r) => r.intentId)));
  });

  it('a history row created in the service’s future never sets the checkpoint beyond the service’s time', async () => {
    const clock = new EventClock();
    const serviceClock = new ServiceClock(clock);
    serviceClock.observeDate(Math.floor(clock.t / 1000) * 1000);
    const w = setUp(serviceClock, clock, [{ intentId: `0x${'3'.repeat(64)}`, at: clock.t + YEARS_72 }]);
    await w.check(true);
    expect(w.checkpoint()!.fromTime * 1000).toBeLessThanOrEqual(clock.t + 2_000);
  });

  it('while the service’s Date headers disagree, the check waits and moves no checkpoint', async () => {
    const clock = new EventClock();
    const serviceClock = new ServiceClock(clock);
    serviceClock.observeDate(clock.t);
    serviceClock.observeDate(clock.t + YEARS_72);
    // Every other answer 72 years ahead: the samples never agree enough.
    const w = setUp(serviceClock, clock, [{ intentId: `0x${'4'.repeat(64)}`, at: clock.t - 60_000 }], (k) => (k % 2 ? 0 : YEARS_72));
    expect(await w.check(true)).toBe(0);
    expect(w.checkpoint()).toBeUndefined();
  });

  it('the once-a-minute throttle is on the monotonic clock: a wall clock gone back an hour does not stop the check', async () => {
    const clock = new EventClock();
    const serviceClock = new ServiceClock(clock);
    const w = setUp(serviceClock, clock, [{ intentId: `0x${'5'.repeat(64)}`, at: clock.t - 60_000 }]);
    await w.check();
    clock.jumpWall(-3600_000);
    await clock.advance(61_000);
    w.tracked.length = 0;
    await w.check();
    // Checked again (the row is in the overlap), not throttled for an hour.
    expect(w.tracked).toHaveLength(1);
  });
});
