/**
 * The campaign of the whole worker: random schedules on virtual time of what `lib/background.ts` composes — the
 * tracker, the notification pipeline on a fake desktop with Chrome's or Firefox's semantics (`test/notify/
 * fake-desktop.ts`), the calm state and its release alarm, the watched-address check, the ETA baselines and the
 * user's look-ups and actions through the message handlers, every request through one request budget — against the
 * fake service (every method the worker uses, history included and adversarial), with user operations, settings
 * changes, worker kills at any await (a store, a request, a notification call), refused IndexedDB writes and rejected
 * notification calls, user dismissals, mute, snooze and quiet hours, clock jumps, a skewed user clock and server
 * waits from 0 s to minutes. An oracle checks the README's invariants I1–I6 on every request the service received
 * and N1, N2, N5 on what the desktop showed. `campaign.test.ts` runs it in `npm test` (and at length with `TRACKER_CAMPAIGN_RUNS`).
 */
import fc from 'fast-check';
import { type Lane, RequestBudget } from '@/lib/api/budget';
import { createNotificationAdapter } from '@/lib/notify/browser';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import {
  type CalmState,
  type CalmStateStore,
  DEFAULT_NOTIFY,
  EMPTY_CALM,
  type IntentStore,
  type NotifySettings,
  type Settings,
  type TrackedIntent,
  type TrackerState,
  type TrackerStateStore,
  type WatchedCheckpoint,
} from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { type NotificationJob, type Outbox, pruneJobs } from '@/lib/store/outbox';
import type { Clock } from '@/lib/time/clock';
import { Tracker } from '@/lib/tracker/engine';
import { isFinalStatus, NOTIFYING_STATUSES, stalenessBound } from '@/lib/tracker/policy';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { DEFAULT_TUNING, type ReceiptTransport } from '@/lib/tracker/types';
import { CALM_ALARM, createCalmAlarm } from '@/lib/worker/calm-alarm';
import type { ClientCache } from '@/lib/worker/client-cache';
import { createBaselineFinder } from '@/lib/worker/eta-baseline';
import { createMessageHandlers } from '@/lib/worker/message-handlers';
import { createTrackIntent } from '@/lib/worker/track';
import { createTrackList } from '@/lib/worker/track-many';
import { createWatchedCheck } from '@/lib/worker/watched';
import { checkClicks, chromeRepeatAllowed, chromeRepeats, firefoxLossPossible, tellings } from '../notify/desktop-oracle';
import { FakeDesktop } from '../notify/fake-desktop';
import { FakeService, type Fault, type HistoryMode, type Step } from './fake-service';
import { EventClock } from './fakes';

const T0 = 1_800_000_000_000;
const OWNERS = [
  '0x00000000000000000000000000000000000000a1',
  '0x00000000000000000000000000000000000000b2',
  '0x00000000000000000000000000000000000000c3',
  // The watched address, when the schedule watches one: its intents are tracked by the check, not by hand.
  '0x00000000000000000000000000000000000000d4',
];
const WATCHED = OWNERS[3]!;

const intentArb = fc.record({
  owner: fc.integer({ min: 0, max: 3 }),
  addAt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 120_000 })),
  createdBefore: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 600_000 })),
  /** NotFound for this long after creation; -1: never known. */
  notFoundFor: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 500, max: 60_000 }), fc.constant(-1)),
  /** COMMITTED for this long; -1: never executed (it must end expired). */
  committedFor: fc.oneof(fc.integer({ min: 0, max: 60_000 }), fc.integer({ min: 60_000, max: 9 * 60_000 }), fc.constant(-1)),
  executing: fc.array(fc.integer({ min: 0, max: 120_000 }), { maxLength: 3 }),
  end: fc.constantFrom('SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'EXECUTING'),
  /** The last step keeps the leg states: only the status says it ended (REFUNDED during a long-poll). */
  silentEnd: fc.boolean(),
  inHistory: fc.boolean(),
});

const historyArb: fc.Arbitrary<HistoryMode | undefined> = fc.option(
  fc.record({
    others: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 300, max: 3_000 })),
    othersSpanMs: fc.constantFrom(60_000, 3_600_000),
    ignoreOwner: fc.boolean(),
    repeatCursor: fc.boolean(),
    outOfOrder: fc.boolean(),
    staleRows: fc.boolean(),
  }),
  { freq: 5 },
);

const opArb = fc.record({
  at: fc.integer({ min: 0, max: 600_000 }),
  kind: fc.constantFrom('remove', 'refresh', 'retry', 'settings', 'retrack', 'jump', 'kill'),
  target: fc.nat(),
  amount: fc.integer({ min: 1_000, max: 300_000 }),
});

/**
 * How the service and the user's computer misbehave (issue 20): the user's clock off the service's, `done: true` while
 * EXECUTING, every k-th answer about another intent, the first intent's leg states flipping while it executes.
 */
const adversaryArb = fc.record({
  skewMs: fc.constantFrom(0, 2 * 60_000, 6 * 60_000, 10 * 60_000, -10 * 60_000),
  doneEarly: fc.boolean(),
  /** Every k-th WaitIntentReceipt/GetIntentReceipt answer of an intent carries another intent's receipt; 0: none. */
  foreignEvery: fc.constantFrom(0, 2, 3, 7),
  /** The first intent's leg states flip every `everyMs` for `forMs` once it executes; every 0: no flapping. */
  flap: fc.record({ everyMs: fc.constantFrom(0, 100, 1_000, 4_000), forMs: fc.integer({ min: 60_000, max: 480_000 }) }),
});

/** The adversary's behaviours (absent: an honest service and a right clock). */
export type Adversary = typeof adversaryArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * The rest of the worker around the tracker: which browser's desktop, the notification settings, a watched address,
 * what the user does on the desktop and in the popup, and which writes and notification calls fail.
 */
