/**
 * The last well-formed value of each synced setting this device read from `storage.sync`, kept in its IndexedDB
 * beside the settings (key {@link SYNC_SEEN_KEY}), so that a synced item another device later writes malformed (or
 * whose parts are missing) falls back to the last synced value — the choice every device last agreed on — rather
 * than to this device's own older save, which a change synced from another device (an untick, a new quiet hour) never
 * reached. Each value carries the counter of the {@link SyncVersion} it was read under: a logical clock, never a wall
 * clock, decides between it and this device's own save (`./sync.ts`). Only valid shapes are kept and believed
 * ({@link validSyncedValue}); the record is written in one IndexedDB transaction that never lowers a value's counter.
 */
import { createStore, get, type UseStore, update } from 'idb-keyval';
import { DB_NAMES } from './db-names';
import { type SyncVersion, validSyncedValue } from './sync-values';

/** Where the record is kept in the settings database. */
export const SYNC_SEEN_KEY = 'sync-seen';

/** One synced key's last well-formed value and the counter of the synced version it was read under (0: none). */
export interface SeenValue {
  value: unknown;
  counter: number;
}

/** The record: settings key → its last well-formed synced value. */
export type SyncSeen = Record<string, SeenValue>;

/** Reads and updates the record. */
export interface SyncSeenStore {
  /** The record as stored (checked by the caller with {@link readSyncSeen}). */
  get(): Promise<unknown>;
  /** Replaces the record by `fn(stored)` in one transaction (rejects when IndexedDB refuses). */
  update(fn: (stored: unknown) => SyncSeen): Promise<void>;
}

/** The record in IndexedDB `db` (default: the settings database of the extension's pages). */
export function createSyncSeenStore(db: UseStore = createStore(DB_NAMES.settings, 'settings')): SyncSeenStore {
  return {
    get: () => get<unknown>(SYNC_SEEN_KEY, db),
    update: (fn) => update<unknown>(SYNC_SEEN_KEY, (stored) => fn(stored), db),
  };
}

const isCounter = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The entries of a stored record that are well formed (a valid value for a known key, a whole counter ≥ 0). Never throws. */
export function readSyncSeen(raw: unknown): SyncSeen {
  const out: SyncSeen = {};
  // A list's entries are keyed by indexes, which no synced key is.
  for (const [key, entry] of Object.entries(typeof raw === 'object' && raw ? raw : {})) {
    const { value, counter } = (entry ?? {}) as { value?: unknown; counter?: unknown };
    if (isCounter(counter) && validSyncedValue(key, value)) out[key] = { value, counter };
  }
  return out;
}

/**
 * The JSON of a kept entry's value, computed once per entry object: the memory compares the record it last wrote with
 * every read of the synced settings, and a watched-address list can be tens of KB.
 */
const jsonOfEntry = new WeakMap<SeenValue, string | undefined>();
function jsonOf(entry: SeenValue): string | undefined {
  if (!jsonOfEntry.has(entry)) jsonOfEntry.set(entry, JSON.stringify(entry.value));
  return jsonOfEntry.get(entry);
}

/**
 * `seen` with the well-formed values `synced` read under `version` (undefined: a sync area no version has written,
 * counter 0): a key's entry is replaced unless it holds a higher counter (a later read of this device, or another
 * page's). Pure; returns `seen` itself when nothing changes.
 */
export function mergeSyncSeen(seen: SyncSeen, synced: Record<string, unknown>, version: SyncVersion | undefined): SyncSeen {
  const counter = version?.counter ?? 0;
  let out = seen;
  for (const [key, value] of Object.entries(synced)) {
    const had = seen[key];
    if (had && (had.counter > counter || (had.counter === counter && jsonOf(had) === JSON.stringify(value)))) continue;
    if (out === seen) out = { ...seen };
    out[key] = { value, counter };
  }
  return out;
}

/**
 * The values to stand for the synced keys `malformed` (present in `storage.sync` but unreadable): each key's last
 * well-formed synced value, unless this device saved after reading it (`localCounter`, the counter of this device's
 * last save, is above the value's) — then this device's own copy stands, as it does for a key with no such value.
 */
export function seenFallback(seen: SyncSeen, malformed: readonly string[], localCounter: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of malformed) {
    const entry = seen[key];
    if (entry && entry.counter >= localCounter) out[key] = entry.value;
  }
  return out;
}

/** What the synced settings store keeps of the record: {@link SeenMemory.remember} on every read, `recall` for a malformed key. */
export interface SeenMemory {
  /** Keeps the well-formed values `synced` read under `version`; writes only what changed. A refused write is let go (the next read tries again). */
  remember(synced: Record<string, unknown>, version: SyncVersion | undefined): Promise<void>;
  /** {@link seenFallback} over the stored record; nothing when it cannot be read. */
  recall(malformed: readonly string[], localCounter: number): Promise<Record<string, unknown>>;
}

/** The {@link SeenMemory} over `store`. */
export function createSeenMemory(store: SyncSeenStore): SeenMemory {
  /** What this memory last wrote of the record: a read that brings nothing new writes nothing. */
  let known: SyncSeen | undefined;
  return {
    async remember(synced, version) {
      if (known && mergeSyncSeen(known, synced, version) === known) return;
      let next: SyncSeen | undefined;
      await store
        .update((stored) => {
          next = mergeSyncSeen(readSyncSeen(stored), synced, version);
          return next;
        })
        .then(
          () => {
            known = next;
          },
          (err: unknown) => console.warn('settings sync: last synced values not kept', err),
        );
    },
    async recall(malformed, localCounter) {
      return seenFallback(await store.get().then(readSyncSeen, () => ({})), malformed, localCounter);
    },
  };
}
