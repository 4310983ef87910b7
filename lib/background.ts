/**
 * The background worker's composition root: builds the stores, the client, the tracker and the services of
 * `lib/worker/` on one {@link Platform} (lib/platform.ts), and hands them to `lib/wire.ts`, which wires
 * browser events to them. Nothing here reads a global: time, timers, the network, IndexedDB and the browser APIs all
 * come from the platform, so that the campaign runs this same code on a simulated one.
 */
import { MAX_HOLD_MS, RequestBudget, type WORKER_REQUESTS_PER_MINUTE } from './api/budget';
import type { Reply, ReplyOf } from './messages';
import { createNotificationAdapter } from './notify/browser';
import { chainNotice } from './notify/chain';
import { type CalmNotifier, createNotificationPipeline } from './notify/pipeline';
import { createShownMarks } from './notify/shown-marks';
import { CLIPBOARD_PERMISSION } from './permissions';
import type { Platform } from './platform';
import {
  createAsideRecords,
  createCalmStateStore,
  createReceiptCache,
  createRemovedIntents,
  createServiceOffsetStore,
  createSettingsStore,
  createTrackerStateStore,
  createWatchedCheckpoints,
  DB_NAMES,
  type IntentStore,
  type SettingsStore,
} from './store';
import { createCheckedIntentStore, createCheckedSettingsStore } from './store/checked';
import { storesOn } from './store/idb';
import { createOutbox, OUTBOX_DB } from './store/outbox';
import { createSyncedSettingsStore } from './store/sync';
import { Tracker } from './tracker/engine';
import { fetchObservingDate, ServiceClock } from './tracker/service-clock';
import { pauseLeftMs } from './tracker/tracker-time';
import { createCalmAlarm } from './worker/calm-alarm';
import { createChainVerifierOnPlatform } from './worker/chain-wiring';
import { createChangeBroadcast } from './worker/change-broadcast';
import { createClientCache } from './worker/client-cache';
import { createOffscreenClipboardReader, createPageClipboardReader, type OffscreenApi } from './worker/clipboard';
import { createCommandHandler } from './worker/commands';
import { createDispatcher } from './worker/dispatch';
import { createBaselineFinder } from './worker/eta-baseline';
import { ensureMenus, ensureWatchdog, startKeepAlive } from './worker/lifetime';
import { createMessageHandlers } from './worker/message-handlers';
import { createNotificationRouting, type NotificationRouting } from './worker/notification-routing';
import { openReceiptPage, welcomeOnInstall } from './worker/pages';
import { createSelectionLookup, type SelectionLookup } from './worker/selection';
import { createServiceOffsetPublisher } from './worker/service-offset';
import { createToolbarBadge } from './worker/toolbar-badge';
import { createTrackIntent } from './worker/track';
import { createTrackList } from './worker/track-many';
import { createWatchedCheck } from './worker/watched';

/** Everything the background entrypoint wires. */
export interface BackgroundServices extends SelectionLookup, NotificationRouting {
  tracker: Tracker;
  intents: IntentStore;
  settings: SettingsStore;
  /** The notification pipeline: mute, snooze, quiet hours, progress notifications, the outbox. */
  calm: CalmNotifier;
  /** Answers a message from an extension page; undefined (no answer) for anything that is not a valid request. */
  handleMessage(message: unknown): Promise<Reply> | undefined;
  /** Ensures the watchdog alarm exists. */
  ensureWatchdog(): Promise<void>;
  /** Creates the context-menu item (on install and update). */
  ensureMenus(): Promise<void>;
  /** Tracks new intents of the watched addresses (throttled to once a minute unless `force`); resolves with how many. */
  checkWatched(force?: boolean): Promise<number>;
  /** Updates the toolbar badge now. */
  updateBadge(): Promise<void>;
  /** Starts the keep-alive timer; returns a function that stops it. */
  startKeepAlive(): () => void;
  /** Runs a keyboard command (`commands.onCommand`); resolves with its outcome, undefined for an unknown one. */
  runCommand(command: string): Promise<ReplyOf<'track-text'> | undefined>;
  /** `runtime.onInstalled`: opens the welcome page on a new install only (`reason` 'install'); true when opened. */
  installed(reason: string): Promise<boolean>;
}

