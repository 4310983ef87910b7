/**
 * What another device may have put in `storage.sync`, checked before it is believed: the synced settings
 * (`./sync.ts`) are written by every browser of the user, by this version or any other, and a damaged or hostile item
 * must cost at most that one setting on this device — never every settings read. No zod here: the popup and the
 * options page read the settings too.
 *
 * - {@link syncPartCount}: a list split over parts says `{ parts: n }`; `n` must be a whole number from 1 to
 *   {@link MAX_SYNC_PARTS} (Chrome's `storage.sync` holds at most 512 items), so that a `parts: 2**32` from a
 *   broken device cannot make a reader allocate four billion slots.
 * - {@link validSyncedValue}: the shape each synced key must have (`Settings` in `./types`).
 * - {@link SyncVersion}: the logical clock that decides between this device's copy and the synced one.
 */

/** Most items a split list may take: `storage.sync` holds at most 512 items in all (Chrome's MAX_ITEMS). */
export const MAX_SYNC_PARTS = 512;

/** The number of parts a split list's header announces, or undefined when `value` is no valid header. */
export function syncPartCount(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const parts = (value as { parts?: unknown }).parts;
  return typeof parts === 'number' && Number.isInteger(parts) && parts >= 1 && parts <= MAX_SYNC_PARTS ? parts : undefined;
}

/** Whether `value` is a split list's header at all (an object with a `parts` field), valid or not. */
export function isPartsHeader(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'parts' in value;
}

const isStringList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const NOTIFY_SWITCHES = ['succeeded', 'failed', 'refunded', 'stuck', 'sound'] as const;

/** Whether a synced notification preference has the shape of `NotifySettings` (extra fields from a later version pass). */
function validNotify(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (!NOTIFY_SWITCHES.every((k) => typeof v[k] === 'boolean')) return false;
  if (v.progress !== undefined && typeof v.progress !== 'boolean') return false;
  const q = v.quietHours;
  return q === undefined || (isObject(q) && typeof q.start === 'string' && typeof q.end === 'string');
}

/**
 * Whether `value` read from `storage.sync` for the settings key `key` has the shape this version reads; a key this
 * version does not know is never valid. Never throws.
 */
export function validSyncedValue(key: string, value: unknown): boolean {
  switch (key) {
    case 'notify':
      return validNotify(value);
    case 'watchedAddresses':
    case 'autoTrackAddresses':
    case 'autoTrackTicks':
      return isStringList(value);
    default:
      return false;
  }
}

/**
 * A logical clock for the synced settings (Lamport): each save takes a `counter` one above every counter it has seen
 * (this device's last save and the synced one), and names its device. A save is "after" another when its counter is
 * higher; equal counters are saves made without seeing each other, and `./sync.ts` lets the synced one win (the copy
 * every device reads, so that they agree) — the device id makes each version unique and says who wrote it. Wall
 * clocks never take part, so a device whose clock is wrong cannot lose or win a change by it.
 */
export interface SyncVersion {
  /** A whole number ≥ 1. */
  counter: number;
  /** The saving device's id (random, kept in its own settings). */
  device: string;
}

/**
 * The highest counter a version may carry: a device saving 120 times a minute (`storage.sync`'s write quota) would
 * take 17,000 years to reach it, so a larger one is corrupt (another install's bug) and reads as no version: kept, it
 * would outrank every later save, whose counter could never pass it.
 */
export const MAX_SYNC_COUNTER = 2 ** 40;

/** The version read from a `storage.sync` item, or undefined when it is absent or malformed (counter above {@link MAX_SYNC_COUNTER} included). */
export function readSyncVersion(value: unknown): SyncVersion | undefined {
  if (!isObject(value)) return undefined;
  const { counter, device } = value;
  return typeof counter === 'number' &&
    Number.isSafeInteger(counter) &&
    counter >= 1 &&
    counter <= MAX_SYNC_COUNTER &&
    typeof device === 'string'
    ? { counter, device }
    : undefined;
}
