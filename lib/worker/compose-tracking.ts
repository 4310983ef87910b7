/**
 * The background worker's tracking group, built by lib/background.ts after the stores and the way to the service:
 * the notification pipeline, the tracker, the toolbar badge, the pages' change broadcast, the ETA baselines and the
 * on-chain verifier, and the one `changed` hook that tells each of them what the tracker changed.
 */
import { chainNotice } from '../notify/chain';
import type { CalmNotifier } from '../notify/pipeline';
import type { Platform } from '../platform';
import { createTrackerStateStore } from '../store';
import { Tracker } from '../tracker/engine';
import { createChainVerifierOnPlatform } from './chain-wiring';
import { createChangeBroadcast } from './change-broadcast';
import { createWorkerCalm, type ServiceAccess, type WorkerStores } from './compose';
import { createBaselineFinder } from './eta-baseline';
import { handBackKeptHold, tellTrackerOfHolds } from './hold-keeping';
import { createToolbarBadge, type ToolbarBadge } from './toolbar-badge';

/** The tracking group. */
export interface TrackingCore {
  /** The notification pipeline: mute, snooze, quiet hours, progress notifications, the outbox. */
  calm: CalmNotifier;
  /** Tells the user what an action of theirs did (the context menu, the shortcut), as an outbox job; never rejects. */
  inform: (message: string) => Promise<unknown>;
  badge: ToolbarBadge;
  tracker: Tracker;
}

/**
 * Builds the tracking group on `platform`, with the worker's `stores` and `service`; `firefox` for the notification
 * semantics. Starts the chain verifier's resume of this worker life.
 */
export function createTrackingCore(platform: Platform, stores: WorkerStores, service: ServiceAccess, firefox: boolean): TrackingCore {
  const { browser, clock, timers } = platform;
  const { clients, serviceClock } = service;
  // Every notification about an intent: one decision, one outbox in IndexedDB, one adapter over browser.notifications.
  const calm = createWorkerCalm(platform, stores, firefox, {
    intent: (intentId) => tracker.get(intentId),
    changed: () => changed(''),
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
  /** The hold a previous worker kept, being handed to the budget (set while the tracker loads its state). */
  let restoring: Promise<unknown> = Promise.resolve();
  tellTrackerOfHolds(clients, clock, () => tracker);
  const tracker = new Tracker({
    store: stores.intents,
    stateStore: createTrackerStateStore(stores.settingsDb),
    clock,
    ...(platform.random ? { random: platform.random } : {}),
    serviceClock,
    notifier: calm,
    transport: () => clients.current('tracker'),
    onChange: changed,
    onStateChange: (state) => {
      // The service's Retry-After holds every request to it, also after a restart (I5), never longer than it was set.
      restoring = handBackKeptHold(clients, clock, state) ?? restoring;
      changed('');
    },
  });

  // Nothing is sent, by any lane, before that hold is back in the budget: a watched check or an ETA look-up at start
  // would otherwise go out inside the service's Retry-After. Also when the load fails on the intents (refused, or
  // unanswered at the load's bound: lib/tracker/load-bound.ts): the tracker has restored the kept hold all the same
  // (`onStateChange` above), so the gate waits for it. A state read failing leaves the hold unknown: the gate opens.
  clients.budget.gate(
    tracker.list().then(
      () => restoring,
      () => restoring,
    ),
  );

  // On-chain verification (docs/chain.md): each receipt the tracker records is checked on the chains the user turned on
  // (`changed` above also forgets a removed intent); a disagreement is a notification of its own, told once.
  const chain = createChainVerifierOnPlatform(platform, {
    intents: () => tracker.list(),
    intent: (intentId) => tracker.get(intentId),
    notify: (intentId, disagreement, text, receipt) => calm.showChain(chainNotice(intentId, disagreement, text, receipt)),
  });
  void chain.resume();

  const findBaseline = createBaselineFinder({ client: () => clients.current('background'), tracker, monotonic: () => clock.monotonic() });
  return { calm, inform, badge, tracker };
}
