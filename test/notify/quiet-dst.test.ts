/**
 * Quiet hours across the two nights a year the clocks change, by the platform's time-zone rules: this file runs in
 * Europe/Berlin (process.env.TZ, set before any date is read, restored after), and asks for America/New_York by name.
 * Expected instants are written in UTC from the published rules (EU: last Sunday of March and October at 01:00 UTC;
 * US: second Sunday of March and first Sunday of November at 02:00 local), never computed by the code under test.
 */
import { afterAll, describe, expect, it } from 'vitest';

const zoneBefore = process.env.TZ;
process.env.TZ = 'Europe/Berlin';

const { inQuietHours, quietHoursEnd, releaseAt } = await import('@/lib/notify/calm');
const { decide } = await import('@/lib/notify/decide');
const { DEFAULT_NOTIFY } = await import('@/lib/store');

afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const utc = (mo: number, d: number, h: number, m = 0) => Date.UTC(2026, mo - 1, d, h, m);
const MIN = 60_000;

describe('quiet hours on the night the clocks go back', () => {
  it('Berlin: at the second 02:10 (CET), an end at 02:30 is 20 minutes away, not a day and 20 minutes', () => {
    const quiet = { start: '22:00', end: '02:30' };
    const secondTwoTen = utc(10, 25, 1, 10); // 02:10 CET, after 03:00 CEST became 02:00 CET at 01:00 UTC
    expect(inQuietHours(secondTwoTen, quiet)).toBe(true);
    expect(quietHoursEnd(secondTwoTen, quiet)).toBe(utc(10, 25, 1, 30));
    expect(releaseAt({}, { quietHours: quiet }, secondTwoTen) - secondTwoTen).toBe(20 * MIN);
    // The first 02:10 (CEST) ends at the first 02:30.
    expect(quietHoursEnd(utc(10, 25, 0, 10), quiet)).toBe(utc(10, 25, 0, 30));
  });

  it('Berlin: quiet until 03:00 from 00:50 (CEST) lasts 3 h 10 min of real time (the repeated hour counts)', () => {
    const quiet = { start: '00:00', end: '03:00' };
    expect(quietHoursEnd(utc(10, 24, 22, 50), quiet)).toBe(utc(10, 25, 2, 0));
  });

  it('New York (by name): at the second 01:10 (EST), an end at 01:30 is 20 minutes away', () => {
    const quiet = { start: '22:00', end: '01:30' };
    const secondOneTen = utc(11, 1, 6, 10); // 01:10 EST, after 02:00 EDT became 01:00 EST at 06:00 UTC
    expect(inQuietHours(secondOneTen, quiet, 'America/New_York')).toBe(true);
    expect(quietHoursEnd(secondOneTen, quiet, 'America/New_York')).toBe(utc(11, 1, 6, 30));
    expect(quietHoursEnd(utc(11, 1, 5, 10), quiet, 'America/New_York')).toBe(utc(11, 1, 5, 30));
  });
});

describe('quiet hours on the night the clocks go forward', () => {
  it('Berlin: an end at 02:30, inside the skipped hour, releases at 03:00 (CEST), the first instant after it', () => {
    const quiet = { start: '22:00', end: '02:30' };
    const oneAm = utc(3, 29, 0, 0); // 01:00 CET; at 01:00 UTC 02:00 CET becomes 03:00 CEST
    expect(quietHoursEnd(oneAm, quiet)).toBe(utc(3, 29, 1, 0));
    // At 03:00 CEST the quiet hours are over; a minute before, still on.
    expect(inQuietHours(utc(3, 29, 1, 0), quiet)).toBe(false);
    expect(inQuietHours(utc(3, 29, 1, 0) - MIN, quiet)).toBe(true);
  });

  it('Berlin: an end after the skipped hour (04:00) is 2 hours of real time from 01:00', () => {
    expect(quietHoursEnd(utc(3, 29, 0, 0), { start: '22:00', end: '04:00' })).toBe(utc(3, 29, 2, 0));
  });

  it('New York (by name): an end at 02:30 releases at 03:00 EDT', () => {
    const quiet = { start: '23:00', end: '02:30' };
    expect(quietHoursEnd(utc(3, 8, 6, 0), quiet, 'America/New_York')).toBe(utc(3, 8, 7, 0));
  });

  it('the decision holds a final notification until then, and shows it at 03:00', () => {
    const settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '02:30' } };
    const calm = { muted: [], held: [], progress: {} };
    const event = { kind: 'final' as const, intentId: `0x${'a'.repeat(64)}`, status: 'SUCCEEDED', progressOnScreen: false };
    expect(decide(event, settings, calm, utc(3, 29, 0, 59))).toBe('hold');
    expect(decide(event, settings, calm, utc(3, 29, 1, 0))).toBe('show');
  });
});
