/**
 * Calm notifications, the time rules (pure: no browser API, the time is passed in): quiet hours, the snooze, when
 * held notifications may be released; what the away summary and the progress notification say. `./decide` applies
 * them to each event. Quiet hours are local wall-clock times.
 */
import { LEG_KINDS, legOf } from '../api/legs';
import { legName, routeText, shortId, statusLabel } from '../format/intent';
import { outcomeRank } from '../format/outcomes';
import { t } from '../i18n';
import type { CalmState, HeldNotification, NotifySettings, QuietHours, TrackedIntent } from '../store';
import type { NotificationContent } from './content';
import { minuteOfDay, nextWallTime } from './local-time';

/** Length of the popup's snooze (ms). */
export const SNOOZE_MS = 60 * 60_000;

/** Minutes after midnight of "HH:MM" (24-hour), or undefined when it is not such a time. */
export function parseClockTime(text: string): number | undefined {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/**
 * True when `now` (ms) falls inside the quiet hours, by the local clock of `timeZone` (an IANA name; the platform's
 * own zone when undefined, `./local-time`). Start included, end excluded. On the night the clocks go back, the
 * repeated hour is inside (or outside) both times, as the clock reads.
 */
export function inQuietHours(now: number, quiet: QuietHours | undefined, timeZone?: string): boolean {
  if (!quiet) return false;
  const start = parseClockTime(quiet.start);
  const end = parseClockTime(quiet.end);
  if (start === undefined || end === undefined || start === end) return false;
  const minute = minuteOfDay(now, timeZone);
  // end < start: the quiet hours span midnight (e.g. 22:00–07:00).
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When (ms) the quiet hours `now` falls in end, undefined outside them: the first instant after `now` at which the
 * local clock reads the end time or later (`./local-time` {@link nextWallTime}: across a change of the clocks, the
 * end as it next happens; an end inside a skipped hour is the first instant after it). `timeZone` as in
 * {@link inQuietHours}.
 */
export function quietHoursEnd(now: number, quiet: QuietHours | undefined, timeZone?: string): number | undefined {
  if (!quiet || !inQuietHours(now, quiet, timeZone)) return undefined;
  return nextWallTime(now, parseClockTime(quiet.end)!, timeZone);
}

/** True while a snooze runs. */
export function isSnoozed(state: Pick<CalmState, 'snoozeUntil'>, now: number): boolean {
  return state.snoozeUntil !== undefined && state.snoozeUntil > now;
}

/**
 * The first time (ms, ≥ `now`) when neither the snooze nor the quiet hours hold notifications back: `now` itself
 * when nothing does. A snooze that ends inside quiet hours lasts until they end, and the other way round. `timeZone`
 * as in {@link inQuietHours}.
 */
export function releaseAt(
  state: Pick<CalmState, 'snoozeUntil'>,
  settings: Pick<NotifySettings, 'quietHours'>,
  now: number,
  timeZone?: string,
): number {
  let t = now;
  // Each step moves past one snooze or one quiet period; four are more than the two that can chain.
  for (let i = 0; i < 4; i++) {
    if (isSnoozed(state, t)) {
      t = state.snoozeUntil!;
      continue;
    }
    const end = quietHoursEnd(t, settings.quietHours, timeZone);
    if (end === undefined) break;
    t = end;
  }
  return t;
}

/** The summary of held notifications: "While you were away: 3 intents finished" / "2 succeeded, 1 refunded". */
export function awayContent(held: readonly HeldNotification[]): NotificationContent {
  const counts = new Map<string, number>();
  for (const h of held) counts.set(h.status, (counts.get(h.status) ?? 0) + 1);
  const summary = [...counts.entries()]
    .sort((a, b) => outcomeRank(a[0]) - outcomeRank(b[0]))
    .map(([status, n]) => t('countedWord', n, statusLabel(status).toLowerCase()))
    .join(t('listSeparator'));
  const n = held.length;
  return { title: n === 1 ? t('awayTitleOne') : t('awayTitle', n), message: summary };
}

/** What the progress notification of an intent in flight says: its route, then each leg's state. */
export function progressContent(intent: TrackedIntent): NotificationContent {
  const r = intent.receipt;
  const legs = r
    ? LEG_KINDS.slice(0, 3)
        .map((kind) => {
          const leg = legOf(r, kind);
          const state = leg ? (leg.status === 'SUCCEEDED' ? t('stepDone') : (leg.status ?? t('unknown')).toLowerCase()) : t('stepWaiting');
          return `${legName(kind)} ${state}`;
        })
        .join(' · ')
    : t('waitingFirstReceiptShort');
  return {
    title: t('notifyTitle', statusLabel(intent.status).toLowerCase(), shortId(intent.intentId)),
    message: r ? `${routeText(r)}\n${legs}` : legs,
  };
}
