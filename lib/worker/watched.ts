/**
 * Watched addresses: the owner addresses ticked in the options are checked about once a minute with GetIntentHistory
 * (`byOwnerAddress`, `fromTime`), and their new intents are tracked.
 *
 * Each address reads oldest first from its checkpoint, at most {@link WATCH_MAX_PAGES} pages a check. A check that
 * stops before the last page keeps the page cursor, and the next check goes on from there, so a burst of intents
 * larger than one check is covered over successive checks and none is skipped. A page whose `nextPage.after` is the
 * cursor it was asked with (a history that repeats its cursor) ends the walk as the last page does: the check never
 * asks the same page again and again. What a row says is not trusted blindly:
 * - a row is tracked only when its receipt names the address as its owner (a history that ignores the owner filter
 *   must not auto-track strangers' intents) and it was created at or after the checkpoint;
 * - an intent the user removed is never tracked again by the check (`RemovedIntents`);
 * - an address unticked and ticked again starts from that moment, not from where it stood — also with no check in
 *   between: each tick has its own token (`Settings.autoTrackTicks`, lib/store/ticks.ts), kept in the checkpoint;
 * - the checkpoint moves only over what was read: to the newest own row read (less {@link OVERLAP_S}), never to the
 *   worker's own clock;
 * - where a first look (an hour back) or a tick again starts is stored as soon as a check decides it, before it reads:
 *   a check that never completes (the worker dies, a 429 holds it, the browser closes) leaves it there, and the next
 *   check reads on from it instead of an hour back from its own, later time;
 * - where an address is read from is decided on the service's time only once several of its `Date` headers agree
 *   (`ServiceClock.settled`): one lying header, or a local clock an hour off, never decides it.
 */
import type { SvcClient } from '../api/client';
import type { HistoryLiteResponse } from '../api/schemas/history';
import type { RemovedIntents, SettingsStore, WatchedCheckpoint, WatchedCheckpoints } from '../store';
import { tickOf } from '../store/ticks';
import type { ServiceTimeBounds } from '../tracker/service-clock';
import type { TrackIntent } from './track';

/** Watched addresses are checked at most this often (ms, monotonic), unless forced: from one check's start to the next. */
export const WATCH_INTERVAL_MS = 60_000;
/**
 * How early (ms) a check may start before {@link WATCH_INTERVAL_MS} has passed: the watchdog alarm that asks for it
 * fires every 30 s, a little early or late, so a check due at 60 s is not put off to the alarm after (90 s).
 */
export const WATCH_ALARM_SLACK_MS = 5_000;
/**
 * A check that found the service's time not settled (it read nothing) is tried again this soon (ms, at the next
 * watchdog alarm), once: a loaded machine's few `Date` headers that did not agree no longer put an address's new
 * intents off by a whole minute. A retry that finds it unsettled too waits the full {@link WATCH_INTERVAL_MS}.
 */
export const UNSETTLED_RETRY_MS = 30_000;
/** Pages read per address and check. */
export const WATCH_MAX_PAGES = 5;
/** Rows per page. */
export const WATCH_PAGE_SIZE = 50;
/** How far back (s) the first check of an address looks. */
export const FIRST_LOOK_BACK_S = 3600;
/** How many one-row history reads a check makes, at most, while the service's time is not settled. */
export const SETTLE_ASKS = 4;
/** After a complete read the next check starts this much (s) before it: an intent may appear in the history late. */
export const OVERLAP_S = 60;

/** What the watched-address check needs. */
export interface WatchedCheckDeps {
  settings: SettingsStore;
  /** The client for the current settings; undefined while not configured. */
  client(): Promise<Pick<SvcClient, 'getIntentHistoryLite'> | undefined>;
  checkpoints: WatchedCheckpoints;
  track: TrackIntent;
  /** The intents the user removed: never tracked again by the check. */
  removed?: Pick<RemovedIntents, 'has'>;
  /** Current time in ms (default Date.now). */
  now?: () => number;
  /** The service's time in ms, for `fromTime`, when `serviceTime` is not given (default `now`): tests. */
  serviceNow?: () => number;
  /**
   * The interval (ms) the service's time is surely in (`ServiceClock.settled`); undefined while it is not settled. The
   * check then asks the service — one row of the first address's history, read for its `Date` header alone — up to
   * {@link SETTLE_ASKS} times, and waits for the next check when it is still not settled: neither a lying `Date`
   * header nor the local clock, maybe an hour off, decides where an address is read from, and no checkpoint is stored
   * beyond the latest the service's time can be. Default: `serviceNow`, taken as sure.
   */
  serviceTime?: () => ServiceTimeBounds | undefined;
  /** Monotonic time in ms, for the once-a-minute throttle (default `now`): a wall-clock jump never stops the check. */
  monotonic?: () => number;
}

type Row = HistoryLiteResponse['intents'][number];

/** The owner address a history row names (its receipt's, or its summary's), lower-case; undefined when none. */
function rowOwner(row: Row): string | undefined {
  const r = row as Row & { ownerAddress?: unknown };
  const owner = row.receipt?.ownerAddress ?? row.receipt?.summary?.ownerAddress ?? r.ownerAddress;
  return typeof owner === 'string' ? owner.toLowerCase() : undefined;
}