const workerArb = fc.record({
  browser: fc.constantFrom<'chrome' | 'firefox'>('chrome', 'firefox'),
  progress: fc.boolean(),
  /** Quiet hours from `from` minutes after the start (the user's local time) for `length` minutes. */
  quiet: fc.option(fc.record({ from: fc.integer({ min: 0, max: 10 }), length: fc.integer({ min: 1, max: 20 }) }), {
    nil: undefined,
    freq: 3,
  }),
  /** An outcome switched off in the options. */
  off: fc.option(fc.constantFrom<'succeeded' | 'failed' | 'refunded'>('succeeded', 'failed', 'refunded'), { nil: undefined, freq: 4 }),
  /** OWNERS[3] is watched: its intents are tracked by the watched-address check, not by hand. */
  watched: fc.boolean(),
  /** More watched addresses, with no intent of their own: the check's requests then press on the idle rate (I5). */
  moreAddresses: fc.constantFrom(0, 0, 0, 0, 0, 0, 0, 40),
  ops: fc.array(
    fc.record({
      at: fc.integer({ min: 0, max: 600_000 }),
      kind: fc.constantFrom('dismiss', 'dismissAll', 'mute', 'unmute', 'snooze', 'endSnooze', 'lookup', 'lookup'),
      target: fc.nat(),
      /** Minutes of a snooze. */
      minutes: fc.integer({ min: 1, max: 10 }),
    }),
    { maxLength: 5 },
  ),
  /** The n-th write to IndexedDB or call of the notifications/alarms API (counted together) is refused / rejected. */
  refuseAt: fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 3 }),
});

/** The worker around the tracker (absent in schedules found before the campaign drove the whole worker: a plain Chrome). */
export type WorkerPart = typeof workerArb extends fc.Arbitrary<infer T> ? T : never;

/** The setting that switches each final outcome's notification (the options page's checkboxes). */
const SETTING_OF: Record<string, 'succeeded' | 'failed' | 'refunded'> = {
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  REFUNDED: 'refunded',
  ABORTED: 'refunded',
};

/**
 * A watched address's new intent is tracked within this long of the history listing it. The check runs every minute,
 * but it is background work: while the tracker is busy with news it waits for what the tracker leaves of the rate.
 */
const WATCHED_WITHIN_MS = 10 * 60_000;

const PLAIN_WORKER: WorkerPart = {
  browser: 'chrome',
  progress: false,
  quiet: undefined,
  off: undefined,
  watched: false,
  moreAddresses: 0,
  ops: [],
  refuseAt: [],
};

/** One random schedule. */
export const scheduleArb = fc.record({
  worker: workerArb,
  adversary: fc.option(adversaryArb, { nil: undefined, freq: 2 }),
  intents: fc.array(intentArb, { minLength: 1, maxLength: 8 }),
  serverWaitMs: fc.constantFrom(0, 1_000, 20_000, 90_000, 300_000),
  history: historyArb,
  historySeed: fc.nat(),
  faults: fc.array(fc.constantFrom<Fault>('ok', 'ok', 'ok', '500', 'reset', 'malformed', 'timeout', '429'), { maxLength: 30 }),
  ops: fc.array(opArb, { maxLength: 6 }),
  /** Kill the worker right after its n-th store, transport or notifier call resolves. */
  killAtCalls: fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 3 }),
});

export type Schedule = Omit<typeof scheduleArb extends fc.Arbitrary<infer T> ? T : never, 'adversary' | 'worker'> & {
  adversary?: Adversary;
  worker?: WorkerPart;
};

/** What the last run saw (for debugging a failing seed). */
export let lastRun:
  | {
      service: FakeService;
      desktop: FakeDesktop;
      phaseAt: Map<string, Map<string, number>>;
      tracked: Map<string, { from: number; removedAt?: number }>;
      finalList: TrackedIntent[];
      jobs: Record<string, NotificationJob>;
    }
  | undefined;

