/**
 * Persistence in IndexedDB through idb-keyval: the settings and the small records kept beside them (tracker state,
 * service offset, calm state, watched-address checkpoints) here; the tracked intents (./intents.ts), removal marks
 * (./removed.ts), records set aside (./aside.ts) and receipt cache (./receipt-cache.ts) in their own modules, all
 * exported from here too.
 */
import { createStore, get, set, type UseStore } from 'idb-keyval';
import { DB_NAMES } from './db-names';
import { type CalmState, EMPTY_CALM, type Settings, type TrackerState, type WatchedCheckpoint } from './types';

export { type AsideRecord, type AsideRecords, createAsideRecords } from './aside';
export { DB_NAMES } from './db-names';
export { createIntentStore, type IntentStore } from './intents';
export { type CachedReceipt, createReceiptCache, type ReceiptCache } from './receipt-cache';
export { createRemovedIntents, MAX_REMOVED_MARKS, type RemovedIntents } from './removed';

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
 * timestamps ("2 min ago", ETAs, a history look-up's `fromTime`) on the service's time (docs/tracking.md "One clock:
 * the service's"). Only the worker writes it.
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

/** Creates the IndexedDB-backed settings store. */
export function createSettingsStore(db: UseStore = createStore(DB_NAMES.settings, 'settings')): SettingsStore {
  return {
    get: () => get<Settings>('settings', db),
    set: (settings) => set('settings', settings, db),
  };
}
