/**
 * The "tracked intents changed" broadcast to open extension pages, at most once per {@link CHANGE_COALESCE_MS}.
 * Each broadcast makes an open popup read every tracked intent from IndexedDB; one read per change made those reads
 * queue ahead of the worker's own writes (IndexedDB runs transactions over one store in order), so that with 500
 * intents each answer, and so each notification, waited seconds to be written.
 */
import { CHANGED, type ChangedMessage } from '../messages';
import type { Timers } from '../platform';

/** Changes within this many ms of the last broadcast make one broadcast, sent when the window closes. */
export const CHANGE_COALESCE_MS = 200;

/** The change broadcast. */
export interface ChangeBroadcast {
  /**
   * Something changed: an intent (`intentId`), or the tracker state (''). Broadcasts at once when the last broadcast
   * is at least {@link CHANGE_COALESCE_MS} old, else once when that window closes, naming every intent changed
   * meanwhile. Never throws.
   */
  schedule(intentId: string): void;
}

/**
 * Creates the broadcast over `send` (`browser.runtime.sendMessage`; a rejection, e.g. no page open, is ignored).
 * `now` is a time in ms (the worker passes its monotonic clock: the coalescing window is a duration); `timers` the
 * platform's timers.
 */
export function createChangeBroadcast(
  send: (message: ChangedMessage) => Promise<unknown>,
  now: () => number = Date.now,
  timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: () => {} },
): ChangeBroadcast {
  let lastAt = Number.NEGATIVE_INFINITY;
  let timer: unknown;
  const ids = new Set<string>();
  const flush = () => {
    timer = undefined;
    lastAt = now();
    const intentIds = [...ids];
    ids.clear();
    void Promise.resolve()
      .then(() => send({ type: CHANGED, intentIds }))
      .catch(() => {});
  };
  return {
    schedule(intentId) {
      if (intentId) ids.add(intentId);
      if (timer !== undefined) return;
      const wait = lastAt + CHANGE_COALESCE_MS - now();
      if (wait <= 0) flush();
      else timer = timers.setTimeout(flush, wait);
    },
  };
}
