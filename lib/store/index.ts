/**
 * Persistence of settings and tracked intents in IndexedDB through idb-keyval. Each tracked intent is its own key,
 * so that writes for different intents never overwrite each other; `update` is atomic for one key.
 */
import { createStore, del, delMany, entries, get, promisifyRequest, set, type UseStore, update } from 'idb-keyval';
import type { IntentReceipt } from '../api/schemas/receipt';
import { type CalmState, EMPTY_CALM, type Settings, type TrackedIntent, type TrackerState, type WatchedCheckpoint } from './types';

export type {
  CalmState,
  ChainVerdict,
  ChainVerdictLeg,
  HeldNotification,
  NotificationState,
  NotifySettings,
  ProgressMark,
  QuietHours,
  Settings,
  TrackedIntent,
  TrackerState,
  TrackingError,
  TrackingPhase,
  WatchedCheckpoint,
} from './types';
export { DEFAULT_NOTIFY, EMPTY_CALM } from './types';

/** Read/write access to the tracked intents. Implemented on IndexedDB; the tracker depends on this interface only. */
export interface IntentStore {
  get(intentId: string): Promise<TrackedIntent | undefined>;
  /** Every tracked intent, newest added first. */
  list(): Promise<TrackedIntent[]>;
  put(intent: TrackedIntent): Promise<void>;
  /**
   * Atomically replaces the record of `intentId` with `fn(current)`; when `fn` returns undefined the record is left
   * as it is. Resolves with the record as written (or the unchanged one).
   */
  update(intentId: string, fn: (current: TrackedIntent | undefined) => TrackedIntent | undefined): Promise<TrackedIntent | undefined>;
  /**
   * {@link IntentStore.update} of many records at once, all or none: `fn(intentId, current)` per id (in order; ids
   * unique), every write in one transaction. Resolves with the record as written (or the unchanged one) per id, in
   * the order given.
   */
  updateMany(
    intentIds: readonly string[],
    fn: (intentId: string, current: TrackedIntent | undefined) => TrackedIntent | undefined,
  ): Promise<Array<TrackedIntent | undefined>>;
  remove(intentId: string): Promise<void>;
}

/** Read/write access to the connection settings. */
export interface SettingsStore {
  get(): Promise<Settings | undefined>;
  set(settings: Settings): Promise<void>;
}

/** Read/write access to the tracker-wide state. Only the tracker writes it. */
export interface TrackerStateStore {
  get(): Promise<TrackerState | undefined>;
  set(state: TrackerState): Promise<void>;
}

/** Creates the IndexedDB-backed tracker state store (kept beside the settings). */
export function createTrackerStateStore(db: UseStore = createStore(DB_NAMES.settings, 'settings')): TrackerStateStore {
  return {
    get: () => get<TrackerState>('tracker-state', db),
    set: (state) => set('tracker-state', state, db),
  };
}

/**
 * The service's clock minus the local clock (ms; positive: the local clock is behind), as the worker last estimated it
 * from the service's answers (`lib/tracker/service-clock.ts`). The extension pages read it to compare with server
 * timestamps ("2 min ago", ETAs, a history look-up's `fromTime`) on the service's time (README "One clock"). Only the
 * worker writes it.
 */
export interface ServiceOffsetStore {
  /** The offset (ms); 0 when none was saved or what was saved is not a finite number. */
  get(): Promise<number>;
  set(offsetMs: number): Promise<void>;
}

/** Creates the IndexedDB-backed service offset (kept beside the settings, under its own key). */
export function createServiceOffsetStore(db: UseStore = createStore(DB_NAMES.settings, 'settings')): ServiceOffsetStore {
  return {
    async get() {
      const v = await get<unknown>('service-offset', db);
      return typeof v === 'number' && Number.isFinite(v) ? v : 0;
    },
    set: (offsetMs) => set('service-offset', offsetMs, db),
  };
}

/** Read/write access to the calm state (mute, snooze, held and progress notifications). Only the worker writes it. */
export interface CalmStateStore {
  /** The state; {@link EMPTY_CALM} when none was saved. */
  get(): Promise<CalmState>;
  set(state: CalmState): Promise<void>;
}

/** Creates the IndexedDB-backed calm state (kept beside the settings, under its own key). */
export function createCalmStateStore(db: UseStore = createStore(DB_NAMES.settings, 'settings')): CalmStateStore {
  return {
    // Fresh arrays each time: callers change what they get before saving it.
    get: async () => ({ ...structuredClone(EMPTY_CALM), ...((await get<CalmState>('calm-state', db)) ?? {}) }),
    set: (state) => set('calm-state', state, db),
  };
}

/** Where the watched-address check of each address resumes (address → checkpoint). Kept under its own key so that
 * the tracker's state writes and the watched-address check never overwrite each other. */
export interface WatchedCheckpoints {
  get(): Promise<Record<string, WatchedCheckpoint>>;
  set(checkpoints: Record<string, WatchedCheckpoint>): Promise<void>;
}

/** Creates the IndexedDB-backed watched-address checkpoints (kept beside the settings). */
export function createWatchedCheckpoints(db: UseStore = createStore(DB_NAMES.settings, 'settings')): WatchedCheckpoints {
  return {
    async get() {
      const saved = (await get<Record<string, WatchedCheckpoint | number>>('watched-checked-at', db)) ?? {};
      // Earlier versions kept the time of the last check (Unix seconds), and looked back a minute from it.
      return Object.fromEntries(Object.entries(saved).map(([a, v]) => [a, typeof v === 'number' ? { fromTime: v - 60 } : v]));
    },
    set: (checkpoints) => set('watched-checked-at', checkpoints, db),
  };
}

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