/** When a history row's intent was created (ms); undefined when the row does not say. */
function rowCreatedAt(row: Row): number | undefined {
  const r = row as Row & { createdAt?: unknown };
  const text = row.receipt?.createdAt ?? (typeof r.createdAt === 'string' ? r.createdAt : undefined);
  const at = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Where the check of an address starts (s, on the service's clock): from its `known` checkpoint; a first look
 * {@link FIRST_LOOK_BACK_S} back when there is none or it lies in the service's future (after `latestS`: stored by a
 * clock gone wrong); {@link OVERLAP_S} back from `nowS` when the address was ticked again since (another `tick` token,
 * or seen unticked). Pure.
 */
export function startCheckpoint(
  known: WatchedCheckpoint | undefined,
  tick: string | undefined,
  nowS: number,
  latestS: number,
): WatchedCheckpoint {
  // Ticked again since this checkpoint (another tick token), seen unticked or not: from this moment.
  const reticked = known !== undefined && (known.unticked || known.tick !== tick);
  // A checkpoint in the service's future (stored by a clock gone wrong) is read as a first look.
  const future = known !== undefined && known.fromTime > latestS;
  return !known || future ? { fromTime: nowS - FIRST_LOOK_BACK_S } : reticked ? { fromTime: nowS - OVERLAP_S } : known;
}

/** `next` as it may be stored: never after `latestS` (s), the latest the service's time can be. Pure. */
export function saneCheckpoint(next: WatchedCheckpoint, latestS: number): WatchedCheckpoint {
  return next.fromTime > latestS ? { ...next, fromTime: latestS - OVERLAP_S } : next;
}

/**
 * Reads one address from its checkpoint `start`, at most {@link WATCH_MAX_PAGES} pages, tracking its new intents;
 * `nowS`: the service's time (s). Resolves with the new checkpoint and how many intents were added; a failed call
 * ends the read where it stopped (never rejects for it).
 */
export async function checkAddress(
  deps: Pick<WatchedCheckDeps, 'removed' | 'track'>,
  client: Pick<SvcClient, 'getIntentHistoryLite'>,
  address: string,
  start: WatchedCheckpoint,
  nowS: number,
): Promise<{ next: WatchedCheckpoint; added: number }> {
  let after = start.after;
  let added = 0;
  /** The newest creation time (ms) of this address's own rows read in this check. */
  let newest: number | undefined;
  let rowsWithoutTime = false;
  const owner = address.toLowerCase();
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
        // Another owner's row (a history that ignores the filter), or one older than asked: not ours to track.
        if (rowOwner(row) !== owner) continue;
        const createdAt = rowCreatedAt(row);
        if (createdAt !== undefined && createdAt < start.fromTime * 1000) continue;
        if (createdAt === undefined) rowsWithoutTime = true;
        else newest = Math.max(newest ?? createdAt, createdAt);
        if (await deps.removed?.has(row.intentId)) continue;
        const r = await deps.track(row.intentId, { source: 'watched' });
        if (r.ok && r.added) added++;
      }
      const next = res.nextPage;
      // A cursor that comes back (the one just asked with) leads nowhere new: the walk ends as at its last page.
      const repeated = next?.after !== undefined && next.after === after;
      if (!next || next.more === false || typeof next.after !== 'number' || repeated) {
        // Read to the end: the next check starts a little before the newest row read (an intent may be listed
        // late); nothing read, it stays where it was.
        if (newest !== undefined) return { next: { fromTime: Math.max(start.fromTime, Math.floor(newest / 1000) - OVERLAP_S) }, added };
        if (rowsWithoutTime) return { next: { fromTime: Math.max(start.fromTime, nowS - OVERLAP_S) }, added };
        return { next: { fromTime: start.fromTime }, added };
      }
      after = next.after;
    }
  } catch {
    // Fall through: go on after the last page read.
  }
  return { next: after === undefined ? { fromTime: start.fromTime } : { fromTime: start.fromTime, after }, added };
}

/**
 * The service's time for a check (ms): `deps.serviceTime` once settled, asking the service (a one-row history read of
 * `address`, whose answer's `Date` header feeds the service clock) up to {@link SETTLE_ASKS} times meanwhile; undefined
 * when still not settled. Without `serviceTime`, `serviceNow` (else `t`). A failed ask counts as one.
 */
async function settledTime(
  deps: Pick<WatchedCheckDeps, 'serviceTime' | 'serviceNow'>,
  client: Pick<SvcClient, 'getIntentHistoryLite'>,
  address: string,
  t: number,
): Promise<ServiceTimeBounds | undefined> {
  if (!deps.serviceTime) {
    const now = deps.serviceNow?.() ?? t;
    return { earliest: now, latest: now };
  }
  for (let asked = 0; ; asked++) {
    const time = deps.serviceTime();
    if (time || asked >= SETTLE_ASKS) return time;
    await client.getIntentHistoryLite({ byOwnerAddress: address, page: { pageSize: 1 } }).catch(() => undefined);
  }
}

