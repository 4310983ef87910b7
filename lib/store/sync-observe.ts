/**
 * The worker's listener to `storage.onChanged` for the synced settings: a well-formed value that arrives from another
 * device is kept as the last synced value of its key (`./sync-seen.ts`) the moment it arrives, not only at the next
 * settings read — so that a malformed item replacing it before that read still falls back to it.
 */
import { readSyncItems, type SyncArea } from './sync';
import type { SeenMemory } from './sync-seen';

/** One item's change as `storage.onChanged` reports it (`newValue` absent or null: the item was removed). */
export interface StorageChange {
  newValue?: unknown;
}

/**
 * A `storage.onChanged` listener that keeps in `memory` the well-formed synced settings a change to the `sync` area
 * brings: the changed items read over what `area` holds now (a split list whose parts did not change is not in the
 * change), under the change's version item, or the area's when the change has none. Other areas and removals are let
 * go. Never rejects (a refused read or write is let go: the next settings read keeps the values).
 */
export function keepSyncedChanges(
  area: SyncArea,
  memory: SeenMemory,
): (changes: Record<string, StorageChange>, areaName: string) => Promise<void> {
  return async (changes, areaName) => {
    if (areaName !== 'sync') return;
    const arrived = Object.entries(changes).filter(([, c]) => c?.newValue != null);
    try {
      const { synced, version } = readSyncItems({
        ...(await area.get(null)),
        ...Object.fromEntries(arrived.map(([k, c]) => [k, c.newValue])),
      });
      await memory.remember(synced, version);
    } catch {}
  };
}