const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/** Runs one schedule and returns the oracle's violations (empty when I1–I6 and N1, N2, N5 held). */
export async function runSchedule(s: Schedule): Promise<string[]> {
  const w = s.worker ?? PLAIN_WORKER;
  const clock = new EventClock();
  const service = new FakeService(clock, s.serverWaitMs, s.history ?? undefined);
  service.faults = [...s.faults];
  const ids = s.intents.map((_, i) => `0x${String(i + 1).padStart(64, '0')}`);
  const adversary = s.adversary;
  /** Steps of flapping: not news, so not "something happening" for the idle-rate check. */
  const flapSteps = new Set<Step>();
  if (adversary?.doneEarly) service.doneWhile = ['EXECUTING'];
  if (adversary && adversary.foreignEvery > 0) {
    const k = adversary.foreignEvery;
    // Another tracked intent's receipt, or a stranger's (FAILED) one.
    service.answerAbout = (_op, id, n) =>
      n % k === k - 1 ? (n % 2 ? ids[(ids.indexOf(id) + 1) % ids.length] : `0x${'f'.repeat(64)}`) : undefined;
  }
  /** Intents of the watched address: the check tracks them, the user does not. */
  const watchedIds = new Set(w.watched ? ids.filter((_, i) => OWNERS[s.intents[i]!.owner] === WATCHED) : []);
  s.intents.forEach((spec, i) => {
    const added = T0 + spec.addAt;
    const created = added - spec.createdBefore;
    const steps: Step[] = [{ at: created, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] }];
    if (spec.committedFor >= 0) {
      let t = created + spec.committedFor;
      steps.push({ at: t, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] });
      if (i === 0 && adversary && adversary.flap.everyMs > 0) {
        const { everyMs, forMs } = adversary.flap;
        for (let k = 1; k * everyMs < forMs; k++) {
          const step = { at: t + k * everyMs, status: 'EXECUTING', states: ['PENDING', k % 2 ? 'FLAP' : 'UNKNOWN', 'UNKNOWN'] };
          steps.push(step);
          flapSteps.add(step);
        }
        t += forMs;
      }
      spec.executing.forEach((d, k) => {
        t += d;
        steps.push({ at: t, status: 'EXECUTING', states: ['SUCCEEDED', `S${k}`, 'UNKNOWN'] });
      });
      if (spec.end !== 'EXECUTING') {
        t += 1_000;
        const last = steps[steps.length - 1]!.states;
        steps.push({
          at: t,
          status: spec.end,
          states: spec.silentEnd ? last : ['SUCCEEDED', 'SUCCEEDED', spec.end === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED'],
        });
      }
    }
    service.add({
      intentId: ids[i]!,
      ownerAddress: OWNERS[spec.owner]!,
      createdAt: created,
      ...(spec.notFoundFor !== 0 ? { visibleAt: spec.notFoundFor < 0 ? Number.POSITIVE_INFINITY : created + spec.notFoundFor } : {}),
      steps,
      inHistory: spec.inHistory,
    });
  });
  // Strangers' rows never name the watched address: the service's history has no intent of it but the schedule's.
  service.seedOthers(s.historySeed, OWNERS.slice(0, 3));

  // The user's clock, off the service's by the adversary's skew; the worker's service clock is fed by Date headers.
  const skew = adversary?.skewMs ?? 0;
  const userClock: Clock = { now: () => clock.now() + skew, monotonic: () => clock.now(), sleep: (ms, signal) => clock.sleep(ms, signal) };
  // The desktop logs what appeared at the service's (true) time, for the oracle.
  const desktop = new FakeDesktop(w.browser, () => clock.now());
  const notify: NotifySettings = {
    ...DEFAULT_NOTIFY,
    progress: w.progress,
    ...(w.off ? { [w.off]: false } : {}),
    ...(w.quiet
      ? { quietHours: { start: hhmm(T0 + skew + w.quiet.from * 60_000), end: hhmm(T0 + skew + (w.quiet.from + w.quiet.length) * 60_000) } }
      : {}),
  };

  // What outlives a worker: the stores (records, tracker state, outbox, calm state, watched checkpoints, removal
  // marks), the desktop and its alarms.
  const store = new SerialStore(clock);
  const state = new MemoryStateStore();
  let jobs: Record<string, NotificationJob> = {};
  let calmState: CalmState = structuredClone(EMPTY_CALM);
  let checkpoints: Record<string, WatchedCheckpoint> = {};
  const removedMarks = new Set<string>();
  const more = Array.from({ length: w.moreAddresses }, (_, i) => `0x${(0xe000 + i).toString(16).padStart(40, '0')}`);
  const settingsValue: Settings = {
    baseUrl: 'https://svc.example',
    accessKey: 'k',
    notify,
    autoTrackAddresses: [...(w.watched ? [WATCHED] : []), ...more],
  };

  const violations: string[] = [];
  const phaseAt = new Map<string, Map<string, number>>();
  const stuckAt = new Map<string, number>();
  const tracked = new Map<string, { from: number; removedAt?: number }>();
  /** Removals asked for; one whose worker died before it answered may or may not have happened. */
  const removeAsked = new Set<string>();
  /** Mutes (true) and unmutes (false) asked for, with when. */
  const muteAsked: Array<{ id: string; muted: boolean; at: number; done?: number }> = [];
  /** When the user asked for a look-up (popup History). */
  const lookupsAsked: number[] = [];
  /** Snoozes asked for (they hold notifications, so their times are excused from "at once"). */
  const snoozes: Array<{ from: number; until: number }> = [];
  const disturbances: Array<{ from: number; to: number }> = [];
  /** When IndexedDB refused a write, and when a dead worker started again. */
  const refusals: number[] = [];
  const restarts: number[] = [];
  let configured = true;
  let calls = 0;
  let faultable = 0;
  const killCalls = new Set(s.killAtCalls);
  const refuse = new Set(w.refuseAt);
  const events: Array<{ at: number; run: () => Promise<void> }> = [];
  const schedule = (at: number, run: () => Promise<void>) => {
    events.push({ at, run });
    events.sort((a, b) => a.at - b.at);
  };

  store.onWrite = (id, before, after) => {
    // A deletion is phase "removed": it counts even when the worker died before remove() answered.
    const next = after ? after.phase : before ? 'removed' : undefined;
    if (next !== undefined && next !== before?.phase) {
      const m = phaseAt.get(id) ?? new Map<string, number>();
      if (!m.has(next)) m.set(next, clock.now());
      phaseAt.set(id, m);
    }
    if (after?.stuckNotifiedAt !== undefined && !stuckAt.has(id)) stuckAt.set(id, clock.now());
  };

  /** One worker life; `kill` makes it inert, as a stopped worker is: its requests are cut, its calls never settle. */
  const generation = () => {
    let dead = false;
    const life = new AbortController();
    const hang = <T>(): Promise<T> => new Promise<T>(() => {});
    /** Resolves as `p`, unless the worker died meanwhile or dies right after this call (the schedule's n-th). */
    const after = <R>(p: Promise<R>, what?: string): Promise<R> =>
      p.then(
        (r) => {
          if (dead) return hang<R>();
          if (killCalls.has(++calls)) {
            if (what) desktop.kills.push({ method: what, detail: '', after: true });
            kill();
            return hang<R>();
          }
          return r;
        },
        (err: unknown) => (dead ? hang<R>() : Promise.reject(err)),
      );
    const guard =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
      (...a: A): Promise<R> =>
        dead ? hang<R>() : after(f(...a));
    /** A write to IndexedDB: refused when the schedule says so (disk full), else as {@link guard}. */
    const write =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>, what?: string) =>
      (...a: A): Promise<R> =>
        dead ? hang<R>() : refuse.has(++faultable) ? refused<R>() : after(f(...a), what);
    /** IndexedDB refuses a write: a fault, whose back-off may last up to its cap. */
    const refused = <R>(): Promise<R> => {
      disturbances.push({ from: clock.now(), to: clock.now() + DEFAULT_TUNING.backoffCapMs + 5_000 });
      refusals.push(clock.now());
      return Promise.reject(new DOMException('refused', 'QuotaExceededError'));
    };
    /**
     * The tracker's clock in this life: as a stopped worker's instance is gone, a dead life's timers never fire (its
     * load's bounded reads included: lib/tracker/load-bound.ts), as the world's do not (test/world/time.ts).
     */
    const lifeClock: Clock = {
      now: () => userClock.now(),
      monotonic: () => userClock.monotonic(),
      sleep: (ms, signal) => (dead ? hang<void>() : userClock.sleep(ms, signal).then(() => (dead ? hang<void>() : undefined))),
    };
    const browser = desktop.worker();
    browser.hook = () => {
      if (killCalls.has(++calls)) {
        kill();
        return 'kill-after';
      }
      return refuse.has(++faultable) ? 'reject' : undefined;
    };
    const budget = new RequestBudget({ clock: userClock });
    const clientOf = (lane: Lane) => {
      const c = service.client(lane, budget, life.signal);
      return {
        waitIntentReceipt: guard(c.waitIntentReceipt),
        getIntentReceipt: guard(c.getIntentReceipt),
        getIntentHistoryLite: guard(c.getIntentHistoryLite),
        getIntentHistory: guard(c.getIntentHistory),
        getIntent: guard(c.getIntent),
      };
    };
    // The tracker reads history only where the service has it (without, it checks every intent alone).
    const trackerTransport = (): ReceiptTransport => {
      const { getIntentHistoryLite, ...rest } = clientOf('tracker');
      return s.history ? { ...rest, getIntentHistoryLite } : rest;
    };
    const intentStore: IntentStore = {
      get: guard((id: string) => store.get(id)),
      list: guard(() => store.list()),
      put: write((t: TrackedIntent) => store.put(t)),
      update: write((id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) => store.update(id, fn)),
      updateMany: write((ids: readonly string[], fn: (id: string, c: TrackedIntent | undefined) => TrackedIntent | undefined) =>
        store.updateMany(ids, fn),
      ),
      remove: write((id: string) => store.remove(id)),
    };
    const stateStore: TrackerStateStore = { get: guard(() => state.get()), set: write((st: TrackerState) => state.set(st)) };
    const outbox: Outbox = {
      all: guard(async () => structuredClone(jobs)),
      update: write(async (fn: (j: Record<string, NotificationJob>) => Record<string, NotificationJob>) => {
        jobs = pruneJobs(fn(structuredClone(jobs)));
        return structuredClone(jobs);
      }, 'outbox.update'),
    };
    const calmStore: CalmStateStore = {
      get: guard(async () => structuredClone(calmState)),
      set: write(async (next: CalmState) => {
        calmState = structuredClone(next);
      }),
    };
    const serviceClock = new ServiceClock(() => userClock.now());
    service.onServerTime = (ms) => {
      if (!dead) serviceClock.observeDate(ms);
    };
    // As lib/background.ts wires them.
    const timer = (fn: () => void, ms: number) => void clock.sleep(ms).then(() => dead || fn());
    const calm = createNotificationPipeline({
      adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: w.browser === 'firefox' }),
      outbox,
      state: calmStore,
      settings: async () => notify,
      intent: async (intentId) => (await tracker.list()).find((t) => t.intentId === intentId),
      scheduleRelease: createCalmAlarm(browser as never),
      now: () => userClock.now(),
      groupTimer: timer,
      retryTimer: timer,
    });
    const tracker = new Tracker({
      store: intentStore,
      stateStore,
      serviceClock,
      clock: lifeClock,
      notifier: calm,
      transport: async () => (configured ? trackerTransport() : undefined),
      random: () => 0.5,
      onStateChange: (st) => {
        if (st.pausedUntil !== undefined) budget.holdOff(st.pausedUntil - userClock.now());
      },
      onChange: (intentId) => {
        if (!intentId || dead) return;
        void findBaseline(intentId);
        void calm.progress(intentId).catch(() => {});
      },
    });
    budget.onHoldOff = (ms) => void tracker.holdOff(ms).catch(() => {});
    const findBaseline = createBaselineFinder({ client: async () => (configured ? clientOf('background') : undefined), tracker });
    const removed = {
      has: guard(async (id: string) => removedMarks.has(id)),
      add: write(async (list: readonly string[]) => {
        for (const id of list) removedMarks.add(id);
      }),
      deleteMany: write(async (list: readonly string[]) => {
        for (const id of list) removedMarks.delete(id);
      }),
    };
    // The watched check tracks through the tracker as the worker does; what it adds is tracked from then on.
    const trackIntent = createTrackIntent(
      {
        trackMany: async (entries) => {
          const from = clock.now();
          const r = await tracker.trackMany(entries);
          for (const { intentId } of entries) if (!tracked.has(intentId)) tracked.set(intentId, { from });
          return r;
        },
        list: () => tracker.list(),
        remove: (intentId) => tracker.remove(intentId),
        get: (intentId) => tracker.get(intentId),
      },
      removed,
      calm,
    );
    const checkWatched = createWatchedCheck({
      settings: { get: async () => settingsValue, set: async () => {} },
      client: async () => (configured ? clientOf('background') : undefined),
      checkpoints: {
        get: guard(async () => ({ ...checkpoints })),
        set: write(async (c: Record<string, WatchedCheckpoint>) => {
          checkpoints = c;
        }),
      },
      track: trackIntent,
      removed,
      now: () => userClock.now(),
      serviceNow: () => serviceClock.now(),
    });
    const clients = {
      current: async (lane: Lane) => (configured ? clientOf(lane) : undefined),
      forSettings: () => {
        throw new Error('not in the campaign');
      },
      reset: () => {},
      budget,
    } as unknown as ClientCache;
    const handlers = createMessageHandlers({
      tracker,
      track: trackIntent,
      trackList: createTrackList(tracker, removed),
      clients,
      receipts: { get: async () => undefined, put: async () => {} },
      removed,
      trackSelection: async () => ({ ok: false, message: 'not in the campaign' }),
      updateBadge: async () => {},
      checkWatched,
      calm,
    });
    const kill = () => {
      if (dead) return;
      dead = true;
      browser.dead = true;
      tracker.stop();
      life.abort();
      const restartAt = clock.now() + 2_000;
      disturbances.push({ from: clock.now(), to: restartAt });
      restarts.push(restartAt);
      schedule(restartAt, async () => {
        current = generation();
        current.start();
        for (const id of unanswered) track(id);
      });
    };
    /** What `entrypoints/background.ts` does on every start and on the 30 s watchdog alarm. */
    const start = () => {
      // As lib/wire.ts: a load that fails (a read refused or unanswered) rejects here; the next alarm resumes again.
      void tracker.resume().catch(() => {});
      void calm.resume().catch(() => {});
    };
    const watchdog = () => {
      start();
      void checkWatched();
      const alarm = desktop.alarms.get(CALM_ALARM);
      if (alarm && alarm.scheduledTime <= userClock.now()) {
        desktop.alarms.delete(CALM_ALARM);
        void calm.release().catch(() => {});
      }
    };
    return { tracker, calm, handlers, kill, start, watchdog, isDead: () => dead };
  };

  let current = generation();
  current.start();
  // A track whose worker died before it answered is tried again on the next worker, as the user would.
  const unanswered = new Set<string>();
  const track = (id: string) => {
    const from = clock.now();
    unanswered.add(id);
    void current.tracker.track(id).then(
      () => {
        unanswered.delete(id);
        if (!tracked.has(id)) tracked.set(id, { from });
      },
      // IndexedDB refused the new record: not tracked (the popup says so); the user tries again on the next worker.
      () => {},
    );
  };
  s.intents.forEach((spec, i) => {
    if (!watchedIds.has(ids[i]!)) schedule(T0 + spec.addAt, async () => track(ids[i]!));
  });
  for (const op of s.ops) {
    const id = ids[op.target % ids.length]!;
    schedule(T0 + op.at, async () => {
      const t = current.tracker;
      if (op.kind === 'remove' && tracked.has(id) && tracked.get(id)!.removedAt === undefined) {
        // Not awaited: the store's work needs the clock this loop drives. As the popup's Remove: marked, then removed.
        const gen = current;
        removeAsked.add(id);
        void gen.handlers.remove({ type: 'remove', intentId: id }).then(
          () => {
            if (!gen.isDead()) tracked.get(id)!.removedAt = clock.now();
          },
          // IndexedDB refused the deletion: the popup says so, and the intent is still tracked.
          () => {},
        );
      } else if (op.kind === 'refresh') void t.refresh(id).catch(() => {});
      else if (op.kind === 'retry') void t.retryNow(op.target % 2 ? id : undefined).catch(() => {});
      else if (op.kind === 'retrack' && tracked.has(id) && !removeAsked.has(id)) void t.track(id).catch(() => {});
      else if (op.kind === 'settings') {
        configured = false;
        disturbances.push({ from: clock.now(), to: clock.now() + op.amount + 1_000 });
        schedule(clock.now() + op.amount, async () => {
          configured = true;
          void current.tracker.retryNow().catch(() => {});
        });
      } else if (op.kind === 'jump') {
        disturbances.push({ from: clock.now(), to: clock.now() + op.amount + 1 });
        clock.t += op.amount;
      } else if (op.kind === 'kill') current.kill();
    });
  }
  // What the user does on the desktop and in the popup.
  for (const op of w.ops) {
    const id = ids[op.target % ids.length]!;
    schedule(T0 + op.at, async () => {
      const h = current.handlers;
      if (op.kind === 'dismiss') {
        const shown = [...desktop.screen.keys()];
        if (shown.length > 0) desktop.dismiss(shown[op.target % shown.length]!);
      } else if (op.kind === 'dismissAll') desktop.dismissAll();
      else if (op.kind === 'mute' || op.kind === 'unmute') {
        const asked: (typeof muteAsked)[number] = { id, muted: op.kind === 'mute', at: clock.now() };
        muteAsked.push(asked);
        const gen = current;
        // The handlers' rejections are the popup's error messages (the dispatcher turns them into replies).
        void h.mute({ type: 'mute', intentId: id, muted: asked.muted }).then(
          (r) => {
            if (r.ok && !gen.isDead()) asked.done = clock.now();
          },
          () => {},
        );
      } else if (op.kind === 'snooze') {
        snoozes.push({ from: clock.now(), until: clock.now() + op.minutes * 60_000 });
        void current.calm.snooze(op.minutes * 60_000).catch(() => {});
      } else if (op.kind === 'endSnooze') {
        for (const z of snoozes) z.until = Math.min(z.until, clock.now());
        void h.snooze({ type: 'snooze', end: true }).catch(() => {});
      } else {
        lookupsAsked.push(clock.now());
        void h.lookup({
          type: 'lookup',
          operation: 'getIntentHistory',
          request: { byOwnerAddress: OWNERS[op.target % OWNERS.length], page: { pageSize: 20 } },
        });
      }
    });
  }
  const lastStep = Math.max(...[...service.intents.values()].flatMap((x) => x.steps.map((st) => st.at)));
  const lastOp = Math.max(T0, ...s.ops.map((o) => T0 + o.at + o.amount), ...w.ops.map((o) => T0 + o.at + o.minutes * 60_000));
  const quietEnd = w.quiet ? T0 + (w.quiet.from + w.quiet.length) * 60_000 : T0;
  const end = Math.max(lastStep, lastOp, quietEnd, T0 + 120_000) + 13 * 60_000;
  // The worker's 30 s watchdog alarm (it also fires the release alarm's work when that is due).
  const watchdog = async () => {
    current.watchdog();
    if (clock.now() + 30_000 < end) schedule(clock.now() + 30_000, watchdog);
  };
  schedule(T0 + 30_000, watchdog);
  await clock.runUntil(end, events);
  const finalList = await current.tracker.list().catch(() => [] as TrackedIntent[]);
  current.kill();
  events.length = 0;

  lastRun = { service, desktop, phaseAt, tracked, finalList, jobs };
  check(s, {
    service,
    ids,
    desktop,
    phaseAt,
    stuckAt,
    tracked,
    removeAsked,
    muteAsked,
    lookupsAsked,
    snoozes,
    disturbances,
    refusals,
    restarts,
    end,
    finalList,
    store,
    violations,
    flapSteps,
    watchedIds,
  });
  violations.push(...(await checkClicks(desktop)));
  return violations;
}

