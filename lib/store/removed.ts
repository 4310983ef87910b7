/**
 * The marks of the intents the user removed, in IndexedDB beside the settings.
 */
import { createStore, get, type UseStore, update } from 'idb-keyval';
import { DB_NAMES } from './db-names';

/**
 * The intents the user removed (remove, Clear finished): the watched-address check never tracks them again. Tracking
 * one again by hand (paste, menu) lifts the mark. Keeps the newest {@link MAX_REMOVED_MARKS}.
 */
export interface RemovedIntents {
  has(intentId: string): Promise<boolean>;
  add(intentIds: readonly string[]): Promise<void>;
  /** Lifts the marks of the intents tracked again by hand: one read, and one write when any was marked. */
  deleteMany(intentIds: readonly string[]): Promise<void>;
}

/** Removal marks kept at most (oldest forgotten first). */
export const MAX_REMOVED_MARKS = 5_000;

/** Creates the IndexedDB-backed removal marks (kept beside the settings, under their own key). */
export function createRemovedIntents(db: UseStore = createStore(DB_NAMES.settings, 'settings')): RemovedIntents {
  const KEY = 'removed-intents';
  const strings = (saved: unknown) => (Array.isArray(saved) ? saved.filter((x): x is string => typeof x === 'string') : []);
  const read = async () => strings(await get<unknown>(KEY, db));
  return {
    has: async (intentId) => (await read()).includes(intentId),
    // One transaction each (idb-keyval's update): two marks written at once both stay.
    async add(intentIds) {
      if (intentIds.length === 0) return;
      await update<unknown>(
        KEY,
        (saved) => [...strings(saved).filter((id) => !intentIds.includes(id)), ...intentIds].slice(-MAX_REMOVED_MARKS),
        db,
      );
    },
    async deleteMany(intentIds) {
      const lifted = new Set(intentIds);
      if (!(await read()).some((id) => lifted.has(id))) return;
      await update<unknown>(KEY, (saved) => strings(saved).filter((id) => !lifted.has(id)), db);
    },
  };
}
