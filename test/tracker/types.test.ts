/** The default tuning gives the numbers the README's "Tracking policy" states. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TUNING } from '@/lib/tracker/types';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

describe('DEFAULT_TUNING', () => {
  it('4 requests in flight: 3 long-poll slots of at most 48 s, 18 idle long-polls a minute', () => {
    expect(DEFAULT_TUNING.maxConcurrent - 1).toBe(3);
    expect(DEFAULT_TUNING.waitCapMs).toBe(48 * SECOND);
    expect(DEFAULT_TUNING.longPollsPerMinute).toBe(18);
  });

  it('the sweeper: 24 requests a minute when idle, 0.5 s apart when busy for 10 s, B = 12 individual checks a minute at 40 s', () => {
    expect(MINUTE / DEFAULT_TUNING.sweepGapMs).toBe(24);
    expect(DEFAULT_TUNING.busySweepGapMs).toBe(SECOND / 2);
    expect(DEFAULT_TUNING.busyForMs).toBe(10 * SECOND);
    expect(MINUTE / DEFAULT_TUNING.individualEveryMs).toBe(12);
    expect(DEFAULT_TUNING.recheckAfterMs).toBe(40 * SECOND);
    expect(DEFAULT_TUNING.maxBatchPages).toBe(5);
  });

  it('faults and watchdogs: back-off 1 s doubling to 60 s, NotFound for 10 min, expiry after 11 min, stuck after 15 min', () => {
    expect(DEFAULT_TUNING.backoffBaseMs).toBe(SECOND);
    expect(DEFAULT_TUNING.backoffCapMs).toBe(MINUTE);
    expect(DEFAULT_TUNING.notFoundGraceMs).toBe(10 * MINUTE);
    expect(DEFAULT_TUNING.commitWindowMs).toBe(11 * MINUTE);
    expect(DEFAULT_TUNING.stuckAfterMs).toBe(15 * MINUTE);
    // Invariant I2: a watchdog acts only on an answer under 30 s old.
    expect(DEFAULT_TUNING.freshForMs).toBeLessThan(30 * SECOND);
  });
});
