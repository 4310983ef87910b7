/**
 * The background worker's composition root: builds the stores, the client, the tracker and the services of
 * `lib/worker/` on one {@link Platform} (lib/platform.ts), group by group (lib/worker/compose.ts,
 * compose-tracking.ts, compose-actions.ts), and hands them to `lib/wire.ts`, which wires browser events to them.
 * Nothing here reads a global: time, timers, the network, IndexedDB and the browser APIs all come from the platform,
 * so that the campaign runs this same code on a simulated one.
 */
import type { RequestBudget, WORKER_REQUESTS_PER_MINUTE } from './api/budget';
import type { Reply, ReplyOf } from './messages';
import type { CalmNotifier } from './notify/pipeline';
import type { Platform } from './platform';
import type { IntentStore, SettingsStore } from './store';
import type { Tracker } from './tracker/engine';
import { createServiceAccess, openWorkerStores } from './worker/compose';
import { createUserActions } from './worker/compose-actions';
import { createTrackingCore } from './worker/compose-tracking';
import { ensureMenus, ensureWatchdog, startKeepAlive } from './worker/lifetime';
import { createNotificationRouting, type NotificationRouting } from './worker/notification-routing';
import { welcomeOnInstall } from './worker/pages';
import type { SelectionLookup } from './worker/selection';

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
  /** The worker's request budget (default: 4 in flight and one more for the user's look-ups, {@link WORKER_REQUESTS_PER_MINUTE} a minute, on the platform's clock). */
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
  const now = () => clock.now();
  const stores = openWorkerStores(platform, now);
  const service = createServiceAccess(platform, stores, options.budget, now);
  const { clients } = service;
  const firefox = options.firefox ?? import.meta.env?.BROWSER === 'firefox';
  const core = createTrackingCore(platform, stores, service, firefox);
  const { tracker, calm, badge } = core;
  const { selection, checkWatched, handleMessage, runCommand } = createUserActions(platform, stores, service, core, { firefox, now });

  return {
    tracker,
    intents: stores.intents,
    settings: stores.settings,
    calm,
    handleMessage,
    ensureWatchdog: () => ensureWatchdog(browser),
    ensureMenus: () => ensureMenus(browser),
    ...selection,
    ...createNotificationRouting(
      browser,
      stores.intents,
      (notificationId) => calm.explorerLinkOf(notificationId),
      (notificationId) => calm.clicked(notificationId),
    ),
    checkWatched,
    updateBadge: badge.update,
    // Kept alive while any request of the worker is in flight or waits for its place (a watched check, a look-up).
    startKeepAlive: () => startKeepAlive(browser, () => tracker.busy || clients.budget.inFlight > 0 || clients.budget.waiting > 0, timers),
    runCommand,
    installed: (reason) => welcomeOnInstall(browser, reason).catch(() => false),
  };
}
