/**
 * Settings that follow the user: the keys of {@link SYNCED_SETTING_KEYS} are copied to the browser's `storage.sync`
 * (the user's browser account) on save and read back from it, so that another browser of theirs shows the same
 * choices. Everything else — the service URL, the access key, tracked intents — stays in this device's IndexedDB.
 * The user can turn syncing off (`Settings.syncSettings: false`, itself never synced).
 */

import { t } from '../i18n';
import { type Clock, realClock } from '../time/clock';
import type { SettingsStore } from './index';
import type { SeenMemory } from './sync-seen';
import { isPartsHeader, MAX_SYNC_PARTS, readSyncVersion, type SyncVersion, syncPartCount, validSyncedValue } from './sync-values';
import { newTickToken, stampTicks } from './ticks';
import type { Settings } from './types';

/** Settings keys that may never be synced: the connection (the key above all) and the device's own sync choice. */
type DeviceOnlyKey = 'baseUrl' | 'accessKey' | 'syncSettings';

/** A settings key that may be synced. */
export type SyncableSettingKey = Exclude<keyof Settings, DeviceOnlyKey>;

/**
 * The settings synced across the user's browsers, one `storage.sync` item each (`settings.<key>`). To sync a new
 * preference, add its key here; the type refuses the access key and the URL.
 */
export const SYNCED_SETTING_KEYS = [
  'notify',
  'watchedAddresses',
  'autoTrackAddresses',
  'autoTrackTicks',
] as const satisfies readonly SyncableSettingKey[];

/** A synced settings key. */
export type SyncedKey = (typeof SYNCED_SETTING_KEYS)[number];

/** The synced part of the settings. */
export type SyncedSettings = Partial<Pick<Settings, SyncedKey>>;

