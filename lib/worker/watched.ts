/**
 * Watched addresses: the owner addresses ticked in the options are checked about once a minute with GetIntentHistory
 * (`byOwnerAddress`, `fromTime`), and their new intents are tracked.
 *
 * Each address reads oldest first from its checkpoint, at most {@link WATCH_MAX_PAGES} pages a check. A check that
 * stops before the last page keeps the page cursor, and the next check goes on from there, so a burst of intents
 * larger than one check is covered over successive checks and none is skipped.
 */
import type { SvcClient } from '../api/client';
import type { SettingsStore, WatchedCheckpoint, WatchedCheckpoints } from '../store';
import type { TrackIntent } from './track';

/** Watched addresses are checked at most this often (ms), unless forced. */
export const WATCH_INTERVAL_MS = 60_000;
/** Pages read per address and check. */
export const WATCH_MAX_PAGES = 5;
/** Rows per page. */
export const WATCH_PAGE_SIZE = 50;
/** How far back (s) the first check of an address looks. */
export const FIRST_LOOK_BACK_S = 3600;
/** After a complete read the next check starts this much (s) before it: an intent may appear in the history late. */
export const OVERLAP_S = 60;

/** What the watched-address check needs. */
export interface WatchedCheckDeps {
  settings: SettingsStore;
  /** The client for the current settings; undefined while not configured. */
  client(): Promise<Pick<SvcClient, 'getIntentHistoryLite'> | undefined>;
  checkpoints: WatchedCheckpoints;
  track: TrackIntent;
  /** Current time in ms (default Date.now). */
  now?: () => number;
  /** The service's time in ms (lib/tracker/service-clock.ts), for `fromTime` (default `now`). */
  serviceNow?: () => number;
}

/**
 * Creates the check. It resolves with the number of intents newly tracked (0 when throttled, not configured or
 * nothing is watched); a failed call is retried at the next check from where it stopped. Never throws for a failed
 * call.
 */
export function createWatchedCheck(deps: WatchedCheckDeps): (force?: boolean) => Promise<number> {
  const now = deps.now ?? Date.now;
  let lastCheck = Number.NEGATIVE_INFINITY;

  /** Reads one address from its checkpoint; resolves with the new checkpoint and how many intents were added. */
  async function checkAddress(
    client: Pick<SvcClient, 'getIntentHistoryLite'>,
    address: string,
    start: WatchedCheckpoint,
    nowS: number,
  ): Promise<{ next: WatchedCheckpoint; added: number }> {
    let after = start.after;
    let added = 0;
    try {
      for (let page = 0; page < WATCH_MAX_PAGES; page++) {
        const res = await client.getIntentHistoryLite({
          byOwnerAddress: address,
          fromTime: start.fromTime,
          page: {
            column: 'createdAt',
            sort: [{ column: 'createdAt', order: 'ASC' }],
            pageSize: WATCH_PAGE_SIZE,
            ...(after !== undefined ? { after } : {}),
          },
        });
        for (const row of res.intents) {
          const r = await deps.track(row.intentId, { source: 'watched' });
          if (r.ok && r.added) added++;
        }
        const next = res.nextPage;
        if (!next || next.more === false || typeof next.after !== 'number') return { next: { fromTime: nowS - OVERLAP_S }, added };
        after = next.after;
      }
    } catch {
      // Fall through: go on after the last page read.
    }
    return { next: after === undefined ? start : { fromTime: start.fromTime, after }, added };
  }

  return async (force = false) => {
    const t = now();
    if (!force && t - lastCheck < WATCH_INTERVAL_MS) return 0;
    lastCheck = t;
    const addresses = (await deps.settings.get())?.autoTrackAddresses ?? [];
    const client = await deps.client();
    if (!client || addresses.length === 0) return 0;
    const checkpoints = await deps.checkpoints.get();
    const nowS = Math.floor((deps.serviceNow?.() ?? t) / 1000);
    let added = 0;
    for (const address of addresses) {
      const result = await checkAddress(client, address, checkpoints[address] ?? { fromTime: nowS - FIRST_LOOK_BACK_S }, nowS);
      checkpoints[address] = result.next;
      added += result.added;
    }
    await deps.checkpoints.set(checkpoints);
    return added;
  };
}
