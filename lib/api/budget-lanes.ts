/**
 * Which waiting request of the request budget (lib/api/budget.ts) goes next: the order of its lanes, pure. The budget
 * gives the requests waiting and not held by a `Retry-After` (in the order asked), how many were sent in the last
 * 60 s, and two questions about its paces, asked only when the answer matters and in this order.
 */
import type { Lane } from './budget-limits';

/** A request waiting for its turn, as the choice sees it. */
export interface LaneWaiter {
  lane: Lane;
}

/** What the choice of the next request reads. */
export interface LaneChoice<W extends LaneWaiter> {
  /** The requests waiting that no hold keeps back, in the order asked. */
  open: readonly W[];
  /** Requests sent in the last 60 s (the sliding window). */
  count: number;
  /** Requests in any 60 s window at most (I5). */
  perMinute: number;
  /** A background request may go as far as its lane's places and pace are concerned (asked first). */
  backgroundDue: () => boolean;
  /** The tracker's pace has a token now (asked only when a tracker request could go). */
  trackerReady: () => boolean;
  /**
   * Every place of the tracker's and the background's is held: only a user's look-up may go, in the place kept for
   * the user's own (lib/api/budget-limits.ts `USER_PLACES`). Default false.
   */
  full?: boolean;
}

/**
 * The request to start now, if any: the user's look-ups first (also when the window keeps them waiting), then a due
 * background request, then the tracker's, these two only while a place of theirs is free (`full` false). The user's
 * and the tracker's requests leave the window's last place to the background lane; a due background request blocked
 * by the window blocks the tracker too, so that a place freed is kept for it until the window has room.
 */
export function chooseNext<W extends LaneWaiter>(c: LaneChoice<W>): W | undefined {
  const dueBackground = c.backgroundDue() ? c.open.find((w) => w.lane === 'background') : undefined;
  const user = c.open.find((w) => w.lane === 'user');
  if (user) return c.count < c.perMinute - 1 ? user : undefined;
  if (c.full) return undefined;
  if (dueBackground && c.count < c.perMinute) return dueBackground;
  const tracker = c.open.find((w) => w.lane === 'tracker');
  if (tracker && c.count < c.perMinute - 1 && !dueBackground && c.trackerReady()) return tracker;
  return undefined;
}

/** A token bucket's tokens after `elapsedMs` more at `perMinute` tokens a minute, holding at most `cap`. */
export function refilled(tokens: number, elapsedMs: number, perMinute: number, cap: number): number {
  return Math.min(cap, tokens + (elapsedMs * perMinute) / 60_000);
}

/** When (ms, at least 1 ms after `now`) a bucket of `tokens` refilled at `perMinute` a minute holds a whole token. */
export function wholeTokenAt(now: number, tokens: number, perMinute: number): number {
  return now + Math.max(1, Math.ceil(((1 - tokens) * 60_000) / perMinute));
}
