/**
 * Issue 27, symptom 6 (the world campaign's `watched` family, seed 20261127: runs 268, 307 and 1452; runs 215, 286
 * and 718): a worker just started took the first answer's `Date` header for the service's time. One header 72 years
 * ahead made the first look's checkpoint 2098; one an hour behind made a checkpoint a minute old look "in the future",
 * and the check looked back two hours of the service's time, tracking an intent created before the address was ticked.
 * The check now waits until several headers agree (`ServiceClock.settled`), asking the service meanwhile.
 */
import { describe, expect, it } from 'vitest';
import type { Settings } from '@/lib/store';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { watchedOnHistory } from './watched-harness';

const MINE = `0x${'a1'.repeat(20)}`;
const MIN = 60_000;
const SERVICE = 1_800_000_000_000;
const YEARS_72 = 72 * 365 * 24 * 3600_000;

/** A worker with no answer yet, its local clock right, whose first answer's Date is `lieMs` off (the others true). */
function freshWorker(lieMs: number, rows: Array<{ intentId: string; at: number }>, checkpointAt?: number) {
  const serviceClock = new ServiceClock(() => SERVICE);
  let answers = 0;
  const settings: Settings = {
    baseUrl: 'https://svc.example',
    accessKey: 'k',
    autoTrackAddresses: [MINE],
    autoTrackTicks: [`${MINE}:tok1`],
  };
  return watchedOnHistory({
    owner: MINE,
    settings,
    rows,
    serviceClock,
    now: () => SERVICE,
    monotonic: () => 0,
    ...(checkpointAt !== undefined ? { checkpoints: { [MINE]: { fromTime: Math.floor(checkpointAt / 1000), tick: 'tok1' } } } : {}),
    onAnswer: () => serviceClock.observeDate(SERVICE + (answers++ === 0 ? lieMs : 0)),
  });
}

describe('the watched check of a fresh worker whose first answer lies about the time', () => {
  it('a Date header 72 years ahead: no checkpoint after the service’s time, and the new intent is tracked', async () => {
    const rows = [{ intentId: `0x${'1'.repeat(64)}`, at: SERVICE - 5 * MIN }];
    const w = freshWorker(YEARS_72, rows);
    for (let i = 0; i < 2; i++) {
      await w.check(true);
      if (w.checkpoint()) expect(w.checkpoint()!.fromTime * 1000).toBeLessThanOrEqual(SERVICE);
    }
    expect(w.checkpoint()).toBeDefined();
    expect(w.tracked).toEqual([rows[0]!.intentId]);
  });

  it('a Date header an hour behind: reads from the checkpoint, not two hours back', async () => {
    const rows = [
      // Created 70 min ago, before the address was ticked (its checkpoint is 2 min old).
      { intentId: `0x${'2'.repeat(64)}`, at: SERVICE - 70 * MIN },
      { intentId: `0x${'3'.repeat(64)}`, at: SERVICE - 30_000 },
    ];
    const w = freshWorker(-60 * MIN, rows, SERVICE - 2 * MIN);
    for (let i = 0; i < 2; i++) await w.check(true);
    expect(w.tracked).toEqual([rows[1]!.intentId]);
    expect(w.checkpoint()!.fromTime * 1000).toBeGreaterThanOrEqual(SERVICE - 3 * MIN);
  });
});