interface Observed {
  service: FakeService;
  ids: string[];
  desktop: FakeDesktop;
  muteAsked: Array<{ id: string; muted: boolean; at: number; done?: number }>;
  lookupsAsked: number[];
  refusals: number[];
  restarts: number[];
  snoozes: Array<{ from: number; until: number }>;
  watchedIds: Set<string>;
  phaseAt: Map<string, Map<string, number>>;
  stuckAt: Map<string, number>;
  tracked: Map<string, { from: number; removedAt?: number }>;
  removeAsked: Set<string>;
  disturbances: Array<{ from: number; to: number }>;
  end: number;
  finalList: TrackedIntent[];
  store: SerialStore;
  violations: string[];
  flapSteps: Set<Step>;
}

/** The oracle: checks I1–I6 on every request the service received, N1 and N2 on what the desktop showed. */
function check(s: Schedule, o: Observed): void {
  const { service, ids, violations } = o;
  const w = s.worker ?? PLAIN_WORKER;
  const log = service.log;
  /** Requests that are an individual check of one intent (GetIntent, the ETA look-up, is not). */
  const isCheck = (e: (typeof log)[number]) => e.op === 'wait' || e.op === 'receipt';
  const { own, at: toldAt, awayLines } = tellings(o.desktop);
  const notify = { ...DEFAULT_NOTIFY, ...(w.off ? { [w.off]: false } : {}) };
  /** Notifications may be held (quiet hours, a snooze) and then told in an away summary. */
  const holds = w.quiet !== undefined || o.snoozes.length > 0;
  /** Refused writes and rejected notification calls delay notifications (retried with back-off). */
  const faultsOnDesktop = w.refuseAt.length > 0 || o.desktop.kills.length > 0;
  // Firefox's window (README): a job written `showing` whose worker dies before the create's outcome is recorded is
  // lost. Here any call of the worker may be the one it dies in (a store read of the tracker between the two).
  const firefoxLoss = firefoxLossPossible(o.desktop) || (w.browser === 'firefox' && o.restarts.length > 0);
  let mustTell = 0;
  let mayTell = 0;
  // Faults hit the first calls; the back-off they cause may last up to its cap after the last one.
  const faulted = log.filter((_e, i) => i < s.faults.length && s.faults[i] !== 'ok');
  const lastFaultEnd = Math.max(0, ...faulted.map((e) => e.end ?? o.end));
  const faultsUntil = faulted.length > 0 ? lastFaultEnd + DEFAULT_TUNING.backoffCapMs + 5_000 : 0;
  // An answer about another intent is a fault of the service too: it wastes the slot it took, for every intent, for
  // the retry and the next individual check. From its end, I1 holds again.
  for (const e of log) if (e.foreign !== undefined && e.end !== undefined) o.disturbances.push({ from: e.start, to: e.end + 10_000 });
  // The worker's minute is spent (I5: 59 places of any 60 s window for the tracker and the user, lib/api/budget.ts):
  // no check can be sent until the window slides, from the first of those 59 to 60 s after it; from then I1 holds again.
  const starts = log.map((e) => e.start).sort((a, b) => a - b);
  for (let i = 58; i < starts.length; i++) {
    if (starts[i]! - starts[i - 58]! < 60_000) o.disturbances.push({ from: starts[i - 58]!, to: starts[i - 58]! + 60_000 });
  }
  const disturbed = (from: number, to: number) => from < faultsUntil || o.disturbances.some((d) => d.from < to && d.to > from);
  /** When the last disturbance overlapping [from, to) ended (ms), or undefined when none did. */
  const disturbedUntil = (from: number, to: number): number | undefined => {
    if (!disturbed(from, to)) return undefined;
    const ends = o.disturbances.filter((d) => d.from < to && d.to > from).map((d) => d.to);
    return Math.max(from < faultsUntil ? faultsUntil : from, ...ends);
  };
  const phase = (id: string, at: number): string | undefined => {
    let current: string | undefined;
    let when = -1;
    for (const [p, t] of o.phaseAt.get(id) ?? []) if (t <= at && t >= when) [current, when] = [p, t];
    return current;
  };
  const leftAt = (id: string): number => {
    const m = o.phaseAt.get(id);
    const times = [m?.get('final'), m?.get('expired'), m?.get('not-found'), m?.get('removed'), o.tracked.get(id)?.removedAt].filter(
      (x): x is number => x !== undefined,
    );
    return times.length > 0 ? Math.min(...times) : o.end;
  };
  const trackingAt = (at: number) =>
    ids.filter((id) => (o.tracked.get(id)?.from ?? Number.POSITIVE_INFINITY) <= at && leftAt(id) > at).length;

  // I5: never more than 4 requests in flight, one more for the user's own (lib/api/budget-limits.ts USER_PLACES);
  // Retry-After honoured.
  if (service.maxInFlight > 5) violations.push(`I5 ${service.maxInFlight} requests in flight`);
  if (service.maxOthersInFlight > 4) violations.push(`I5 ${service.maxOthersInFlight} requests in flight besides the user's`);
  for (const e of log) {
    if (e.retryAfterMs === undefined || e.end === undefined) continue;
    const early = log.find((x) => x.start > e.end! && x.start < e.end! + e.retryAfterMs!);
    // A worker that restarts inside the wait finds the hold in the tracker's state, unless IndexedDB refused to keep it.
    const forgotten =
      early !== undefined &&
      o.restarts.some((r) => r > e.end! && r <= early.start) &&
      o.refusals.some((r) => r >= e.start && r <= early.start);
    if (early && !forgotten) violations.push(`I5 request at +${early.start - e.end} ms into a ${e.retryAfterMs} ms Retry-After`);
  }
  // I5: idle (nothing changes, nothing happens) ≤ 60 requests a minute.
  // Flapping (a state coming back within a minute) is not news: the idle rate holds through it.
  const happenings = [
    ...[...service.intents.values()].flatMap((x) => [...x.steps.filter((st) => !o.flapSteps.has(st)).map((st) => st.at), x.visibleAt ?? 0]),
    ...[...o.tracked.values()].flatMap((t) => [t.from, t.removedAt ?? 0]),
    ...s.ops.map((op) => T0 + op.at),
    // The user's look-ups are the user's activity, not the worker's idling.
    ...o.lookupsAsked,
  ];
  const firstIdle = Math.max(T0, faultsUntil, ...[...o.tracked.values()].map((t) => t.from));
  // A change is learnt up to S(N) after it happens, and keeps the tracker busy for a while after that.
  const quietBefore = stalenessBound(ids.length, DEFAULT_TUNING) + DEFAULT_TUNING.busyForMs + 5_000;
  for (let w = firstIdle; w + 60_000 <= o.end; w += 10_000) {
    if (disturbed(w - quietBefore, w + 60_000) || happenings.some((h) => h >= w - quietBefore && h < w + 60_000)) continue;
    const n = log.filter((e) => e.start >= w && e.start < w + 60_000).length;
    if (n > 60) violations.push(`I5 ${n} requests in an idle minute from +${w - T0} ms`);
  }

  for (const id of ids) {
    const t = o.tracked.get(id);
    if (!t) continue;
    // An answer about another intent (the adversary's) is no check of this one; it still counts as a request (I4).
    const asked = log.filter((e) => e.intentId === id);
    const mine = asked.filter((e) => e.foreign === undefined);
    // An answer about another intent told nothing about this one: it is no check.
    const checks = mine.filter((e) => isCheck(e) && (e.outcome === 'answer' || e.outcome === 'error')).map((e) => e.end!);
    const left = leftAt(id);
    // I1: an individual check at least every S(N), whatever the history returns.
    let prev = t.from;
    for (const at of [...checks.filter((c) => c > t.from && c <= left), left]) {
      const n = Math.max(trackingAt(prev), trackingAt(at));
      const limit = stalenessBound(n, DEFAULT_TUNING) + 1_000;
      if (at - prev > limit && !disturbed(prev, at) && at !== o.end)
        violations.push(`I1 ${id} went ${at - prev} ms without a check (limit ${limit}, N=${n})`);
      if (at === left && left === o.end && at - prev > limit + 1_000 && !disturbed(prev, at)) {
        violations.push(`I1 ${id} went ${at - prev} ms without a check before the end (limit ${limit})`);
      }
      // A disturbance excuses the gap only up to its end: from there S(N) holds again.
      const calmFrom = disturbedUntil(prev, at);
      if (calmFrom !== undefined && at - calmFrom > limit + (at === o.end ? 1_000 : 0))
        violations.push(`I1 ${id} went ${at - calmFrom} ms without a check after a disturbance ended (limit ${limit})`);
      prev = at;
    }
    // I2: expiry, not found and stuck only on an answer at most 30 s old that said so.
    const lastAnswer = (at: number, outcome: 'answer' | 'error') =>
      [...mine].reverse().find((e) => isCheck(e) && e.end !== undefined && e.end <= at && e.outcome === outcome);
    const expiredAt = o.phaseAt.get(id)?.get('expired');
    if (expiredAt !== undefined) {
      const a = lastAnswer(expiredAt, 'answer');
      if ((a?.status !== 'COMMITTED' || expiredAt - a.end! > 30_000) && !(a && disturbed(a.end!, expiredAt)))
        violations.push(`I2 ${id} expired on ${a?.status ?? 'no answer'} ${a ? expiredAt - a.end! : '-'} ms old`);
    }
    const notFoundAt = o.phaseAt.get(id)?.get('not-found');
    if (notFoundAt !== undefined) {
      const a = lastAnswer(notFoundAt, 'error');
      if ((!a?.error?.includes('NotFound') || notFoundAt - a.end! > 30_000) && !(a && disturbed(a.end!, notFoundAt)))
        violations.push(`I2 ${id} marked not found on ${a?.error ?? a?.status}`);
    }
    const stuck = o.stuckAt.get(id);
    if (stuck !== undefined) {
      const a = lastAnswer(stuck, 'answer');
      if ((a?.status !== 'EXECUTING' || stuck - a.end! > 30_000) && !(a && disturbed(a.end!, stuck)))
        violations.push(`I2 ${id} stuck warning on ${a?.status}`);
    }
    // I3 and N1, N2 on the desktop: one telling per intent that reached a notifying status while tracked.
    const times = toldAt.get(id) ?? [];
    const visible = service.intents.get(id)!.visibleAt !== Number.POSITIVE_INFINITY;
    const truthEnd = visible ? service.stepAt(id, o.end).status : 'NotFound';
    const finalAt = service.intents.get(id)!.steps.at(-1)!.at;
    for (const at of times) {
      const truth = service.stepAt(id, at).status;
      if (!isFinalStatus(truth)) violations.push(`I3 ${id} told at +${at - T0} while ${truth}`);
      if (t.removedAt !== undefined && at > t.removedAt) violations.push(`N2 ${id} told ${at - t.removedAt} ms after its removal`);
    }
    if (times.length > (chromeRepeatAllowed(o.desktop, id) ? 2 : 1)) violations.push(`N1 ${id} told ${times.length} times on its own`);
    const notifies = NOTIFYING_STATUSES.includes(truthEnd);
    const switchedOff = notifies && notify[SETTING_OF[truthEnd]!] === false;
    if (switchedOff && times.length > 0) violations.push(`N2 ${id} told although ${SETTING_OF[truthEnd]} is switched off`);
    const mutes = o.muteAsked.filter((m) => m.id === id);
    const mutedBeforeEnd = mutes.length > 0 && mutes.every((m) => m.muted && m.done !== undefined && m.done < finalAt);
    if (mutedBeforeEnd && times.length > 0) violations.push(`N2 ${id} muted before it ended, told ${times.length} times`);
    if (!notifies && times.length > 0) violations.push(`I3 ${id} told but ended ${truthEnd}`);
    if (notifies && !switchedOff && !mutedBeforeEnd) {
      if (o.removeAsked.has(id) || mutes.length > 0 || firefoxLoss) mayTell++;
      else {
        mustTell++;
        // Nothing held (no quiet hours, no snooze): told on its own, exactly once.
        if (!holds && times.length === 0) violations.push(`I3 ${id} ended ${truthEnd} and was never told`);
        if (!holds && !faultsOnDesktop && times.length === 1) {
          const visibleAt = service.intents.get(id)!.visibleAt ?? 0;
          const from = Math.max(finalAt, t.from, visibleAt);
          const limit = stalenessBound(ids.length, DEFAULT_TUNING) + 1_000;
          if (times[0]! - from > limit && !disturbed(from - limit, times[0]!))
            violations.push(`I3 ${id} told ${times[0]! - from} ms after it ended (limit ${limit})`);
        }
      }
    }
    // I4: a removed intent gets no further request and is never listed again.
    if (t.removedAt !== undefined) {
      const late = asked.find((e) => e.start > t.removedAt!);
      if (late) violations.push(`I4 ${id} asked (${late.op}) ${late.start - t.removedAt} ms after removal`);
      if (o.finalList.some((x) => x.intentId === id) || o.store.map.has(id)) violations.push(`I4 ${id} listed after removal`);
    }
    // I6: the first answer that showed the intent final is acted on at once.
    const finalWritten = o.phaseAt.get(id)?.get('final');
    const finalAnswers = [
      ...mine.filter((e) => e.outcome === 'answer' && isFinalStatus(e.status)).map((e) => e.end!),
      ...log
        .filter(
          (e) =>
            e.op === 'history' &&
            // The tracker's own pages (a look-up's or the watched check's page is not the tracker's to act on).
            (e.lane === undefined || e.lane === 'tracker') &&
            e.outcome === 'answer' &&
            e.finalRows?.some((r) => r.intentId === id && isFinalStatus(r.status)),
        )
        .map((e) => e.end!),
    ].filter((at) => at >= t.from && phase(id, at) === 'tracking' && (t.removedAt === undefined || at < t.removedAt));
    const first = Math.min(...finalAnswers);
    if (Number.isFinite(first) && !disturbed(first - 1, first + 1_000)) {
      if (finalWritten === undefined || finalWritten > first + 1_000)
        violations.push(
          `I6 ${id} final answer at +${first - T0} acted on at ${finalWritten === undefined ? 'never' : `+${finalWritten - T0}`}`,
        );
      else if (
        NOTIFYING_STATUSES.includes(service.stepAt(id, first).status) &&
        notify[SETTING_OF[service.stepAt(id, first).status]!] !== false &&
        t.removedAt === undefined &&
        mutes.length === 0 &&
        !holds &&
        !faultsOnDesktop &&
        !firefoxLoss &&
        !(times[0]! <= first + 1_000)
      ) {
        violations.push(`I6 ${id} final answer at +${first - T0} notified at ${times[0] === undefined ? 'never' : `+${times[0] - T0}`}`);
      }
    }
  }
  // N1, N2 in all: every intent that must be told was, on its own or as a line of an away summary; nothing more.
  for (const [id, n] of own) if (!o.tracked.has(id)) violations.push(`N2 ${id}, never tracked, told ${n} times`);
  const ownTotal = [...own.values()].reduce((x, y) => x + y, 0);
  const total = ownTotal + awayLines;
  if (total < mustTell) violations.push(`N1 told ${total} (own ${ownTotal} + summary lines ${awayLines}); at least ${mustTell} expected`);
  if (total > mustTell + mayTell + chromeRepeats(o.desktop))
    violations.push(`N1/N2 told ${total} (own ${ownTotal} + summary lines ${awayLines}); at most ${mustTell + mayTell} expected`);
  // The watched address: only its own intents are tracked, each soon after the history lists it.
  for (const x of o.finalList) if (!ids.includes(x.intentId)) violations.push(`W ${x.intentId}, a stranger's intent, tracked`);
  if (s.history && !s.history.ignoreOwner && !s.history.repeatCursor) {
    for (const id of o.watchedIds) {
      const f = service.intents.get(id)!;
      if (!f.inHistory || f.visibleAt === Number.POSITIVE_INFINITY || o.removeAsked.has(id)) continue;
      const from = Math.max(f.createdAt, f.visibleAt ?? 0, T0 + 30_000);
      const by = (o.tracked.get(id)?.from ?? o.end) - from;
      if (by > WATCHED_WITHIN_MS && !disturbed(from, from + by))
        violations.push(`W ${id} tracked by the watched check ${by} ms after it was listed`);
    }
  }
  // The user's look-ups go first in line: each is sent within 2 s of being asked.
  const userSent = log.filter((e) => e.lane === 'user').map((e) => e.start);
  for (const at of o.lookupsAsked) {
    const k = userSent.findIndex((start) => start >= at && start <= at + 2_000);
    const sent = k < 0 ? undefined : userSent.splice(k, 1)[0]!;
    if (sent === undefined && !disturbed(at, at + 2_000)) violations.push(`I5 a look-up asked at +${at - T0} not sent within 2 s`);
    // First in line: nothing else the worker sends goes before it once it is asked.
    const before = sent === undefined ? undefined : log.find((e) => e.lane !== 'user' && e.start > at && e.start < sent);
    if (before) violations.push(`I5 a ${before.lane} request went before the look-up asked at +${at - T0}`);
  }
}