/** The part of `browser.storage.sync` used here (`get(null)` reads every item). */
export interface SyncArea {
  get(keys: string[] | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

/** Chrome's `storage.sync` quotas (Firefox's are the same or looser). */
export const SYNC_QUOTA = {
  /** Bytes of one item: its key plus its value as JSON. */
  bytesPerItem: 8_192,
  /** Bytes of every item together. */
  bytes: 102_400,
  /** `set`/`remove` calls a minute. */
  writesPerMinute: 120,
} as const;

/** The `storage.sync` item of a settings key. */
export const syncItemName = (key: SyncableSettingKey): string => `settings.${key}`;
/** The item holding the revision of the synced settings: when they were last saved (ms, the saving device's clock). */
export const SYNC_REVISION_ITEM = 'settings.$revision';
/** The item holding the {@link SyncVersion} of the synced settings: which save they are (a logical clock). */
export const SYNC_VERSION_ITEM = 'settings.$version';
/** The `i`-th part of a key's value split over several items. */
const partName = (key: SyncableSettingKey, i: number) => `${syncItemName(key)}#${i}`;

/** Why a save did not reach `storage.sync`. */
export type SyncFailure = 'too-large' | 'too-often' | 'unavailable';

/** Thrown by `set` when the settings were saved on this device but could not be synced. `reason` says why. */
export class SyncFailedError extends Error {
  constructor(
    readonly reason: SyncFailure,
    cause?: unknown,
  ) {
    super(
      `Saved on this device, but not synced to your other browsers (${reason})${cause ? `: ${cause instanceof Error ? cause.message : String(cause)}` : ''}`,
    );
    this.name = 'SyncFailedError';
  }
}

/** The words for a {@link SyncFailedError} in the browser's language (options page). */
export function syncFailureMessage(err: SyncFailedError): string {
  return err.reason === 'too-large' ? t('syncTooLarge') : err.reason === 'too-often' ? t('syncTooOften') : t('syncUnavailable');
}

/** Only the synced keys of `settings` (never anything else, whatever the object holds). */
export function pickSynced(settings: Partial<Settings>): SyncedSettings {
  const out: Record<string, unknown> = {};
  for (const key of SYNCED_SETTING_KEYS) if (settings[key] !== undefined) out[key] = settings[key];
  return out as SyncedSettings;
}

/** Whether syncing is on for these device settings (on unless turned off). */
export const syncEnabled = (settings: Settings | undefined): boolean => settings?.syncSettings !== false;

/** Bytes an item takes against the quotas: its key and its value as JSON, in UTF-8. */
export function itemBytes(name: string, value: unknown): number {
  return new TextEncoder().encode(name + JSON.stringify(value)).length;
}

/**
 * The items that hold the synced settings: each key in one item when it fits in {@link SYNC_QUOTA.bytesPerItem}; a
 * list that does not is split over parts (`settings.<key>` then says `{ parts: n }`, the parts are
 * `settings.<key>#0…`). Throws SyncFailedError('too-large') when a value cannot be split to fit, or when every item
 * together would exceed {@link SYNC_QUOTA.bytes}.
 */
export function syncItems(synced: SyncedSettings, revision: number): Record<string, unknown> {
  const items: Record<string, unknown> = { [SYNC_REVISION_ITEM]: revision };
  for (const key of SYNCED_SETTING_KEYS) {
    const value = synced[key];
    if (value === undefined) continue;
    const name = syncItemName(key);
    if (itemBytes(name, value) <= SYNC_QUOTA.bytesPerItem) {
      items[name] = value;
      continue;
    }
    if (!Array.isArray(value)) throw new SyncFailedError('too-large');
    const parts: unknown[][] = [[]];
    for (const element of value) {
      const current = parts[parts.length - 1]!;
      if (current.length > 0 && itemBytes(partName(key, parts.length - 1), [...current, element]) > SYNC_QUOTA.bytesPerItem) parts.push([]);
      parts[parts.length - 1]!.push(element);
      if (itemBytes(partName(key, parts.length - 1), parts[parts.length - 1]) > SYNC_QUOTA.bytesPerItem)
        throw new SyncFailedError('too-large');
    }
    items[name] = { parts: parts.length };
    parts.forEach((part, i) => {
      items[partName(key, i)] = part;
    });
  }
  const total = Object.entries(items).reduce((sum, [name, value]) => sum + itemBytes(name, value), 0);
  if (total > SYNC_QUOTA.bytes) throw new SyncFailedError('too-large');
  return items;
}

/**
 * Reads the synced settings back from the items of {@link syncItems}. Never throws: a value whose parts are missing,
 * or that another device wrote malformed (a part count that is not a whole number from 1 to {@link MAX_SYNC_PARTS},
 * a shape this version does not read, with a warning), is left out of `synced` and named in `malformed`; the store
 * puts the last well-formed synced value of that key in its place (`./sync-seen.ts`).
 */
export function readSyncItems(items: Record<string, unknown>): {
  synced: SyncedSettings;
  malformed: SyncedKey[];
  revision: number | undefined;
  version: SyncVersion | undefined;
} {
  const synced: Record<string, unknown> = {};
  const malformed: SyncedKey[] = [];
  for (const key of SYNCED_SETTING_KEYS) {
    let value = items[syncItemName(key)];
    if (value === undefined) continue;
    if (isPartsHeader(value)) {
      const parts = syncPartCount(value);
      const all = Array.from({ length: parts ?? 0 }, (_, i) => items[partName(key, i)]);
      if (parts === undefined) console.warn(`settings sync: ignored ${syncItemName(key)} (bad part count)`);
      if (parts === undefined || !all.every(Array.isArray)) {
        malformed.push(key);
        continue;
      }
      value = all.flat();
    }
    if (!validSyncedValue(key, value)) {
      console.warn(`settings sync: ignored ${syncItemName(key)} (unexpected shape)`);
      malformed.push(key);
      continue;
    }
    synced[key] = value;
  }
  const revision = items[SYNC_REVISION_ITEM];
  return {
    synced: synced as SyncedSettings,
    malformed,
    revision: typeof revision === 'number' ? revision : undefined,
    version: readSyncVersion(items[SYNC_VERSION_ITEM]),
  };
}

/** What this device keeps beside its settings about syncing them (never synced itself). */
interface SyncMeta {
  /** When the settings were last saved on this device (ms, this device's clock; read only against older versions). */
  savedAt?: number;
  /** The version of this device's last save ({@link SyncVersion}). */
  syncVersion?: SyncVersion;
  /** This device's id in {@link SyncVersion}s (random, made on its first save). */
  syncDevice?: string;
}

/**
 * Whether this device's copy `saved` wins over what `storage.sync` holds (version `synced`, and the older versions'
 * `revision`, a save time in ms): only when this device saved after it had seen the synced values — its own save
 * could not be synced — that is, when its counter is above the synced one. Two saves with the same counter were made
 * without seeing each other (on two devices, or one device's unsynced save and another's): the synced one wins, the
 * copy every device reads, so that all of them agree. Against a sync area no version has written yet, the older
 * rule (save times) decides.
 */
function localCopyWins(saved: Settings & SyncMeta, synced: SyncVersion | undefined, revision: number | undefined): boolean {
  const mine = readSyncVersion(saved.syncVersion);
  if (synced) return mine !== undefined && mine.counter > synced.counter;
  return saved.savedAt !== undefined && (revision ?? 0) < saved.savedAt;
}

/**
 * The settings store of the extension's pages and worker: `local` (IndexedDB) holds everything; while syncing is on,
 * `get` overlays what `storage.sync` holds for the synced keys — unless this device saved after them (its own save
 * could not be synced), so that such a save is never undone by older synced values — and `set` writes them there,
 * split to fit Chrome's quotas ({@link SYNC_QUOTA}), and at most {@link SYNC_QUOTA.writesPerMinute} writes a minute.
 * "After" is decided by a logical clock ({@link SyncVersion}: a counter above every one seen), never by comparing two
 * devices' wall clocks. `set` rejects with {@link SyncFailedError} after a successful local
 * write when only the sync failed. `area` undefined: local only. `clock`: `now` (wall, ms) stamps the revision older
 * versions read, `monotonic` (ms) times the write-rate window, so that no jump of the user's clock frees or blocks
 * it; a plain function is both (tests). `random` (uniform in [0, 1)) makes this device's id on its first save and the
 * tokens every save stamps in `Settings.autoTrackTicks` (`./ticks.ts`). `seen`: the last well-formed synced value
 * of each key, kept beside `local` (`./sync-seen.ts`): every read keeps them, and a synced item another device wrote
 * malformed reads as that value, unless this device saved after it (undefined: nothing kept, and this device's own
 * copy stands for a malformed item — the popup, which only reads).
 */
export function createSyncedSettingsStore(
  local: SettingsStore,
  area: SyncArea | undefined,
  clock: Pick<Clock, 'now' | 'monotonic'> | (() => number) = realClock,
  random: () => number = Math.random,
  seen?: SeenMemory,
): SettingsStore {
  const now = typeof clock === 'function' ? clock : () => clock.now();
  const monotonic = typeof clock === 'function' ? clock : () => clock.monotonic();
  /** When this store wrote to the sync area in the last minute (monotonic ms). */
  const writes: number[] = [];
  const strip = (saved: (Settings & SyncMeta) | undefined): Settings | undefined => {
    if (!saved) return saved;
    const { savedAt: _, syncVersion: _v, syncDevice: _d, ...settings } = saved;
    return settings;
  };
  const read = async (): Promise<Settings | undefined> => {
    const saved = (await local.get()) as (Settings & SyncMeta) | undefined;
    if (!area || !syncEnabled(saved)) return strip(saved);
    let items: Record<string, unknown>;
    try {
      items = await area.get(null);
    } catch {
      return strip(saved); // sync unavailable: this device's copy is the truth
    }
    const { synced, malformed, revision, version } = readSyncItems(items);
    await seen?.remember(synced, version);
    if (!saved && Object.keys(synced).length === 0) return undefined;
    if (saved && localCopyWins(saved, version, revision)) return strip(saved);
    // A synced item another device wrote malformed: the last well-formed synced value of it, not this device's own
    // older save (which a change synced from elsewhere never reached) — unless this device saved after reading it.
    const fallback = seen && malformed.length > 0 ? await seen.recall(malformed, readSyncVersion(saved?.syncVersion)?.counter ?? 0) : {};
    return { ...(strip(saved) ?? { baseUrl: '', accessKey: '' }), ...fallback, ...synced };
  };
  return {
    get: read,
    async set(given) {
      const savedAt = now();
      const before = (await local.get().catch(() => undefined)) as (Settings & SyncMeta) | undefined;
      // Tick tokens from the settings as they read now (another device's ticks included); unreadable: every ticked
      // address counts as ticked now.
      const settings = stampTicks(await read().catch(() => undefined), given, () => newTickToken(random));
      const syncing = area !== undefined && syncEnabled(settings);
      // What is there now: its version orders this save after it; the parts of a list that shrank are removed
      // (unreadable: nothing is removed, and the counter goes on from this device's own).
      const existing = syncing ? await area.get(null).catch(() => ({}) as Record<string, unknown>) : {};
      const device =
        typeof before?.syncDevice === 'string' && before.syncDevice ? before.syncDevice : newTickToken(random) + newTickToken(random);
      const counters = [readSyncVersion(before?.syncVersion), readSyncVersion(existing[SYNC_VERSION_ITEM])].map((v) => v?.counter ?? 0);
      const version: SyncVersion = { counter: Math.max(...counters) + 1, device };
      await local.set({ ...strip(settings as Settings & SyncMeta), savedAt, syncVersion: version, syncDevice: device } as Settings);
      if (!syncing) return;
      const items = { ...syncItems(pickSynced(settings), savedAt), [SYNC_VERSION_ITEM]: version };
      const sentAt = monotonic();
      while (writes.length > 0 && writes[0]! <= sentAt - 60_000) writes.shift();
      // A save is at most two writes (set, then remove what is no longer there).
      if (writes.length + 2 > SYNC_QUOTA.writesPerMinute) throw new SyncFailedError('too-often');
      const ours = (name: string) =>
        name === SYNC_REVISION_ITEM ||
        name === SYNC_VERSION_ITEM ||
        SYNCED_SETTING_KEYS.some((k) => name === syncItemName(k) || name.startsWith(`${syncItemName(k)}#`));
      const stale = Object.keys(existing).filter((name) => ours(name) && !(name in items));
      try {
        writes.push(sentAt);
        await area.set(items);
        if (stale.length > 0) {
          writes.push(sentAt);
          await area.remove(stale);
        }
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        throw new SyncFailedError(
          /QUOTA_BYTES/.test(text) ? 'too-large' : /MAX_WRITE_OPERATIONS/.test(text) ? 'too-often' : 'unavailable',
          err,
        );
      }
    },
  };
}