/** A stored record the worker could not read, kept aside as it was (never dropped); `at` when it was set aside (ms). */
export interface AsideRecord {
  /** Its key in the intents database. */
  key: string;
  raw: unknown;
  /** What could not be read (a zod issue: path and message). */
  reason: string;
  at: number;
}

/** The records set aside (`unreadable-intents` beside the settings). The popup reads it to say so. */
export interface AsideRecords {
  list(): Promise<AsideRecord[]>;
  add(records: readonly AsideRecord[]): Promise<void>;
}

/** Creates the IndexedDB-backed list of records set aside. No zod here: the popup reads it too. */
export function createAsideRecords(db: UseStore = createStore(DB_NAMES.settings, 'settings')): AsideRecords {
  const KEY = 'unreadable-intents';
  return {
    list: async () => {
      const saved = await get<unknown>(KEY, db);
      return Array.isArray(saved) ? (saved as AsideRecord[]) : [];
    },
    async add(records) {
      if (records.length === 0) return;
      await update<unknown>(KEY, (saved) => [...(Array.isArray(saved) ? saved : []), ...records], db);
    },
  };
}

/** IndexedDB database names (one object store each: idb-keyval cannot open two stores in one database). */
export const DB_NAMES = { intents: 'svc-intents', settings: 'svc-settings', receipts: 'svc-receipts' } as const;

/** A receipt read for an intent that may not be tracked; `fetchedAt` in ms. */
export interface CachedReceipt {
  receipt: IntentReceipt;
  fetchedAt: number;
}

/** Receipts of intents looked at in the popup (history, search), kept for instant display. */
export interface ReceiptCache {
  get(intentId: string): Promise<CachedReceipt | undefined>;
  /** Stores a receipt; keeps the newest `cap` entries. */
  put(intentId: string, entry: CachedReceipt): Promise<void>;
}

/** Creates the IndexedDB-backed receipt cache (at most `cap` entries, default 200). */
export function createReceiptCache(db: UseStore = createStore(DB_NAMES.receipts, 'receipts'), cap = 200): ReceiptCache {
  return {
    get: (intentId) => get<CachedReceipt>(intentId, db),
    async put(intentId, entry) {
      await set(intentId, entry, db);
      const all = await entries<string, CachedReceipt>(db);
      if (all.length <= cap) return;
      const oldest = all.sort((a, b) => a[1].fetchedAt - b[1].fetchedAt).slice(0, all.length - cap);
      await delMany(
        oldest.map(([k]) => k),
        db,
      );
    },
  };
}

/** Creates the IndexedDB-backed intent store. */
export function createIntentStore(db: UseStore = createStore(DB_NAMES.intents, 'intents')): IntentStore {
  return {
    get: (intentId) => get<TrackedIntent>(intentId, db),
    async list() {
      const all = await entries<string, TrackedIntent>(db);
      // A record the worker has not read yet (an earlier version's, or damaged) is left out here rather than break
      // the page: the worker migrates it or sets it aside when it loads (./records.ts).
      return all
        .map(([, v]) => v)
        .filter(
          (v): v is TrackedIntent =>
            typeof v === 'object' &&
            v !== null &&
            typeof v.intentId === 'string' &&
            typeof v.addedAt === 'number' &&
            Array.isArray(v.lastStates) &&
            ['tracking', 'final', 'not-found', 'expired'].includes(v.phase),
        )
        .sort((a, b) => b.addedAt - a.addedAt);
    },
    put: (intent) => set(intent.intentId, intent, db),
    update: (intentId, fn) =>
      // One readwrite transaction: read, decide, and write only when `fn` returns a record (idb-keyval's own
      // `update` would store `undefined` under the key when there is nothing to write). `fn` runs in the request's
      // success callback, where the transaction is certainly still active.
      db(
        'readwrite',
        (store) =>
          new Promise<TrackedIntent | undefined>((resolve, reject) => {
            const request = store.get(intentId) as IDBRequest<TrackedIntent | undefined>;
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              try {
                const current = request.result ?? undefined;
                const next = fn(current);
                if (next === undefined) return resolve(current);
                store.put(next, intentId);
                promisifyRequest(store.transaction).then(() => resolve(next), reject);
              } catch (err) {
                reject(err);
              }
            };
          }),
      ),
    updateMany: (intentIds, fn) =>
      // One readwrite transaction: every get is queued at once, each write decided in its own success callback
      // (the transaction is active there); it resolves once the whole transaction has committed.
      db('readwrite', (store) => {
        const out: Array<TrackedIntent | undefined> = new Array(intentIds.length);
        let failure: unknown;
        intentIds.forEach((intentId, i) => {
          const request = store.get(intentId) as IDBRequest<TrackedIntent | undefined>;
          request.onsuccess = () => {
            if (failure !== undefined) return;
            try {
              const current = request.result ?? undefined;
              const next = fn(intentId, current);
              out[i] = next ?? current;
              if (next !== undefined) store.put(next, intentId);
            } catch (err) {
              failure = err;
              store.transaction.abort();
            }
          };
        });
        return promisifyRequest(store.transaction).then(
          () => out,
          (err: unknown) => Promise.reject(failure ?? err),
        );
      }),
    remove: (intentId) => del(intentId, db),
  };
}

/** Creates the IndexedDB-backed settings store. */
export function createSettingsStore(db: UseStore = createStore(DB_NAMES.settings, 'settings')): SettingsStore {
  return {
    get: () => get<Settings>('settings', db),
    set: (settings) => set('settings', settings, db),
  };
}
