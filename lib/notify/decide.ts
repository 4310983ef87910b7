/**
 * The whole "should this be shown?" decision, pure (no browser API; the time is passed in): for an event of the
 * notification pipeline it answers **show now · hold · update in place · skip**, from the table of outcomes
 * (`./outcomes`), the settings and the calm state (mute, snooze, quiet hours). Also the grouping rule: when a final
 * notification that comes while another was just shown goes out.
 *
 * Rules:
 * - `final` (an intent reached a final status): skip when the intent is muted or its outcome does not notify or is
 *   switched off (never shown later); hold while snoozed or in quiet hours (one line of the away summary); update in
 *   place when its progress notification is on screen and progress notifications are on; otherwise show.
 * - `progress` (a leg of an intent in flight changed): skip when progress notifications are off, the intent is muted,
 *   or a snooze or quiet hours run (news only now: not held); update when its progress notification is on screen;
 *   otherwise show.
 * - `stuck` ("taking longer than expected"): skip when switched off, muted, snoozed or quiet (not held); else show.
 * - `chain` (the chain and the service disagree, lib/notify/chain.ts): skip when the intent is muted; in a snooze or
 *   quiet hours an `urgent` one (the service's success the chain contradicts, a re-org) is held until they end, the
 *   good news (arrived before the service says so) is skipped — by then the service will have said it; else show.
 * - `away` (the summary of what was held): hold while a snooze or quiet hours still run; otherwise show.
 */

import { wantsNotification } from '../format/outcomes';
import type { NotifySettings } from '../store';
import { releaseAt } from './calm';

/** What the pipeline does with an event. */
export type Action = 'show' | 'hold' | 'update' | 'skip';

/** An event of the pipeline. */
export type NotifyEvent =
  | { kind: 'final'; intentId: string; status: string | undefined; progressOnScreen: boolean }
  | { kind: 'progress'; intentId: string; progressOnScreen: boolean }
  | { kind: 'stuck'; intentId: string }
  | { kind: 'chain'; intentId: string; urgent: boolean }
  | { kind: 'away' };

/** The calm state the decision reads: muted intentIds, the snooze's end (ms). */
export interface CalmView {
  muted: readonly string[];
  snoozeUntil?: number;
}

/** The decision for `event` at `now` (ms). */
export function decide(event: NotifyEvent, settings: NotifySettings, calm: CalmView, now: number): Action {
  const quiet = releaseAt(calm, settings, now) > now;
  if (event.kind === 'away') return quiet ? 'hold' : 'show';
  if (calm.muted.includes(event.intentId)) return 'skip';
  switch (event.kind) {
    case 'final':
      if (!wantsNotification(event.status, settings)) return 'skip';
      if (quiet) return 'hold';
      return event.progressOnScreen && settings.progress === true ? 'update' : 'show';
    case 'progress':
      if (settings.progress !== true || quiet) return 'skip';
      return event.progressOnScreen ? 'update' : 'show';
    case 'stuck':
      return settings.stuck && !quiet ? 'show' : 'skip';
    case 'chain':
      return !quiet ? 'show' : event.urgent ? 'hold' : 'skip';
  }
}

/** The grouping window of final notifications, as the pipeline keeps it (in memory; ms). */
export interface GroupWindow {
  /** When the window opened by the last notification shown at once closes. */
  endsAt: number;
  /** The window's early (quiet) flush is spent: what comes later waits for the window's end. */
  quietSpent: boolean;
  /** The window's length (ms; absent: the shortest, `windowMs`). */
  lengthMs?: number;
  /** A notification was held in this window (it grouped): the finishes came faster than one a window. */
  held?: boolean;
}

/** The grouping's lengths (ms). */
export interface GroupTiming {
  /** A window's length after a calm spell. */
  windowMs: number;
  /** Held ones go once none has come for this long, once per window. */
  quietMs: number;
  /** The widest window, in a burst (absent: `windowMs`, windows never widen). */
  maxWindowMs?: number;
}

/**
 * When a final notification that comes at `now` goes out: at once (`now`) when no window is open and none is held
 * (it opens a window); otherwise with the held ones, once none has come for `quietMs` — once per window — else when
 * the window closes. Never later than the window's end: a window makes at most three notifications.
 *
 * A burst widens the window: one that opens less than the last window's length after a window that held something
 * is twice as long as that one, up to `maxWindowMs`; any other is `windowMs` long. So while thousands finish, the
 * desktop gets at most three notifications every `maxWindowMs` (each grouped one names how many it holds), and a
 * notification waits at most `maxWindowMs` for its group. A lone finish goes at once when the last window has closed;
 * inside a widened window still open it waits for the quiet flush. Returns the flush time and the window after this
 * event. Times in ms (monotonic); `timing` defaults to windows of 500 ms and a 100 ms quiet.
 */
export function groupFlushAt(
  w: GroupWindow,
  heldCount: number,
  now: number,
  { windowMs, quietMs, maxWindowMs = windowMs }: GroupTiming = { windowMs: 500, quietMs: 100 },
): { at: number; early: boolean; window: GroupWindow } {
  if (now >= w.endsAt && heldCount === 0) {
    const last = w.lengthMs ?? windowMs;
    const burst = w.held === true && now < w.endsAt + last;
    const lengthMs = burst ? Math.min(Math.max(2 * last, windowMs), maxWindowMs) : windowMs;
    return { at: now, early: false, window: { endsAt: now + lengthMs, quietSpent: false, lengthMs, held: false } };
  }
  const early = !w.quietSpent && now + quietMs < w.endsAt;
  const at = early ? now + quietMs : Math.max(now, w.endsAt);
  return { at, early, window: at > now && w.held !== true ? { ...w, held: true } : w };
}
