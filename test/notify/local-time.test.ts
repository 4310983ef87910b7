/**
 * Local wall-clock time (lib/notify/local-time.ts) by the platform's time-zone rules. Expected readings are written from
 * the published offsets (Berlin CET = UTC+1 in January, New York EST = UTC−5), never computed by the code under test.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { minuteOfDay, wallClockMs } from '@/lib/notify/local-time';

const zoneBefore = process.env.TZ;
afterEach(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

/** 12:00 UTC on 2026-01-15. */
const NOON_UTC = Date.UTC(2026, 0, 15, 12, 0);

describe('the wall clock', () => {
  it('reads the platform zone as it is at each call: a zone changed while the worker lives is followed', () => {
    process.env.TZ = 'Europe/Berlin';
    expect(minuteOfDay(NOON_UTC)).toBe(13 * 60);
    process.env.TZ = 'America/New_York';
    expect(minuteOfDay(NOON_UTC)).toBe(7 * 60);
    process.env.TZ = 'Europe/Berlin';
    expect(minuteOfDay(NOON_UTC)).toBe(13 * 60);
  });

  it('reads a zone named whatever the platform zone is', () => {
    process.env.TZ = 'Europe/Berlin';
    expect(wallClockMs(NOON_UTC, 'America/New_York')).toBe(Date.UTC(2026, 0, 15, 7, 0));
    expect(wallClockMs(NOON_UTC + 1_234, 'UTC')).toBe(NOON_UTC + 1_234);
  });
});
