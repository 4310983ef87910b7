/**
 * Settings that follow the user: the keys of {@link SYNCED_SETTING_KEYS} are copied to the browser's `storage.sync`
 * (the user's browser account) on save and read back from it, so that another browser of theirs shows the same
 * choices. Everything else — the service URL, the access key, tracked intents — stays in this device's IndexedDB.
 * The user can turn syncing off (`Settings.syncSettings: false`, itself never synced).
 */
import { t } from '../i18n';
import type { SettingsStore } from './index';
import type { Settings } from './types';

/** Settings keys that may never be synced: the connection (the key above all) and the device's own sync choice. */
type DeviceOnlyKey = 'baseUrl' | 'accessKey' | 'syncSettings';

/** A settings key that may be synced. */
export type SyncableSettingKey = Exclude<keyof Settings, DeviceOnlyKey>;

/**
 * The settings synced across the user's browsers, one `storage.sync` item each (`settings.<key>`). To sync a new
 * preference, add its key here; the type refuses the access key and the URL.
 */
export const SYNCED_SETTING_KEYS = ['notify', 'watchedAddresses', 'autoTrackAddresses'] as const satisfies readonly SyncableSettingKey[];

/** The synced part of the settings. */
export type SyncedSettings = Partial<Pick<Settings, (typeof SYNCED_SETTING_KEYS)[number]>>;

/** The part of `browser.storage.sync` used here. */
export interface SyncArea {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

/** The `storage.sync` item of a settings key. */
export const syncItemName = (key: SyncableSettingKey): string => `settings.${key}`;

/**
 * Thrown by `set` when the settings were saved on this device but could not be synced (quota, no sync area); its
 * message is the options page's sentence, in the browser's language.
 */
export class SyncFailedError extends Error {
  constructor(cause: unknown) {
    super(t('savedNotSynced', cause instanceof Error ? cause.message : String(cause)));
    this.name = 'SyncFailedError';
  }
}

/** Only the synced keys of `settings` (never anything else, whatever the object holds). */
export function pickSynced(settings: Partial<Settings>): SyncedSettings {
  const out: Record<string, unknown> = {};
  for (const key of SYNCED_SETTING_KEYS) if (settings[key] !== undefined) out[key] = settings[key];
  return out as SyncedSettings;
}

/** Whether syncing is on for these device settings (on unless turned off). */
export const syncEnabled = (settings: Settings | undefined): boolean => settings?.syncSettings !== false;

/**
 * The settings store of the extension's pages and worker: `local` (IndexedDB) holds everything; while syncing is on,
 * `get` overlays what `storage.sync` holds for the synced keys and `set` writes them there. `set` rejects with
 * {@link SyncFailedError} after a successful local write when only the sync failed. `area` undefined: local only.
 */
export function createSyncedSettingsStore(local: SettingsStore, area: SyncArea | undefined): SettingsStore {
  const names = SYNCED_SETTING_KEYS.map(syncItemName);
  return {
    async get() {
      const saved = await local.get();
      if (!area || !syncEnabled(saved)) return saved;
      let items: Record<string, unknown>;
      try {
        items = await area.get(names);
      } catch {
        return saved; // sync unavailable: this device's copy is the truth
      }
      const synced: Record<string, unknown> = {};
      for (const key of SYNCED_SETTING_KEYS) if (items[syncItemName(key)] !== undefined) synced[key] = items[syncItemName(key)];
      if (!saved && Object.keys(synced).length === 0) return undefined;
      return { ...(saved ?? { baseUrl: '', accessKey: '' }), ...(synced as SyncedSettings) };
    },
    async set(settings) {
      await local.set(settings);
      if (!area || !syncEnabled(settings)) return;
      const synced = pickSynced(settings);
      const present = Object.keys(synced) as SyncableSettingKey[];
      const absent = SYNCED_SETTING_KEYS.filter((k) => !present.includes(k));
      try {
        await area.set(Object.fromEntries(present.map((k) => [syncItemName(k), synced[k as keyof SyncedSettings]])));
        if (absent.length > 0) await area.remove(absent.map(syncItemName));
      } catch (err) {
        throw new SyncFailedError(err);
      }
    },
  };
}
