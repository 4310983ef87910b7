/**
 * What the engine's parts share (lib/tracker/engine.ts, ./pump, ./requests): the dependencies, the in-memory
 * mirror, the requests in flight, the sweeper's pace and the watchdogs' memory of fresh answers. One per engine;
 * only the engine and its parts read or write it.
 */
import type { TrackedIntent, TrackerState } from '../store';
import type { Clock } from '../time/clock';
import { Delivery } from './delivery';
import { BoundedRead } from './load-bound';
import { IntentMirror } from './mirror';
import { NewsPace } from './news-pace';
import { TrackerPause } from './pause';
import { RefreshWaiters } from './refresh-waiters';
import { LongPollBudget } from './scheduler';
import { ServiceClock } from './service-clock';
import { HistorySweeper } from './sweeper';
import { steadyClock } from './tracker-time';
import { DEFAULT_TUNING, type TrackerDeps, type TrackerTuning } from './types';

/** A request in flight: a long-poll (`wait`), a single read (`receipt`) or a history page (`batch`, key ''). */
export type CheckKind = 'wait' | 'receipt';

/** The engine's shared state. */
export interface EngineCore {
  readonly deps: TrackerDeps;
  /** The tracker's time: wall time at start plus monotonic time since (never jumps; ./tracker-time). */
  readonly clock: Clock;
  /** When this engine (this worker's life) started, on {@link EngineCore.clock} (ms): what it serves of a NotFound grace counts from here. */
  readonly startedAt: number;
  readonly tuning: TrackerTuning;
  readonly mirror: IntentMirror;
  readonly delivery: Delivery;
  readonly sweeper: HistorySweeper;
  /** The long-poll slots' budget of long-polls that learn nothing. */
  readonly longPolls: LongPollBudget;
  readonly serviceClock: ServiceClock;
  /** The Retry-After pause and a rejected key. */
  readonly pause: TrackerPause;
  /**
   * The load's two reads, each bounded per attempt (./load-bound): the tracked intents (into the mirror) and the
   * state a previous worker left (into the pause); each first answer is taken once, and a late one kicks the engine.
   */
  readonly reads: { intents: BoundedRead<TrackedIntent[]>; state: BoundedRead<TrackerState | undefined> };
  /** Intents the user asked to read now, and who waits for the answer. */
  readonly refresh: RefreshWaiters;
  /** States each intent's answers showed (oldest first): a state coming back is not news (flapping). */
  readonly seen: Map<string, string[]>;
  /** How often each intent's answers may count as news (a status cycling through many states is not news each time). */
  readonly newsPace: NewsPace;
  /** Intents whose `done` without a final status was logged (once each, not on every answer). */
  readonly doneLogged: Set<string>;
  /** Requests in flight, by intentId (the history page uses the key ''). */
  readonly inFlight: Map<string, { kind: CheckKind | 'batch'; controller: AbortController }>;
  /**
   * Per intent, when (monotonic ms) this engine last had an answer that showed the status it believes: the only
   * answers a watchdog acts on (I2). Each answer takes it back as it arrives and sets it again once written: a stale
   * answer (a status behind) never counts, nor does one whose write the store refused, nor a previous worker's
   * `lastCheckedAt`, whose wall time a jump between the two lives may have made look recent.
   */
  readonly confirmedAt: Map<string, number>;
  /** Per intent, the answers (their `confirmedAt`) on which the expiry watchdog would expire it, in a row. */
  readonly expiryVotes: Map<string, Set<number>>;
  /**
   * Per intent, the pace its last refused write would have kept (when it was last heard, its pause before the next
   * long-poll, its back-off; ms, {@link EngineCore.clock}): held for this worker life and seen by the scheduler, so
   * that on a disk that stays full the intent is not asked again at once, over and over (I5).
   */
  readonly heldPace: Map<string, HeldPace>;
  sweeping: boolean;
  nextSweepAt: number;
  nextIndividualAt: number;
  lastPageAt: number;
  /** Until then (ms) the tracker is busy: an answer changed something lately, the sweeper keeps a fast pace. */
  busyUntil: number;
  /** An answer arrived since this engine started: its `Date` header (if readable) set the service clock. */
  heard: boolean;
  stopped: boolean;
  /** Schedules a pump (coalesced; ./pump `PumpLoop`). */
  kick: () => void;
  /** Wakes the engine at `at` (ms) unless it is already woken earlier. */
  wakeAt: (at: number) => void;
}

/** The fields of a {@link TrackedIntent} that decide when it is asked next. */
export type HeldPace = Pick<TrackedIntent, 'lastCheckedAt' | 'nextCheckAt' | 'retry' | 'lastError'>;

/** A fresh core for `deps` (tuning overrides applied); `kick` and `wakeAt` do nothing until the pump loop is set. */
export function createCore(deps: TrackerDeps): EngineCore {
  const clock = steadyClock(deps.clock);
  const tuning = { ...DEFAULT_TUNING };
  for (const key of Object.keys(DEFAULT_TUNING) as Array<keyof TrackerTuning>) {
    if (deps[key] !== undefined) tuning[key] = deps[key];
  }
  const mirror = new IntentMirror(deps.store, deps.onChange);
  const pause = new TrackerPause({ stateStore: deps.stateStore, onStateChange: deps.onStateChange, wall: deps.clock, steady: clock });
  const onLate = () => core.kick();
  const core: EngineCore = {
    deps,
    clock,
    startedAt: clock.now(),
    tuning,
    mirror,
    delivery: new Delivery(mirror, deps.notifier, clock),
    sweeper: new HistorySweeper(tuning.maxBatchPages),
    longPolls: new LongPollBudget(tuning.maxConcurrent - 1, tuning.longPollsPerMinute, clock.now()),
    serviceClock: deps.serviceClock ?? new ServiceClock(deps.clock),
    pause,
    reads: {
      intents: new BoundedRead(() => deps.store.list(), clock, { apply: (all) => mirror.adopt(all), onLate }),
      state: new BoundedRead(async () => deps.stateStore?.get(), clock, { apply: (state) => pause.loaded(state), onLate }),
    },
    refresh: new RefreshWaiters(),
    seen: new Map(),
    newsPace: new NewsPace(),
    doneLogged: new Set(),
    inFlight: new Map(),
    confirmedAt: new Map(),
    expiryVotes: new Map(),
    heldPace: new Map(),
    sweeping: false,
    nextSweepAt: 0,
    nextIndividualAt: 0,
    lastPageAt: Number.NEGATIVE_INFINITY,
    busyUntil: 0,
    heard: false,
    stopped: false,
    kick: () => {},
    wakeAt: () => {},
  };
  return core;
}

/** The intents being tracked (phase `tracking`), as the mirror holds them. */
export function trackingOf(c: EngineCore): TrackedIntent[] {
  return c.mirror.values().filter((t) => t.phase === 'tracking');
}

/** `t` as the scheduler and a check must see it: a pace whose write was refused ({@link EngineCore.heldPace}) still holds. */
export function pacedAsHeld<T extends TrackedIntent | undefined>(c: EngineCore, t: T): T {
  if (!t) return t;
  const held = c.heldPace.get(t.intentId);
  return held && (held.lastCheckedAt ?? 0) >= (t.lastCheckedAt ?? 0) ? { ...t, ...held } : t;
}
