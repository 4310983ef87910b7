/**
 * The background worker's composition root: builds the stores, the client, the tracker and the services of
 * `lib/worker/`, and hands them to `entrypoints/background.ts`, which only wires browser events to them.
 */
import type { browser as browserApi } from 'wxt/browser';
import type { RequestBudget, WORKER_REQUESTS_PER_MINUTE } from './api/budget';
import type { Reply, ReplyOf } from './messages';
import { createNotificationAdapter } from './notify/browser';
import { chainNotice } from './notify/chain';
import { type CalmNotifier, createNotificationPipeline } from './notify/pipeline';
import { createShownMarks } from './notify/shown-marks';
import { CLIPBOARD_PERMISSION } from './permissions';
import { realPlatform } from './platform';
import {
  createAsideRecords,
  createCalmStateStore,
  createReceiptCache,
  createRemovedIntents,
  createServiceOffsetStore,
  createSettingsStore,
  createTrackerStateStore,
  createWatchedCheckpoints,
  type IntentStore,
  type SettingsStore,
} from './store';
import { createCheckedIntentStore, createCheckedSettingsStore } from './store/checked';
import { createOutbox } from './store/outbox';
import { createSyncedSettingsStore } from './store/sync';
import { realClock } from './tracker/clock';
import { Tracker } from './tracker/engine';
import { fetchObservingDate, ServiceClock } from './tracker/service-clock';
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
import { createWatchedCheck } from './worker/watched';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

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
  /** The worker's request budget (default: 4 in flight, {@link WORKER_REQUESTS_PER_MINUTE} a minute). */
  budget?: RequestBudget;
}

/** Builds the background services on `browser`. */
export function createBackground(browser: Browser, options: BackgroundOptions = {}): BackgroundServices {
  // Records and settings are parsed and migrated on load; what cannot be read is set aside (lib/store/records.ts).
  const intents = createCheckedIntentStore(createAsideRecords());
  const settings = createSyncedSettingsStore(createCheckedSettingsStore(createSettingsStore()), browser.storage?.sync);
  // The service's time, from its answers' Date headers: every comparison with a server timestamp uses it.
  const serviceClock = new ServiceClock(() => Date.now());
  // ... and the popup's: it reads the estimate to show "ago" and ETAs on the service's time.
  const publishOffset = createServiceOffsetPublisher(serviceClock, createServiceOffsetStore());
  // Every request of the worker takes its place in this one budget (lib/api/budget.ts).
  const clients = createClientCache(settings, {
    fetch: fetchObservingDate(
      (input, init) => fetch(input, init),
      serviceClock,
      () => void publishOffset(),
    ),
    ...(options.budget ? { budget: options.budget } : {}),
  });
  const firefox = import.meta.env?.BROWSER === 'firefox';
  // Every notification about an intent: one decision, one outbox in IndexedDB, one adapter over browser.notifications.
  const calm = createNotificationPipeline({
    adapter: createNotificationAdapter(browser, { iconUrl: '/icon/128.png', firefox }),
    outbox: createOutbox(),
    state: createCalmStateStore(),
    settings: async () => (await settings.get())?.notify,
    intent: async (intentId) => (await tracker.list()).find((t) => t.intentId === intentId),
    scheduleRelease: createCalmAlarm(browser),
    onChange: () => changed(''),
    // "Shown" also outside IndexedDB: a notification the user closed is not shown again when the outbox could not say so.
    shownMarks: createShownMarks([browser.storage?.session, browser.storage?.local]),
  });
  // What a user's action did (the context menu, the shortcut): an outbox job like every notification (never lost).
  const inform = (message: string) => calm.inform(message).catch(() => undefined);
  // The badge reads the tracker's own copy: it is current, IndexedDB may lag behind it.
  const badge = createToolbarBadge(browser, async () => ({ intents: await tracker.list(), state: tracker.state }));
  const broadcast = createChangeBroadcast((message) => browser.runtime.sendMessage(message));
  const changed = (intentId: string) => {
    broadcast.schedule(intentId);
    badge.schedule();
    // A newly tracked intent (or one that just became known) gets its ETA baseline once.
    if (intentId) void findBaseline(intentId);
    if (intentId) void calm.progress(intentId).catch(() => {});
    if (intentId) void chain.changed(intentId);
  };
  // A 429 to any request holds the whole worker; the tracker's state keeps the hold for a restarted worker.
  clients.budget.onHoldOff = (ms) => void tracker.holdOff(ms).catch(() => {});
  const tracker = new Tracker({
    store: intents,
    stateStore: createTrackerStateStore(),
    clock: realClock,
    serviceClock,
    notifier: calm,
    transport: () => clients.current('tracker'),
    onChange: changed,
    onStateChange: (state) => {
      // The service's Retry-After holds every request of the worker, also after a restart (I5).
      if (state.pausedUntil !== undefined) clients.budget.holdOff(state.pausedUntil - realClock.now());
      changed('');
    },
  });

  // On-chain verification (docs/chain.md): each receipt the tracker records is checked on the chains the user turned on
  // (`changed` above also forgets a removed intent); a disagreement is a notification of its own, told once.
  const chain = createChainVerifierOnPlatform(realPlatform(browser), {
    intents: () => tracker.list(),
    notify: (intentId, disagreement, text, receipt) => calm.showChain(chainNotice(intentId, disagreement, text, receipt)),
  });
  void chain.resume();

  const findBaseline = createBaselineFinder({ client: () => clients.current('background'), tracker });
  const removed = createRemovedIntents();
  const track = createTrackIntent(tracker, removed);
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
    checkpoints: createWatchedCheckpoints(),
    track,
    removed,
    serviceNow: () => serviceClock.now(),
  });
  const handleMessage = createDispatcher(
    createMessageHandlers({
      tracker,
      track,
      clients,
      receipts: createReceiptCache(),
      removed,
      trackSelection: selection.trackSelection,
      updateBadge: badge.update,
      checkWatched,
      calm,
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
    startKeepAlive: () => startKeepAlive(browser, () => tracker.busy || clients.budget.inFlight > 0 || clients.budget.waiting > 0),
    runCommand,
    installed: (reason) => welcomeOnInstall(browser, reason).catch(() => false),
  };
}
