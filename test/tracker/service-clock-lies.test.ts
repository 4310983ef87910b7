/**
 * A service whose `Date` header lies in some answers (a proxy, a replica with a wrong clock) never brings a verdict's
 * deadline forward: expiry and the stuck warning use the earliest time every one of the last `SURE_SAMPLES` samples
 * allows. Failed on the engine that took Marzullo's majority of the last 8 (one sample decided at a worker's start):
 * world campaign seed 20261126, run 17 of `lyingDate` (expired 22 s after its creation, a `Date` 20 min ahead).
 */
import { describe, expect, it } from 'vitest';
import { ServiceClock, SURE_SAMPLES } from '@/lib/tracker/service-clock';
import { engineHarness, PENDING, sid } from './engine-harness';

const MIN = 60_000;

describe('lying Date headers never expire an intent early', () => {
  it('one Date header 20 minutes ahead, the first the worker sees, does not expire a COMMITTED intent a minute old', async () => {
    // The tracker's service clock, on the harness's clock (built below).
    const sc = new ServiceClock({ now: () => h.clock.now(), monotonic: () => h.clock.monotonic() });
    const h = engineHarness(20_000, null, { serviceClock: sc });
    h.add(1, [[5 * MIN, 'EXECUTING', PENDING]]);
    await h.tracker.track(sid(1));
    await h.clock.advance(MIN);
    sc.observeDate(h.clock.now() + 20 * MIN);
    await h.clock.advance(MIN);
    expect((await h.store.get(sid(1)))?.phase).toBe('tracking');
    // Truthful headers since: whatever their number, the lie among the kept samples holds no verdict forward.
    for (let i = 0; i < 3 * SURE_SAMPLES; i++) {
      sc.observeDate(h.clock.now());
      if (i % 5 === 0) sc.observeDate(h.clock.now() + 20 * MIN);
      await h.clock.advance(5_000);
    }
    const record = await h.store.get(sid(1));
    expect(record?.phase).toBe('tracking');
    expect(record?.status).toBe('EXECUTING');
    h.tracker.stop();
  });
});

describe('ServiceClock.earliestSure', () => {
  it('is undefined below SURE_SAMPLES samples, then the earliest every sample allows: a majority of lies ahead moves nothing', () => {
    let t = 1_000_000;
    const sc = new ServiceClock(() => t);
    const truth = () => t + 7 * MIN;
    sc.observeDate(truth() + 20 * MIN);
    expect(sc.earliestSure()).toBeUndefined();
    // 12 samples, the last 8 with 5 lies ahead: Marzullo's majority believes the lie, earliestSure does not.
    for (let i = 0; i < SURE_SAMPLES - 1; i++) {
      t += 1_000;
      sc.observeDate(i >= SURE_SAMPLES - 6 ? truth() + 20 * MIN : truth());
    }
    expect(sc.bounds()!.earliest).toBeGreaterThan(truth() + 19 * MIN);
    const sure = sc.earliestSure()!;
    expect(sure).toBeLessThanOrEqual(truth());
    expect(sure).toBeGreaterThan(truth() - 2_000);
  });

  it('with no Date header, the local clock raised by lower bounds (as the estimate)', () => {
    let t = 5_000_000;
    const sc = new ServiceClock(() => t);
    expect(sc.earliestSure()).toBe(t);
    sc.observeAtLeast(t + 5 * MIN);
    t += 1_000;
    expect(sc.earliestSure()).toBe(t - 1_000 + 5 * MIN + 1_000);
  });
});
