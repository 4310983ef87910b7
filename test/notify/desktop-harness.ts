/**
 * One worker's notification path over a {@link FakeDesktop}: the tracker's delivery (the real `Delivery` over a
 * fake-indexeddb intent store), the calm notifier and the browser notifier, the release alarm and the click
 * routing, as `lib/background.ts` wires them. A new `worker()` on the same `shared` stores is a restarted worker.
 */
import { createStore } from 'idb-keyval';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { createNotificationAdapter, intentIdsOfNotification, PROGRESS } from '@/lib/notify/browser';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import type { ShownMarks } from '@/lib/notify/shown-marks';
import {
  type CalmState,
  createCalmStateStore,
  DEFAULT_NOTIFY,
  type IntentStore,
  type NotifySettings,
  type TrackedIntent,
} from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import { Delivery } from '@/lib/tracker/delivery';
import { IntentMirror } from '@/lib/tracker/mirror';
import { entryRecord } from '@/lib/tracker/track-many';
import { createCalmAlarm } from '@/lib/worker/calm-alarm';
import { createNotificationRouting } from '@/lib/worker/notification-routing';
import type { ListTracker } from '@/lib/worker/track-many';
import { freshStore, settle, VirtualClock } from '../tracker/fakes';
import type { FakeDesktop } from './fake-desktop';

export const id = (n: number) => `0x${String(n).padStart(64, '0')}`;
/** Local wall-clock time on 22 and 23 November 2026. */
export const at = (day: number, h: number, m = 0) => new Date(2026, 10, day, h, m).getTime();
export type Legs = [string?, string?, string?];
const HASH = `0x${'ab'.repeat(32)}`;

export function receiptOf(n: number, status: string, [deposit, origin, destination]: Legs): IntentReceipt {
  const leg = (s: string | undefined, chainId: number) => (s ? { chainId, status: s, txnHash: HASH } : undefined);
  return {
    intentId: id(n),
    status,
    originChainId: 42161,
    destinationChainId: 8453,
    ...(deposit ? { depositTransaction: leg(deposit, 42161) } : {}),
    ...(origin ? { originTransaction: leg(origin, 42161) } : {}),
    ...(destination ? { destinationTransaction: leg(destination, 8453) } : {}),
    summary: { originTokenAmount: '1000000', originTokenMetadata: { symbol: 'USDC', decimals: 6 } },
  } as IntentReceipt;
}

/** The stores that outlive a worker, and a switch that makes IndexedDB refuse intent writes (disk full). */
export interface Shared {
  intents: IntentStore;
  calmDb: string;
  outboxDb: string;
  diskFull: boolean;
}

let dbs = 0;
export function sharedStores(): Shared {
  dbs++;
  const real = freshStore();
  const shared: Shared = {
    calmDb: `desk-calm-${dbs}`,
    outboxDb: `desk-outbox-${dbs}`,
    diskFull: false,
    intents: {
      ...real,
      get: (k) => real.get(k),
      list: () => real.list(),
      remove: (k) => real.remove(k),
      put: (t) => (shared.diskFull ? Promise.reject(new DOMException('disk full', 'QuotaExceededError')) : real.put(t)),
      update: (k, fn) => (shared.diskFull ? Promise.reject(new DOMException('disk full', 'QuotaExceededError')) : real.update(k, fn)),
      updateMany: (ks, fn) =>
        shared.diskFull ? Promise.reject(new DOMException('disk full', 'QuotaExceededError')) : real.updateMany(ks, fn),
    },
  };
  return shared;
}

/**
 * The tracker's answer (`PipelineDeps.intent`) for a pipeline built without a tracker: every intent asked about is
 * tracked, finished and told; none was removed. A test of what a removal does gives the pipeline a mirror
 * ({@link worker}).
 */
export const trackedStandIn = async (intentId: string): Promise<TrackedIntent> => ({
  intentId,
  addedAt: 0,
  lastStates: [],
  phase: 'final',
  notification: 'shown',
});

