/** The service clock alone: estimates from `Date` headers and `updatedAt` lower bounds, with a local clock 10 min off. */
import { describe, expect, it } from 'vitest';
import { DRIFT_PPM, fetchObservingDate, MAX_DECIDE_ERROR_MS, ServiceClock } from '@/lib/tracker/service-clock';
import { EventClock } from './fakes';

const SERVICE = 1_800_000_000_000;
const MIN = 60_000;

describe('ServiceClock', () => {
  it('equals the local clock until evidence arrives', () => {
    const c = new ServiceClock(() => SERVICE + 10 * MIN);
    expect(c.now()).toBe(SERVICE + 10 * MIN);
    expect(c.offsetMs).toBe(0);
  });

  for (const skew of [10 * MIN, -10 * MIN]) {
    it(`a local clock ${skew / MIN} min off: the Date headers give the service's time to the second`, () => {
      let service = SERVICE;
      const c = new ServiceClock(() => service + skew);
      for (let i = 0; i < 3; i++) {
        // The header is truncated to the second.
        c.observeDate(Math.floor(service / 1000) * 1000);
        service += 1_234;
      }
      expect(Math.abs(c.now() - service)).toBeLessThanOrEqual(1_000);
      expect(c.toLocal(service)).toBeCloseTo(service + skew, -4);
    });
  }

  it('one odd Date header among five does not move the estimate (median)', () => {
    const c = new ServiceClock(() => SERVICE);
    for (const d of [0, 0, 3_600_000, 0, 0]) c.observeDate(SERVICE + d);
    expect(Math.abs(c.now() - SERVICE)).toBeLessThanOrEqual(1_000);
  });

  it('updatedAt ahead of the estimate moves it forward (a slow local clock); behind it, it does nothing', () => {
    const c = new ServiceClock(() => SERVICE - 10 * MIN);
    c.observeAtLeast(SERVICE - 20 * MIN);
    expect(c.offsetMs).toBe(0);
    c.observeAtLeast(SERVICE);
    expect(c.now()).toBe(SERVICE);
    c.observeAtLeast(Number.NaN);
    expect(c.now()).toBe(SERVICE);
  });

  it('a Date header replaces a lower bound learnt earlier', () => {
    const c = new ServiceClock(() => SERVICE);
    c.observeAtLeast(SERVICE + 5 * MIN);
    c.observeDate(SERVICE);
    expect(Math.abs(c.now() - SERVICE)).toBeLessThanOrEqual(1_000);
    c.observeDate(Number.NaN);
    expect(Math.abs(c.now() - SERVICE)).toBeLessThanOrEqual(1_000);
  });

  it('fetchObservingDate feeds the Date header of every answer and returns the response untouched', async () => {
    const c = new ServiceClock(() => SERVICE + 10 * MIN);
    const response = new Response('{}', { headers: { date: new Date(SERVICE).toUTCString() } });
    const f = fetchObservingDate(async () => response, c);
    expect(await f('http://x')).toBe(response);
    expect(Math.abs(c.now() - SERVICE)).toBeLessThanOrEqual(1_000);
  });

  it('an NTP correction of the local clock re-anchors the estimate at once (samples are kept on the monotonic clock)', async () => {
    const clock = new EventClock();
    // The user's clock is 10 minutes slow; the service's time is the virtual timeline.
    clock.jumpWall(-10 * MIN);
    const c = new ServiceClock(clock);
    for (let i = 0; i < 5; i++) {
      c.observeDate(Math.floor(clock.t / 1000) * 1000, clock.t - 100, clock.t);
      await clock.advance(3_000);
    }
    expect(Math.abs(c.now() - clock.t)).toBeLessThanOrEqual(1_100);
    clock.jumpWall(10 * MIN);
    expect(Math.abs(c.now() - clock.t)).toBeLessThanOrEqual(1_100);
    expect(Math.abs(c.offsetMs)).toBeLessThanOrEqual(1_100);
  });

  it('a sample is an interval as wide as the Date header’s second plus the round trip; it widens with age', async () => {
    const clock = new EventClock();
    const c = new ServiceClock(clock);
    c.observeDate(clock.t, clock.t - 4_000, clock.t);
    expect(c.bounds()).toEqual({ earliest: clock.t, latest: clock.t + 5_000 });
    await clock.advance(1_000_000);
    const b = c.bounds()!;
    expect(b.latest - b.earliest).toBeCloseTo(5_000 + (2 * 1_000_000 * DRIFT_PPM) / 1e6, 3);
  });

  it('decides only when a majority of its samples agree within the bound', () => {
    const clock = new EventClock();
    const c = new ServiceClock(clock);
    expect(c.decidable).toBe(true);
    c.observeDate(clock.t);
    c.observeDate(clock.t + 3_600_000);
    expect(c.decidable).toBe(false);
    expect(c.bounds()).toBeUndefined();
    c.observeDate(clock.t);
    expect(c.decidable).toBe(true);
    // A sample answered after a minute-long round trip alone is too wide to decide.
    const slow = new ServiceClock(clock);
    slow.observeDate(clock.t, clock.t - 3 * MAX_DECIDE_ERROR_MS, clock.t);
    expect(slow.decidable).toBe(false);
  });
});
