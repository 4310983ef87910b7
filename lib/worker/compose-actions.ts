/**
 * The background worker's user-facing group, built by lib/background.ts last: tracking by hand (paste, list, the
 * context menu, the omnibox), the watched-address check, the pages' messages and the keyboard commands.
 */
import type { Reply, ReplyOf } from '../messages';
import { CLIPBOARD_PERMISSION } from '../permissions';
import type { Platform } from '../platform';
import { createReceiptCache, createRemovedIntents, createWatchedCheckpoints, DB_NAMES } from '../store';
import { createOffscreenClipboardReader, createPageClipboardReader, type OffscreenApi } from './clipboard';
import { createCommandHandler } from './commands';
import type { ServiceAccess, WorkerStores } from './compose';
import type { TrackingCore } from './compose-tracking';
import { createDispatcher } from './dispatch';
import { createMessageHandlers } from './message-handlers';
import { openReceiptPage } from './pages';
import { createSelectionLookup, type SelectionLookup } from './selection';
import { createTrackIntent } from './track';
import { createTrackList } from './track-many';
import { createWatchedCheck } from './watched';

/** The user-facing group. */
export interface UserActions {
  /** The context menu's and the omnibox's look-ups. */
  selection: SelectionLookup;
  /** Tracks new intents of the watched addresses (throttled to once a minute unless `force`); resolves with how many. */
  checkWatched: (force?: boolean) => Promise<number>;
  /** Answers a message from an extension page; undefined (no answer) for anything that is not a valid request. */
  handleMessage: (message: unknown) => Promise<Reply> | undefined;
  /** Runs a keyboard command; resolves with its outcome, undefined for an unknown one. */
  runCommand: (command: string) => Promise<ReplyOf<'track-text'> | undefined>;
}

/**
 * Builds the user-facing group on `platform` over the worker's `stores`, `service` and tracking `core`; `firefox`
 * picks the clipboard reader (a page's on Firefox, the offscreen document's on Chrome). `now`: wall-clock ms.
 */
export function createUserActions(
  platform: Platform,
  stores: WorkerStores,
  service: ServiceAccess,
  core: TrackingCore,
  options: { firefox: boolean; now: () => number },
): UserActions {
  const { browser, clock } = platform;
  const { clients, serviceClock } = service;
  const { tracker, calm, badge, inform } = core;
  const { settingsDb, settings } = stores;
  const now = options.now;
  const removed = createRemovedIntents(settingsDb);
  const track = createTrackIntent(tracker, removed, calm);
  const trackList = createTrackList(tracker, removed, calm);
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
    serviceTime: () => serviceClock.settled(),
    monotonic: () => clock.monotonic(),
  });
  const handleMessage = createDispatcher(
    createMessageHandlers({
      tracker,
      track,
      trackList,
      clients,
      receipts: createReceiptCache(stores.open(DB_NAMES.receipts, 'receipts')),
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
    readClipboard: options.firefox
      ? createPageClipboardReader()
      : createOffscreenClipboardReader(browser, (globalThis as { chrome?: { offscreen?: OffscreenApi } }).chrome?.offscreen),
    trackSelection: selection.trackSelection,
    inform,
  });
  return { selection, checkWatched, handleMessage, runCommand };
}