/**
 * A calm state as the version before the outbox wrote it (`state`: notifications held in it, progress marks), each held
 * intent in the intent store as that version left it (finished, handed to the notifier) unless the store has it.
 */
export async function legacyCalm(shared: Shared, state: Partial<CalmState>): Promise<void> {
  for (const h of state.held ?? [])
    if (!(await shared.intents.get(h.intentId)))
      await shared.intents.put({
        intentId: h.intentId,
        addedAt: h.heldAt,
        lastStates: [],
        phase: 'final',
        notification: 'shown',
        status: h.status as TrackedIntent['status'],
      });
  await createCalmStateStore(createStore(shared.calmDb, 'settings')).set({ muted: [], held: [], progress: {}, ...state });
}

/** Words of an intent's final notification, as the user reads them. */
/**
 * A fresh start for one test of the pipeline: a virtual clock at 22 Nov 2026 12:00 (local time), every notification
 * setting at its default, empty stores. `beforeEach(() => ({ clock, settings, shared } = freshStart()))`.
 */
export function freshStart(): { clock: VirtualClock; settings: NotifySettings; shared: Shared } {
  const clock = new VirtualClock();
  clock.t = at(22, 12);
  return { clock, settings: { ...DEFAULT_NOTIFY }, shared: sharedStores() };
}

export const finalTitle = (n: number, outcome = 'succeeded') => `Intent ${outcome} · 0x0000…${String(n).padStart(4, '0')}`;

/** Builds one worker life on `desktop`. */
export function worker(
  shared: Shared,
  desktop: FakeDesktop,
  clock: VirtualClock,
  settings: () => NotifySettings,
  options: {
    groupWindowMs?: number;
    groupTimer?: (fn: () => void, ms: number) => void;
    settingsFail?: () => boolean;
    /** IndexedDB refuses this outbox write (asked before each `update`). */
    outboxWriteFails?: () => boolean;
    /** "Shown" marks outside IndexedDB (as lib/background.ts gives them); none by default. */
    shownMarks?: ShownMarks;
  } = {},
) {
  const browser = desktop.worker();
  const firefox = desktop.kind === 'firefox';
  const mirror = new IntentMirror(shared.intents);
  const calm = createNotificationPipeline({
    adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox }),
    outbox: ((real) => ({
      all: () => real.all(),
      update: (fn: Parameters<typeof real.update>[0]) =>
        options.outboxWriteFails?.() ? Promise.reject(new DOMException('outbox write refused', 'QuotaExceededError')) : real.update(fn),
    }))(createOutbox(createStore(shared.outboxDb, 'jobs'))),
    state: createCalmStateStore(createStore(shared.calmDb, 'settings')),
    settings: async () => {
      if (options.settingsFail?.()) throw new Error('IndexedDB closed');
      return settings();
    },
    // As the tracker's `get`: after the mirror's load, and the outcome of a removal awaiting the store.
    intent: async (intentId) => {
      await mirror.load();
      await mirror.removalSettled(intentId);
      return mirror.get(intentId);
    },
    scheduleRelease: createCalmAlarm(browser as never),
    now: () => clock.now(),
    monotonic: () => clock.monotonic(),
    groupWindowMs: options.groupWindowMs ?? 100,
    // A dead worker's timers die with it, whichever clock they run on. The grouping flush runs on real time (short)
    // unless the test gives it the virtual clock ({@link groupOnClock}); retries on virtual time.
    groupTimer: (fn, ms) => (options.groupTimer ?? ((f, t) => void setTimeout(f, t)))(() => browser.dead || fn(), ms),
    retryTimer: (fn, ms) => void clock.sleep(ms).then(() => browser.dead || fn()),
    ...(options.shownMarks ? { shownMarks: options.shownMarks } : {}),
  });
  const delivery = new Delivery(mirror, calm, clock);
  // As lib/background.ts wires it: the link a notification was shown with, and the click's record that it was shown.
  const routing = createNotificationRouting(
    browser as never,
    shared.intents,
    (notificationId) => calm.explorerLinkOf(notificationId),
    (notificationId) => calm.clicked(notificationId),
  );

  /** The tracker's part: writes a record (a final one as `pending`). */
  const record = async (n: number, status: string, legs: Legs = ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']) => {
    const final = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'].includes(status);
    await mirror.write(id(n), (t) => ({
      intentId: id(n),
      addedAt: t?.addedAt ?? clock.now(),
      lastStates: [],
      phase: final ? 'final' : 'tracking',
      notification: final ? 'pending' : 'none',
      status: status as TrackedIntent['status'],
      receipt: receiptOf(n, status, legs),
    }));
  };
  /** An intent reaches a final status: recorded `pending`, then delivered (as the engine does). */
  const finish = async (n: number, status = 'SUCCEEDED') => {
    await record(n, status);
    await delivery.deliver(id(n));
  };
  /** What `entrypoints/background.ts` does on every start and watchdog alarm: the pending deliveries and the release. */
  const wake = async () => {
    await mirror.load();
    await calm.resume().catch(() => {});
    await Promise.all(
      mirror
        .values()
        .filter((t) => t.notification === 'pending')
        .map((t) => delivery.deliver(t.intentId)),
    );
    await settle();
  };
  return { browser, mirror, calm, delivery, routing, record, finish, wake, load: () => mirror.load() };
}

