/**
 * Times for display. The service sends ISO 8601 strings (docs/protocol.md §3); this module never trusts them to parse.
 */
import { localized } from '../i18n';

// In the browser's language ("5 minutes ago", "hace 5 minutos", "5分钟前").
const relative = localized((locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
const absolute = localized((locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }));

/** Milliseconds since the epoch of an ISO 8601 string, or undefined when it does not parse. */
export function parseTime(iso: string | null | undefined): number | undefined {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** "5 minutes ago", "in 2 hours", "now" for a time in ms relative to `nowMs` (both ms since the epoch). */
export function formatRelative(timeMs: number, nowMs: number): string {
  const seconds = Math.round((timeMs - nowMs) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return relative().format(0, 'second');
  if (abs < 3600) return relative().format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative().format(Math.round(seconds / 3600), 'hour');
  return relative().format(Math.round(seconds / 86_400), 'day');
}

/** A readable local date and time for an ISO string; the string itself when it does not parse, "—" when absent. */
export function formatAbsolute(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = parseTime(iso);
  return ms === undefined ? iso : absolute().format(ms);
}

const clock = localized((locale) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));

/** "14:05": the local wall-clock time of `ms` (since the epoch), 24-hour. */
export function formatClock(ms: number): string {
  return clock().format(ms);
}