/** Stores `starts` (by address) as those addresses' checkpoints, the others as they are. Rejects when the store refuses. */
async function keepStarts(checkpoints: WatchedCheckpoints, starts: Record<string, WatchedCheckpoint>): Promise<void> {
  await checkpoints.set({ ...(await checkpoints.get()), ...starts });
}

/**
 * One check of every ticked address; each address's checkpoint is saved as soon as it is read. `t`: the local time
 * (ms) the check started. Resolves with how many intents were added, and `unsettled` when the service's time did not
 * settle (nothing was read); rejects when a store refuses.
 */
export async function checkAll(deps: WatchedCheckDeps, t: number): Promise<{ added: number; unsettled?: true }> {
  // `fromTime` is compared with the service's timestamps: the service's clock, not this computer's.
  const settings = await deps.settings.get();
  const ticked = (settings?.autoTrackAddresses ?? []).map((a) => a.toLowerCase());
  // Addresses no longer ticked are marked so: ticked again, they start from that moment.
  const saved = await deps.checkpoints.get();
  const unticked = Object.keys(saved).filter((a) => !ticked.includes(a.toLowerCase()) && !saved[a]!.unticked);
  if (unticked.length > 0) {
    await deps.checkpoints.set({
      ...saved,
      ...Object.fromEntries(unticked.map((a) => [a, { fromTime: saved[a]!.fromTime, unticked: true }])),
    });
  }
  const client = await deps.client();
  if (!client || ticked.length === 0) return { added: 0 };
  const time = await settledTime(deps, client, ticked[0]!, t);
  // Not settled (too few Date headers, or they disagree): nothing is read and no checkpoint moves.
  if (!time) return { added: 0, unsettled: true };
  const nowS = Math.floor((time.earliest + time.latest) / 2000);
  const latestS = Math.floor(time.latest / 1000);
  const known = await deps.checkpoints.get();
  /** `c` with the address's tick token, as every checkpoint of a ticked address is stored. */
  const tagged = (a: string, c: WatchedCheckpoint): WatchedCheckpoint => ({
    ...c,
    ...(tickOf(settings, a) ? { tick: tickOf(settings, a) } : {}),
  });
  const starts = new Map(ticked.map((a) => [a, startCheckpoint(known[a], tickOf(settings, a), nowS, latestS)] as const));
  // Every first look (or tick again) this check decides is kept before any read, every address's: a read cut short
  // (a dying worker, a 429's hold, the browser closed) leaves each where it was decided, also those not reached yet,
  // not an hour back from a later check's time. A refused write does not stop the reads (each result is written).
  const decided = [...starts].filter(([a, start]) => start !== known[a]).map(([a, start]) => [a, tagged(a, start)]);
  if (decided.length > 0) await keepStarts(deps.checkpoints, Object.fromEntries(decided)).catch(() => {});
  let added = 0;
  for (const [address, start] of starts) {
    const result = await checkAddress(deps, client, address, start, nowS);
    added += result.added;
    await deps.checkpoints.set({ ...(await deps.checkpoints.get()), [address]: tagged(address, saneCheckpoint(result.next, latestS)) });
  }
  return { added };
}

/**
 * Creates the check. It resolves with the number of intents newly tracked (0 when throttled, not configured or
 * nothing is watched); a failed call is retried at the next check from where it stopped. Never throws for a failed
 * call.
 */
export function createWatchedCheck(deps: WatchedCheckDeps): (force?: boolean) => Promise<number> {
  const now = deps.now ?? Date.now;
  const elapsed = deps.monotonic ?? now;
  let lastCheck = Number.NEGATIVE_INFINITY;
  /** The last check found the service's time unsettled and its one early retry is set (or was that retry). */
  let retrying = false;
  // A check waits for its turn in the worker's request budget (lib/api/budget.ts): with many addresses it may last
  // longer than a minute. A check asked for meanwhile joins the one under way rather than starting a second.
  let running: Promise<number> | undefined;
  return async (force = false) => {
    if (running) return running.then(() => 0);
    const t = now();
    const m = elapsed();
    if (!force && m - lastCheck < WATCH_INTERVAL_MS - WATCH_ALARM_SLACK_MS) return 0;
    lastCheck = m;
    // A store that refuses a write (disk full) ends this check; the next goes on from the checkpoints saved.
    running = checkAll(deps, t)
      .then(({ added, unsettled }) => {
        // Once after a check that read nothing for want of the service's time: the next is due sooner.
        if (unsettled && !retrying) lastCheck = m - (WATCH_INTERVAL_MS - UNSETTLED_RETRY_MS);
        retrying = unsettled === true && !retrying;
        return added;
      })
      .catch((err: unknown) => {
        console.warn('watched addresses: the check stopped', err instanceof Error ? err.message : String(err));
        return 0;
      })
      .finally(() => {
        // A check longer than the interval (many addresses, each waiting its turn in the budget) is followed at the
        // next alarm; the background lane's pace bounds what it sends.
        running = undefined;
      });
    return running;
  };
}