/** How many notifications the user saw that named intent `n`: its own, a group, a stuck or chain warning (progress left out). */
export const toldOf = (desktop: FakeDesktop, n: number) =>
  desktop.log.filter((a) => !a.id.startsWith(PROGRESS) && intentIdsOfNotification(a.id).includes(id(n))).length;

/**
 * The tracker's list calls (`ListTracker`, lib/worker/track-many.ts) over a harness worker's mirror, records made as the
 * engine makes them (`entryRecord`); `get` as `Tracker.get` (after the load and a removal still awaiting the store).
 */
export function trackerOver(mirror: IntentMirror, clock: VirtualClock): ListTracker {
  return {
    async trackMany(entries) {
      await mirror.load();
      for (const e of entries) mirror.revive(e.intentId);
      const added = new Set<string>();
      const byId = new Map(entries.map((e) => [e.intentId, e]));
      await mirror.writeMany([...byId.keys()], (intentId, current) => {
        if (!current) added.add(intentId);
        return entryRecord(current, byId.get(intentId)!, clock.now());
      });
      return entries.map((e) => ({ added: added.has(e.intentId), intent: mirror.get(e.intentId)! }));
    },
    async list() {
      await mirror.load();
      return mirror.values();
    },
    remove: (intentId) => mirror.remove(intentId),
    async get(intentId) {
      await mirror.load();
      await mirror.removalSettled(intentId);
      return mirror.get(intentId);
    },
  };
}

/**
 * A grouping flush on `clock` (the `groupTimer` option of {@link worker}) rather than the harness's real 100 ms: a
 * test that reads how intents finishing together were grouped then moves the clock itself ({@link finishTogether}),
 * and slow writes on a loaded machine no longer split the group.
 */
export const groupOnClock =
  (clock: VirtualClock) =>
  (fn: () => void, ms: number): void =>
    void clock.sleep(ms).then(fn);

/** Finishes intents `ns` together on a worker made with {@link groupOnClock}, then moves `clock` past the window. */
export async function finishTogether(w: { finish(n: number): Promise<void> }, clock: VirtualClock, ns: number[], windowMs = 100) {
  const finishing = Promise.all(ns.map((n) => w.finish(n)));
  await settle();
  await clock.advance(windowMs);
  await finishing;
  await settle();
}

/** Wakes `w` every 30 s of `clock` (the watchdog alarm) `times` times. */
export async function watchdog(clock: VirtualClock, w: { wake(): Promise<void> }, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    clock.t += 30_000;
    await w.wake();
  }
}

/** The end of the receipt page's URL for intent `n` (what a click on its notification opens). */
export const receiptTab = (n: number) => `/popup.html#intent=${encodeURIComponent(id(n))}`;