/** What a test may give the worker instead of the defaults. */
export interface BackgroundOptions {
  /** The worker's request budget (default: 4 in flight, {@link WORKER_REQUESTS_PER_MINUTE} a minute, on the platform's clock). */
  budget?: RequestBudget;
  /** Firefox's notification semantics and clipboard reader (default: the build's target, `import.meta.env.BROWSER`). */
  firefox?: boolean;
}

/**
 * Builds the background services on `platform`: every IndexedDB database is opened through `platform.indexedDB`,
 * every request goes through `platform.fetch`, every timer through `platform.timers` or `platform.clock.sleep`, and
 * the time is `platform.clock`'s (wall clock for what is stored and compared with the service, monotonic for durations).
 */
export function createBackground(platform: Platform, options: BackgroundOptions = {}): BackgroundServices {
  const { browser, clock, timers } = platform;
  const open = storesOn(platform.indexedDB);
  const settingsDb = open(DB_NAMES.settings, 'settings');
  const intentsDb = open(DB_NAMES.intents, 'intents');
  const now = () => clock.now();
  const timer = (fn: () => void, ms: number) => void timers.setTimeout(fn, ms);
  // Records and settings are parsed and migrated on load; what cannot be read is set aside (lib/store/records.ts).
  const intents = createCheckedIntentStore(createAsideRecords(settingsDb), intentsDb, settingsDb, now);
  const settings = createSyncedSettingsStore(
    createCheckedSettingsStore(createSettingsStore(settingsDb), settingsDb),
    browser.storage?.sync,
    clock,
  );
  // The service's time, from its answers' Date headers: every comparison with a server timestamp uses it.
  const serviceClock = new ServiceClock(clock);
  // ... and the popup's: it reads the estimate to show "ago" and ETAs on the service's time.
  const publishOffset = createServiceOffsetPublisher(serviceClock, createServiceOffsetStore(settingsDb));
  // Every request of the worker takes its place in this one budget (lib/api/budget.ts). Only the saved service's
  // answers feed the service clock: Test connection of another URL never moves it.
  const baseFetch: typeof fetch = (input, init) => platform.fetch(input, init);
  const clients = createClientCache(settings, {
    fetch: baseFetch,
    configuredFetch: fetchObservingDate(baseFetch, serviceClock, () => void publishOffset()),
    serviceNow: () => serviceClock.now(),
    budget: options.budget ?? new RequestBudget({ clock }),
    timers,
    now,
  });
  const firefox = options.firefox ?? import.meta.env?.BROWSER === 'firefox';
  // Every notification about an intent: one decision, one outbox in IndexedDB, one adapter over browser.notifications.
  const calm = createNotificationPipeline({
    adapter: createNotificationAdapter(browser, { iconUrl: '/icon/128.png', firefox }),
    outbox: createOutbox(open(OUTBOX_DB, 'jobs')),
    state: createCalmStateStore(settingsDb),
    settings: async () => (await settings.get())?.notify,
    intent: async (intentId) => (await tracker.list()).find((t) => t.intentId === intentId),
    scheduleRelease: createCalmAlarm(browser),
    monotonic: () => clock.monotonic(),
    onChange: () => changed(''),
    // "Shown" also outside IndexedDB: a notification the user closed is not shown again when the outbox could not say so.
    shownMarks: createShownMarks([browser.storage?.session, browser.storage?.local]),
    now,
    groupTimer: timer,
    retryTimer: timer,
  });
  // What a user's action did (the context menu, the shortcut): an outbox job like every notification (never lost).
  const inform = (message: string) => calm.inform(message).catch(() => undefined);
  // The badge reads the tracker's own copy: it is current, IndexedDB may lag behind it.
  const badge = createToolbarBadge(browser, async () => ({ intents: await tracker.list(), state: tracker.state }), timers);
  const broadcast = createChangeBroadcast(
    (message) => browser.runtime.sendMessage(message),
    () => clock.monotonic(),
    timers,
  );
  const changed = (intentId: string) => {
    broadcast.schedule(intentId);
    badge.schedule();
    // A newly tracked intent (or one that just became known) gets its ETA baseline once.
    if (intentId) void findBaseline(intentId);
    if (intentId) void calm.progress(intentId).catch(() => {});
    if (intentId) void chain.changed(intentId);
  };
  // A 429 holds every request to the service that sent it; the saved service's hold is kept in the tracker's state
  // for a restarted worker (a 429 to Test connection of another URL or key pauses nothing else).
  clients.budget.onHoldOff = (ms, scope) =>
    void clients
      .scope()
      .then((saved) => (saved === scope ? tracker.holdOff(ms) : undefined))
      .catch(() => {});
  const tracker = new Tracker({
    store: intents,
    stateStore: createTrackerStateStore(settingsDb),
    clock,
    ...(platform.random ? { random: platform.random } : {}),
    serviceClock,
    notifier: calm,
    transport: () => clients.current('tracker'),
    onChange: changed,
    onStateChange: (state) => {
      // The service's Retry-After holds every request to it, also after a restart (I5); never longer than it was set.
      const left = pauseLeftMs(state, clock.now(), MAX_HOLD_MS);
      if (left > 0)
        void clients.scope().then(
          (scope) => scope !== undefined && clients.budget.holdOff(left, scope),
          () => {},
        );
      changed('');
    },
  });

  // On-chain verification (docs/chain.md): each receipt the tracker records is checked on the chains the user turned on
  // (`changed` above also forgets a removed intent); a disagreement is a notification of its own, told once.
  const chain = createChainVerifierOnPlatform(platform, {
    intents: () => tracker.list(),
    notify: (intentId, disagreement, text, receipt) => calm.showChain(chainNotice(intentId, disagreement, text, receipt)),
  });
  void chain.resume();

  const findBaseline = createBaselineFinder({ client: () => clients.current('background'), tracker });
  const removed = createRemovedIntents(settingsDb);
  const track = createTrackIntent(tracker, removed);
  const trackList = createTrackList(tracker, removed);
  const selection = createSelectionLookup({
    // The context menu and the omnibox are the user's own look-ups.
    client: () => clients.current('user'),
    track,
    inform,
    openReceipt: (intentId) => openReceiptPage(browser, intentId),
  });
  const checkWatched = createWatchedCheck({
    settings,
    client: () => clients.current('background'),
    checkpoints: createWatchedCheckpoints(settingsDb),
    track,
    removed,
    now,
    serviceNow: () => serviceClock.now(),
    serviceLatest: () => serviceClock.latestIfDecidable(),
    monotonic: () => clock.monotonic(),
  });
  const handleMessage = createDispatcher(
    createMessageHandlers({
      tracker,
      track,
      trackList,
      clients,
      receipts: createReceiptCache(open(DB_NAMES.receipts, 'receipts')),
      removed,
      trackSelection: selection.trackSelection,
      updateBadge: badge.update,
      checkWatched,
      calm,
      now,
    }),
  );

  const runCommand = createCommandHandler({
    canReadClipboard: () => browser.permissions.contains(CLIPBOARD_PERMISSION),
    readClipboard: firefox
      ? createPageClipboardReader()
      : createOffscreenClipboardReader(browser, (globalThis as { chrome?: { offscreen?: OffscreenApi } }).chrome?.offscreen),
    trackSelection: selection.trackSelection,
    inform,
  });

  return {
    tracker,
    intents,
    settings,
    calm,
    handleMessage,
    ensureWatchdog: () => ensureWatchdog(browser),
    ensureMenus: () => ensureMenus(browser),
    ...selection,
    ...createNotificationRouting(browser, intents, (notificationId) => calm.explorerLinkOf(notificationId)),
    checkWatched,
    updateBadge: badge.update,
    // Kept alive while any request of the worker is in flight or waits for its place (a watched check, a look-up).
    startKeepAlive: () => startKeepAlive(browser, () => tracker.busy || clients.budget.inFlight > 0 || clients.budget.waiting > 0, timers),
    runCommand,
    installed: (reason) => welcomeOnInstall(browser, reason).catch(() => false),
  };
}
