/**
 * The background worker's first service groups, built by lib/background.ts in this order on one {@link Platform}: the
 * stores ({@link openWorkerStores}), the way to the service ({@link createServiceAccess}) and the notification
 * pipeline ({@link createWorkerCalm}). Nothing here reads a global: IndexedDB, fetch, timers and time come from the
 * platform.
 */
import type { UseStore } from 'idb-keyval';
import { RequestBudget } from '../api/budget';
import { createNotificationAdapter } from '../notify/browser';
import { type CalmNotifier, createNotificationPipeline } from '../notify/pipeline';
import { createShownMarks } from '../notify/shown-marks';
import type { Platform } from '../platform';
import {
  createAsideRecords,
  createCalmStateStore,
  createServiceOffsetStore,
  createSettingsStore,
  DB_NAMES,
  type IntentStore,
  type SettingsStore,
  type TrackedIntent,
} from '../store';
import { createCheckedIntentStore, createCheckedSettingsStore } from '../store/checked';
import { type StoreOpener, storesOn } from '../store/idb';
import { createOutbox, OUTBOX_DB } from '../store/outbox';
import { createSyncedSettingsStore } from '../store/sync';
import { keepSyncedChanges } from '../store/sync-observe';
import { createSeenMemory, createSyncSeenStore } from '../store/sync-seen';
import { fetchObservingDate, ServiceClock } from '../tracker/service-clock';
import { createCalmAlarm } from './calm-alarm';
import { type ClientCache, createClientCache } from './client-cache';
import { createServiceOffsetPublisher } from './service-offset';

/** The worker's stores: the opener of its IndexedDB databases, the settings database, intents and settings. */
export interface WorkerStores {
  /** Opens a database's object store through the platform's IndexedDB. */
  open: StoreOpener;
  /** The settings database (the small records kept beside the settings live in it too). */
  settingsDb: UseStore;
  /** The tracked intents, parsed and migrated on load. */
  intents: IntentStore;
  /** The settings, parsed, migrated and synced (storage.sync). */
  settings: SettingsStore;
}

/**
 * Opens the worker's stores on `platform.indexedDB`. Records and settings are parsed and migrated on load; what
 * cannot be read is set aside (lib/store/records.ts). The last well-formed value of each synced setting is kept beside
 * them, at every read and as it arrives by `storage.onChanged` (lib/store/sync-seen.ts). `now`: wall-clock ms.
 */
export function openWorkerStores(platform: Platform, now: () => number): WorkerStores {
  const open = storesOn(platform.indexedDB);
  const settingsDb = open(DB_NAMES.settings, 'settings');
  const intentsDb = open(DB_NAMES.intents, 'intents');
  const intents = createCheckedIntentStore(createAsideRecords(settingsDb), intentsDb, settingsDb, now);
  const sync = platform.browser.storage?.sync;
  const seen = createSeenMemory(createSyncSeenStore(settingsDb));
  const settings = createSyncedSettingsStore(
    createCheckedSettingsStore(createSettingsStore(settingsDb), settingsDb),
    sync,
    platform.clock,
    undefined,
    seen,
  );
  // A synced value from another device is kept as it arrives, not only at the next settings read.
  if (sync) {
    const keep = keepSyncedChanges(sync, seen);
    platform.browser.storage.onChanged?.addListener((changes, area) => void keep(changes, area));
  }
  return { open, settingsDb, intents, settings };
}

/** The way to the service: its clock (from its answers' `Date` headers) and the worker's clients. */
export interface ServiceAccess {
  /** The service's time: every comparison with a server timestamp uses it. */
  serviceClock: ServiceClock;
  /** The clients of the saved service (and of a URL under test), all in one request budget. */
  clients: ClientCache;
}

/**
 * Builds the service clock, the publisher of its offset for the pages, and the client cache on `platform.fetch`.
 * `budget`: the worker's request budget (default: a new one on the platform's clock). `now`: wall-clock ms.
 */
export function createServiceAccess(
  platform: Platform,
  stores: Pick<WorkerStores, 'settingsDb' | 'settings'>,
  budget: RequestBudget | undefined,
  now: () => number,
): ServiceAccess {
  const { clock, timers } = platform;
  // The service's time, from its answers' Date headers: every comparison with a server timestamp uses it.
  const serviceClock = new ServiceClock(clock);
  // ... and the popup's: it reads the estimate to show "ago" and ETAs on the service's time.
  const publishOffset = createServiceOffsetPublisher(serviceClock, createServiceOffsetStore(stores.settingsDb));
  // Every request of the worker takes its place in this one budget (lib/api/budget.ts). Only the saved service's
  // answers feed the service clock: Test connection of another URL never moves it.
  const baseFetch: typeof fetch = (input, init) => platform.fetch(input, init);
  const clients = createClientCache(stores.settings, {
    fetch: baseFetch,
    configuredFetch: fetchObservingDate(baseFetch, serviceClock, () => void publishOffset()),
    serviceNow: () => serviceClock.now(),
    budget: budget ?? new RequestBudget({ clock }),
    timers,
    now,
  });
  return { serviceClock, clients };
}

/** What the notification pipeline asks of the worker, given late (the tracker is built after the pipeline). */
export interface WorkerCalmHooks {
  /** The tracked intent `intentId` as the tracker holds it. */
  intent(intentId: string): Promise<TrackedIntent | undefined>;
  /** Something the pages show changed (the calm state). */
  changed(): void;
}

/**
 * The notification pipeline on `platform`: one decision, one outbox in IndexedDB, one adapter over
 * browser.notifications (Firefox's semantics when `firefox`).
 */
export function createWorkerCalm(
  platform: Platform,
  stores: Pick<WorkerStores, 'open' | 'settingsDb' | 'settings'>,
  firefox: boolean,
  hooks: WorkerCalmHooks,
): CalmNotifier {
  const { browser, clock, timers } = platform;
  const timer = (fn: () => void, ms: number) => void timers.setTimeout(fn, ms);
  return createNotificationPipeline({
    adapter: createNotificationAdapter(browser, { iconUrl: '/icon/128.png', firefox }),
    outbox: createOutbox(stores.open(OUTBOX_DB, 'jobs')),
    state: createCalmStateStore(stores.settingsDb),
    settings: async () => (await stores.settings.get())?.notify,
    intent: (intentId) => hooks.intent(intentId),
    scheduleRelease: createCalmAlarm(browser),
    monotonic: () => clock.monotonic(),
    onChange: () => hooks.changed(),
    // "Shown" also outside IndexedDB: a notification the user closed is not shown again when the outbox could not say so.
    shownMarks: createShownMarks([browser.storage?.session, browser.storage?.local]),
    now: () => clock.now(),
    groupTimer: timer,
    retryTimer: timer,
  });
}
