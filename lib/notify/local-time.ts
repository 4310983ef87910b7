/**
 * Local wall-clock time by the platform's time-zone rules (Date's local fields for the platform's zone as it is at each
 * call, Intl for a zone named: the same tz database the browser's clock shows),
 * for rules written in local times such as quiet hours (`./calm`). Pure: the instant is passed in.
 *
 * A wall-clock reading is given as "wall ms": the local date and time read as if they were UTC (so that adding a day
 * of wall time is adding 86,400,000). It is not monotonic in the instant: it jumps forward when the clocks go forward
 * (spring: the skipped hour has no instant) and back when they go back (autumn: an hour of readings happens twice).
 */

/** One day of wall time (ms). */
export const WALL_DAY_MS = 86_400_000;

/** A formatter per IANA zone (making one costs far more than using it). */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall-clock reading (wall ms, see the module's docstring) of instant `t` (ms since the epoch) in `timeZone` (an
 * IANA name; the platform's own zone when undefined). Years 100 and later. Throws RangeError for an unknown zone.
 */
export function wallClockMs(t: number, timeZone?: string): number {
  if (timeZone === undefined) {
    // The platform's zone as it is now (Date's local fields): a formatter would keep the zone it was made in, and the
    // user may change theirs (a trip, a new machine setting) while the worker lives.
    const d = new Date(t);
    return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds());
  }
  let f = formatters.get(timeZone);
  if (!f) {
    const n = 'numeric';
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: n, month: n, day: n, hour: n, minute: n, second: n });
    formatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(t)) p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute, p.second) + (((t % 1000) + 1000) % 1000);
}

/** Minutes after local midnight at instant `t` (0–1439) in `timeZone` (the platform's when undefined). */
export function minuteOfDay(t: number, timeZone?: string): number {
  const w = wallClockMs(t, timeZone);
  return Math.floor((((w % WALL_DAY_MS) + WALL_DAY_MS) % WALL_DAY_MS) / 60_000);
}

/**
 * The first instant after `now` (ms) at which the local clock in `timeZone` reads `minute` (minutes after midnight,
 * 0–1439) or later, on the next day the clock reaches that reading (today when it is still ahead, else tomorrow):
 * - when the clocks go back and the reading happens twice, the first time it happens after `now` (at the second
 *   01:10 of that night, 01:30 is 20 minutes away, not a day);
 * - when the clocks go forward over it (the reading does not exist that day), the first instant after the skipped
 *   span (03:00, not 03:30, for 02:30 in a zone that skips 02:00–03:00).
 */
export function nextWallTime(now: number, minute: number, timeZone?: string): number {
  const w0 = wallClockMs(now, timeZone);
  let target = Math.floor(w0 / WALL_DAY_MS) * WALL_DAY_MS + minute * 60_000;
  if (target <= w0) target += WALL_DAY_MS;
  let t = now;
  // Each step moves by the wall time still missing; it lands exactly unless a clock change lies on the way (at most
  // two in a day anywhere), so a few steps always do.
  for (let step = 0; step < 6; step++) {
    const next = t + (target - wallClockMs(t, timeZone));
    const w = wallClockMs(next, timeZone);
    if (w === target) return next;
    if (w > target) {
      // The clocks went forward between `t` (before the reading) and `next` (after it): the first instant at or
      // after the reading is the end of the skipped span. Searched to the millisecond.
      let lo = t;
      let hi = next;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (wallClockMs(mid, timeZone) >= target) hi = mid;
        else lo = mid;
      }
      return hi;
    }
    // The clocks went back on the way: the reading is still ahead; go on from there.
    t = next;
  }
  return t;
}
