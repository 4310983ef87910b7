/**
 * The tracked list as the worker hands it to the popup (pure): the first screenful in the order the popup shows it,
 * and the changes of a "changed" broadcast patched into the list the popup holds. A desk tracks thousands: the popup
 * shows the first rows before the whole list has crossed the runtime messaging, and a change re-reads only the
 * intents it names, so that every unchanged record keeps its identity (and its prepared search text, its rendered
 * row).
 */
import { inFlightFirst } from '../eta';
import type { TrackedIntent } from '../store';

/** How many rows the popup asks for first: more than its 600 px show (a row is 60–110 px tall). */
export const FIRST_SCREEN_ROWS = 24;

/** The list newest added first (`addedAt` descending), as `IntentStore.list` orders it; a new array. */
export function newestFirst<T extends Pick<TrackedIntent, 'addedAt'>>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => b.addedAt - a.addedAt);
}

/**
 * The first `count` rows of `list` (newest added first) in the order the popup's list shows them: those in flight
 * first (`inFlightFirst`), each group newest first. O(n).
 */
export function firstScreen(list: readonly TrackedIntent[], count: number): TrackedIntent[] {
  return inFlightFirst(list).slice(0, Math.max(0, count));
}

/**
 * `list` (newest added first) with the intents named in `changed` replaced by the records read now: `fresh` holds
 * those that are still tracked; an id named in `changed` but absent from `fresh` was removed. A record new to the
 * list is placed by its `addedAt`. Records not named keep their identity and their order. Returns a new array; O(n)
 * plus O(n) for each record new to the list.
 */
export function patchList(list: readonly TrackedIntent[], changed: readonly string[], fresh: readonly TrackedIntent[]): TrackedIntent[] {
  const named = new Set(changed);
  const byId = new Map(fresh.filter((t) => named.has(t.intentId)).map((t) => [t.intentId, t]));
  const out: TrackedIntent[] = [];
  for (const t of list) {
    if (!named.has(t.intentId)) out.push(t);
    else {
      const now = byId.get(t.intentId);
      if (now && now.addedAt === t.addedAt) {
        out.push(now);
        byId.delete(t.intentId);
      }
    }
  }
  // The rest are new to the list (or tracked again with another addedAt): each goes where its addedAt places it.
  for (const t of newestFirst([...byId.values()])) {
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((out[mid] as TrackedIntent).addedAt >= t.addedAt) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, t);
  }
  return out;
}
