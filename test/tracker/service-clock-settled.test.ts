/**
 * `ServiceClock.settled`: the service's time for a decision nothing corrects later (a watched address's checkpoint)
 * only once several `Date` headers agree strongly; the local clock corroborates, never decides.
 */
import { describe, expect, it } from 'vitest';
import { ServiceClock } from '@/lib/tracker/service-clock';

const T = 1_800_000_000_000;
const HOUR = 3600_000;

/** A clock whose local wall clock is `skewMs` off the service's, fed `dates` (ms offsets from the service's time). */
function fed(skewMs: number, dates: number[]) {
  const c = new ServiceClock({ now: () => T + skewMs, monotonic: () => 0 });
  for (const d of dates) c.observeDate(T + d);
  return c;
}

describe('ServiceClock.settled', () => {
  it('is undefined with no Date header at all, even with lower bounds', () => {
    const c = fed(0, []);
    c.observeAtLeast(T + 60_000);
    expect(c.settled()).toBeUndefined();
  });

  it('one header, or three, are too few, however right', () => {
    expect(fed(0, [0]).settled()).toBeUndefined();
    expect(fed(0, [0, 0, 0]).settled()).toBeUndefined();
  });

  it('four agreeing headers settle it when the local clock agrees; eight without', () => {
    expect(fed(0, [0, 0, 0, 0]).settled()).toEqual({ earliest: T, latest: T + 1_000 });
    expect(fed(-HOUR, [0, 0, 0, 0]).settled()).toBeUndefined();
    expect(fed(-HOUR, Array(7).fill(0)).settled()).toBeUndefined();
    expect(fed(-HOUR, Array(8).fill(0)).settled()).toEqual({ earliest: T, latest: T + 1_000 });
  });

  it('a local clock agreeing with lying headers does not make a minority of them decide', () => {
    // Four headers an hour behind, like the local clock, and four true: half, not three quarters.
    expect(fed(-HOUR, [-HOUR, -HOUR, -HOUR, -HOUR, 0, 0, 0, 0]).settled()).toBeUndefined();
    // Four of five: a majority, but too few when only the local clock backs them (world seed 20261128, run 9524).
    expect(fed(-HOUR, [-HOUR, -HOUR, -HOUR, 0, -HOUR]).settled()).toBeUndefined();
  });

  it('needs three quarters of the headers kept to agree: 9 of 12, not 8', () => {
    const lies = (n: number) => Array.from({ length: 12 }, (_, k) => (k < n ? 72 * 365 * 24 * HOUR : 0));
    expect(fed(0, lies(3)).settled()).toEqual({ earliest: T, latest: T + 1_000 });
    expect(fed(0, lies(4)).settled()).toBeUndefined();
  });
});
