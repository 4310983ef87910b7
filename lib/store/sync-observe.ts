/**
 * The worker's listener to `storage.onChanged` for the synced settings: a well-formed value that arrives from another
 * device is kept as the last synced value of its key (`./sync-seen.ts`) the moment it arrives, not only at the next
 * settings read — so that a malformed item replacing it before that read still falls back to it.
 */
import { readSyncItems, SYNC_VERSION_ITEM, type SyncArea, type SyncedKey, syncItemName } from './sync';
import { createSeenMemory, type SyncSeenStore } from './sync-seen';
import { readSyncVersion } from './sync-values';

/** One item's change as `storage.onChanged` reports it (`newValue` absent or null: the item was removed). */
export interface StorageChange {
  newValue?: unknown;
}

/**
 * A `storage.onChanged` listener that keeps in `seen` the well-formed synced settings a change to the `sync` area
 * brings. The changed items are read over what `area` holds now (a split list whose parts did not change is not in
 * the change), under the change's version item, or the area's when the change has none. Other areas, removals and
 * items that are not settings are let go. Never rejects (a refused read or write is let go: the next settings read
 * keeps the values).
 */
export function keepSyncedChanges(
  area: SyncArea,
  seen: SyncSeenStore,
): (changes: Record<string, StorageChange>, areaName: string) => Promise<void> {
  const memory = createSeenMemory(seen);
  return async (changes, areaName) => {
    if (areaName !== 'sync') return;
    const arrived: Record<string, unknown> = {};
    for (const [name, change] of Object.entries(changes))
      if (name.startsWith('settings.') && change?.newValue !== undefined && change.newValue !== null) arrived[name] = change.newValue;
    if (Object.keys(arrived).length === 0) return;
    try {
      const now = await area.get(null);
      const { synced } = readSyncItems({ ...now, ...arrived });
      const version = readSyncVersion(arrived[SYNC_VERSION_ITEM] ?? now[SYNC_VERSION_ITEM]);
      // Only the keys this change brought: what it did not touch is the area's now, kept by the next read.
      const names = Object.keys(arrived);
      const brought = (key: string) =>
        names.some((n) => n === syncItemName(key as SyncedKey) || n.startsWith(`${syncItemName(key as SyncedKey)}#`));
      await memory.remember(Object.fromEntries(Object.entries(synced).filter(([key]) => brought(key))), version);
    } catch {}
  };
}