/**
 * An in-memory store whose operations complete in call order after a short virtual delay, as IndexedDB
 * transactions on one object store do: writes of one engine can be in flight while others start.
 */
export class SerialStore extends MemoryStore {
  onWrite?: (id: string, before: TrackedIntent | undefined, after: TrackedIntent | undefined) => void;
  #tail: Promise<unknown> = Promise.resolve();
  constructor(readonly clock: Clock) {
    super();
  }
  #queue<T>(f: () => T): Promise<T> {
    const run = this.#tail.then(() => this.clock.sleep(1)).then(f);
    this.#tail = run.catch(() => {});
    return run;
  }
  override get(id: string) {
    return this.#queue(() => this.map.get(id));
  }
  override list() {
    return this.#queue(() => [...this.map.values()].sort((a, b) => b.addedAt - a.addedAt));
  }
  override put(t: TrackedIntent) {
    return this.#queue(() => {
      this.map.set(t.intentId, t);
    });
  }
  override update(id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    return this.#queue(() => {
      const before = this.map.get(id);
      const next = fn(before);
      if (next) {
        this.map.set(id, next);
        this.onWrite?.(id, before, next);
      }
      return next ?? this.map.get(id);
    });
  }
  override remove(id: string) {
    return this.#queue(() => {
      const before = this.map.get(id);
      this.map.delete(id);
      if (before) this.onWrite?.(id, before, undefined);
    });
  }
}
