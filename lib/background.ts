/**
 * The background worker's composition root: builds the stores, the client, the tracker and the services of
 * `lib/worker/`, and hands them to `entrypoints/background.ts`, which only wires browser events to them.
 */
import type { browser as browserApi } from 'wxt/browser';
import type { Reply } from './messages';
import { createBrowserNotifier } from './notify/browser';
import { type CalmNotifier, createCalmNotifier } from './notify/calm-notifier';
import { createInformer } from './notify/info';
import { createNotificationMarks } from './notify/marks';
import { CLIPBOARD_PERMISSION } from './permissions';
import {
  createCalmStateStore,
  createIntentStore,
  createReceiptCache,
  createSettingsStore,
  createTrackerStateStore,
  createWatchedCheckpoints,
  type IntentStore,
  type SettingsStore,
} from './store';
import { createSyncedSettingsStore } from './store/sync';
import { realClock } from './tracker/clock';
import { Tracker } from './tracker/engine';
import { fetchObservingDate, ServiceClock } from './tracker/service-clock';
import { DEFAULT_TUNING } from './tracker/types';
import { createCalmAlarm } from './worker/calm-alarm';
import { createChangeBroadcast } from './worker/change-broadcast';
import { createClientCache, limitedFetch } from './worker/client-cache';
import { createOffscreenClipboardReader, createPageClipboardReader, type OffscreenApi } from './worker/clipboard';
import { createCommandHandler } from './worker/commands';
import { createDispatcher } from './worker/dispatch';
import { createBaselineFinder } from './worker/eta-baseline';
import { ensureMenus, ensureWatchdog, startKeepAlive } from './worker/lifetime';
import { createMessageHandlers } from './worker/message-handlers';
import { createNotificationRouting, type NotificationRouting } from './worker/notification-routing';
import { openReceiptPage } from './worker/pages';
import { createSelectionLookup, type SelectionLookup } from './worker/selection';
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
  /** Mute, snooze, quiet hours and progress notifications. */
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
  runCommand(command: string): Promise<Reply | undefined>;
}

/** Builds the background services on `browser`. */
export function createBackground(browser: Browser): BackgroundServices {
  const intents = createIntentStore();
  const settings = createSyncedSettingsStore(createSettingsStore(), browser.storage?.sync);
  // The service's time, from its answers' Date headers: every comparison with a server timestamp uses it.
  const serviceClock = new ServiceClock(() => Date.now());
  const clients = createClientCache(settings, fetchObservingDate(limitedFetch(DEFAULT_TUNING.maxConcurrent), serviceClock));
  const inform = createInformer(browser);

  const firefox = import.meta.env?.BROWSER === 'firefox';
  const browserNotifier = createBrowserNotifier(browser, {
    iconUrl: '/icon/128.png',
    firefox,
    // Firefox's notifications.getAll() forgets what left the screen: "already shown?" is answered from marks there.
    ...(firefox ? { marks: createNotificationMarks() } : {}),
    settings: async () => (await settings.get())?.notify,
  });
  const calm = createCalmNotifier({
    inner: browserNotifier,
    state: createCalmStateStore(),
    settings: async () => (await settings.get())?.notify,
    intent: async (intentId) => (await tracker.list()).find((t) => t.intentId === intentId),
    scheduleRelease: createCalmAlarm(browser),
    onChange: () => changed(''),
  });
  // The badge reads the tracker's own copy: it is current, IndexedDB may lag behind it.
  const badge = createToolbarBadge(browser, async () => ({ intents: await tracker.list(), state: tracker.state }));
  const broadcast = createChangeBroadcast((message) => browser.runtime.sendMessage(message));
  const changed = (intentId: string) => {
    broadcast.schedule(intentId);
    badge.schedule();
    // A newly tracked intent (or one that just became known) gets its ETA baseline once.
    if (intentId) void findBaseline(intentId);
    if (intentId) void calm.progress(intentId).catch(() => {});
  };
  const tracker = new Tracker({
    store: intents,
    stateStore: createTrackerStateStore(),
    clock: realClock,
    serviceClock,
    notifier: calm,
    transport: clients.current,
    onChange: changed,
    onStateChange: () => changed(''),
  });

  const findBaseline = createBaselineFinder({ client: clients.current, tracker });
  const track = createTrackIntent(tracker);
  const selection = createSelectionLookup({
    client: clients.current,
    track,
    inform,
    openReceipt: (intentId) => openReceiptPage(browser, intentId),
  });
  const checkWatched = createWatchedCheck({
    settings,
    client: clients.current,
    checkpoints: createWatchedCheckpoints(),
    track,
    serviceNow: () => serviceClock.now(),
  });
  const handleMessage = createDispatcher(
    createMessageHandlers({
      tracker,
      track,
      clients,
      receipts: createReceiptCache(),
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
    ...createNotificationRouting(browser, intents),
    checkWatched,
    updateBadge: badge.update,
    startKeepAlive: () => startKeepAlive(browser, () => tracker.busy),
    runCommand,
  };
}
