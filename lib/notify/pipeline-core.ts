/**
 * What every entry point of the notification pipeline shares (`./pipeline-events`, `./pipeline-calm`): its
 * dependencies, the clock, the settings as last read, the one lock every decision that writes runs under, the calm
 * state's writes and its release alarm, and the outbox's delivery (`./delivery`).
 */
import type { CalmState, CalmStateStore, NotifySettings, TrackedIntent } from '../store';
import type { Outbox } from '../store/outbox';
import type { NotificationAdapter } from './browser';
import { isSnoozed, releaseAt } from './calm';
import { OutboxDelivery } from './delivery';
import { rememberedSettings } from './settings-memory';
import type { ShownMarks } from './shown-marks';

/** What the pipeline uses (`./pipeline`'s `createNotificationPipeline`). */
export interface PipelineDeps {
  adapter: NotificationAdapter;
  outbox: Outbox;
  /** Mute and snooze (IndexedDB, beside the settings). */
  state: CalmStateStore;
  /**
   * Current notification settings (defaults when undefined). A failed read gives the last ones read in this life;
   * with none, nothing is decided until a read succeeds (`./settings-memory`).
   */
  settings: () => Promise<NotifySettings | undefined>;
  /** The tracked intent as the tracker holds it now. */
  intent: (intentId: string) => Promise<TrackedIntent | undefined>;
  /** Sets the one alarm that releases held notifications at `at` (ms), or clears it (undefined). Must survive sleep. */
  scheduleRelease: (at: number | undefined) => Promise<void>;
  /** The calm state changed (to tell an open popup). */
  onChange?: () => void;
  now?: () => number;
  /**
   * Monotonic time (ms; default `now`): the grouping window is timed on it, so that a jump of the wall clock never
   * holds a grouped notification for the length of the jump.
   */
  monotonic?: () => number;
  /**
   * Window (ms) during which further final notifications are grouped (default 300: what a history page reveals
   * arrives within it; a longer window only delays the grouped ones, which go at its end).
   */
  groupWindowMs?: number;
  /**
   * The widest window (ms) in a burst (default 2,000): each window that follows a grouping one closely is twice as
   * long, up to this (`./decide`'s `groupFlushAt`), so that thousands finishing make a few notifications a second at
   * most, not one per window.
   */
  groupMaxWindowMs?: number;
  /** Grouped ones go once none has come for this long (ms), once per window (default 100). */
  groupQuietMs?: number;
  /** Runs `fn` after `ms` (the grouping flush; default setTimeout). */
  groupTimer?: (fn: () => void, ms: number) => void;
  /** Runs `fn` after `ms` (a retry after a rejected call; default setTimeout). */
  retryTimer?: (fn: () => void, ms: number) => void;
  /**
   * "Shown" recorded outside IndexedDB (`./shown-marks`): written when a showing call resolved, read for a job found
   * `showing` before the screen is asked, so that a notification the user closed is not shown again when the outbox
   * could not record it. None: the screen alone decides.
   */
  shownMarks?: ShownMarks;
}

/** What the pipeline's entry points share (see the module's docstring). */
export interface PipelineCore {
  deps: PipelineDeps;
  /** Wall-clock time (ms). */
  now: () => number;
  /** The notification settings; a failed read gives the last ones read in this life (`./settings-memory`). */
  settings: () => Promise<NotifySettings>;
  delivery: OutboxDelivery;
  /** Runs `fn` after every earlier one: each read-modify-write of the calm state and each decision that writes jobs. */
  locked<T>(fn: () => Promise<T>): Promise<T>;
  /** Writes the calm state and tells `onChange`. */
  saveCalm(state: CalmState): Promise<void>;
  /** Sets the release alarm (`held`: jobs are held), or clears it when nothing is held and no snooze runs. */
  schedule(state: CalmState, s: NotifySettings, held: boolean): Promise<void>;
  /** The next sequence number of an information notification in this life. */
  nextInfoSeq(): number;
}

/**
 * Builds the shared part of a pipeline on `deps` (defaults: `Date.now`, `setTimeout`, a 300 ms / 100 ms grouping
 * widening to 2 s in a burst).
 */
export function createPipelineCore(deps: PipelineDeps): PipelineCore {
  const now = deps.now ?? Date.now;
  const windowMs = deps.groupWindowMs ?? 300;
  // A failed read gives the last settings read in this life, never the defaults (./settings-memory).
  const settings = rememberedSettings(() => Promise.resolve().then(deps.settings));
  const delivery = new OutboxDelivery({
    adapter: deps.adapter,
    outbox: deps.outbox,
    settings,
    now,
    monotonic: deps.monotonic ?? now,
    windowMs,
    // Never narrower than the calm window (a test's longer window would otherwise shrink in a burst).
    maxWindowMs: Math.max(deps.groupMaxWindowMs ?? 2_000, windowMs),
    quietMs: deps.groupQuietMs ?? 100,
    groupTimer: deps.groupTimer ?? ((fn, ms) => void setTimeout(fn, ms)),
    retryTimer: deps.retryTimer ?? ((fn, ms) => void setTimeout(fn, ms)),
    shownMarks: deps.shownMarks,
    intent: deps.intent,
    muted: async () => (await deps.state.get()).muted,
  });
  let queue: Promise<unknown> = Promise.resolve();
  let infoSeq = 0;
  const saveCalm = async (state: CalmState) => {
    await deps.state.set(state);
    deps.onChange?.();
  };
  return {
    deps,
    now,
    settings,
    delivery,
    locked<T>(fn: () => Promise<T>): Promise<T> {
      const run = queue.then(fn, fn);
      queue = run.catch(() => {});
      return run;
    },
    saveCalm,
    async schedule(state, s, held) {
      const t = now();
      // While snoozed with nothing held, the alarm only ends the snooze: the popup shows it until then.
      await deps.scheduleRelease(held || isSnoozed(state, t) ? releaseAt(state, s, t) : undefined);
    },
    nextInfoSeq: () => infoSeq++,
  };
}
