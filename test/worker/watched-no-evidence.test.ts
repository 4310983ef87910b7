/**
 * A worker that has heard no answer yet (just restarted) and a user clock an hour behind: the watched-address check
 * took the local clock for the service's, found the address's checkpoint (a minute old) "in the future", and looked
 * back an hour from the local clock — two hours of the service's — tracking intents created while the address was
 * unticked (the world campaign's `watched` family, run 52 of seed 20261126). With no evidence of the service's time
 * the check first asks the service (its answers' Date headers set the clock) and waits until they settle it
 * (`ServiceClock.settled`), then reads from the checkpoint.
 */
import { describe, expect, it } from 'vitest';
import type { Settings } from '@/lib/store';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { watchedOnHistory } from './watched-harness';

const MINE = `0x${'a1'.repeat(20)}`;
const MIN = 60_000;
const SERVICE = 1_800_000_000_000;

describe('the watched check of a worker with no answer yet', () => {
  for (const skew of [-60 * MIN, 60 * MIN]) {
    it(`a user clock ${skew / MIN} min off: reads from its checkpoint, not from an hour before the local clock`, async () => {
      const local = () => SERVICE + skew;
      const serviceClock = new ServiceClock(local);
      const rows = [
        // Created while the address was unticked, before the current tick's checkpoint.
        { intentId: `0x${'1'.repeat(64)}`, at: SERVICE - 30 * MIN },
        // Created after the checkpoint: new.
        { intentId: `0x${'2'.repeat(64)}`, at: SERVICE - 30_000 },
      ];
      const settings: Settings = {
        baseUrl: 'https://svc.example',
        accessKey: 'k',
        autoTrackAddresses: [MINE],
        autoTrackTicks: [`${MINE}:tok1`],
      };
      const { check, checkpoints, tracked } = watchedOnHistory({
        owner: MINE,
        settings,
        rows,
        serviceClock,
        now: local,
        monotonic: () => 0,
        checkpoints: { [MINE]: { fromTime: Math.floor((SERVICE - 2 * MIN) / 1000), tick: 'tok1' } },
        // Every answer carries the service's Date header (the worker's fetch feeds it to the service clock).
        onAnswer: () => serviceClock.observeDate(SERVICE),
      });
      // The local clock an hour off never corroborates: the first check's four asks are too few Date headers, and it
      // waits; the second check's make eight that agree.
      expect(await check(true)).toBe(0);
      expect(checkpoints()[MINE]!.fromTime * 1000).toBe(Math.floor((SERVICE - 2 * MIN) / 1000) * 1000);
      await check(true);
      expect(tracked).toEqual([rows[1]!.intentId]);
      expect(checkpoints()[MINE]!.fromTime * 1000).toBeLessThanOrEqual(SERVICE);
      expect(checkpoints()[MINE]!.fromTime * 1000).toBeGreaterThanOrEqual(SERVICE - 3 * MIN);
    });
  }

  it('a check that read nothing for want of the service’s time is tried again at the next alarm, once; one that never settles is retried early once a minute at most', async () => {
    let m = 0;
    let settles = false;
    const serviceClock = { settled: () => (settles ? { earliest: SERVICE, latest: SERVICE } : undefined) } as unknown as ServiceClock;
    let asks = 0;
    const rows = [{ intentId: `0x${'3'.repeat(64)}`, at: SERVICE - 30_000 }];
    const settings: Settings = {
      baseUrl: 'https://svc.example',
      accessKey: 'k',
      autoTrackAddresses: [MINE],
      autoTrackTicks: [`${MINE}:tok1`],
    };
    const { check, tracked } = watchedOnHistory({
      owner: MINE,
      settings,
      rows,
      serviceClock,
      now: () => SERVICE,
      monotonic: () => m,
      checkpoints: { [MINE]: { fromTime: Math.floor((SERVICE - 2 * MIN) / 1000), tick: 'tok1' } },
      onAnswer: () => void asks++,
    });
    // The watchdog alarm asks every 30 s. The first check finds the time unsettled and reads nothing.
    await check();
    expect(tracked).toEqual([]);
    // It settles meanwhile: the next alarm's check reads the new intent (a minute later before).
    settles = true;
    m = 30_000;
    await check();
    expect(tracked).toEqual([rows[0]!.intentId]);
    // Never settling: an early retry once, then the minute — not four asks at every alarm.
    settles = false;
    const before = asks;
    for (m = 90_000; m <= 270_000; m += 30_000) await check();
    // Checks at 90 s (unsettled), 120 s (its retry), 180 s (a minute after), 210 s (its retry), 270 s: five checks of
    // four asks in three minutes, where every alarm's check would make seven and a check a minute four.
    expect(asks - before).toBe(20);
  });
});
