/**
 * Calm notifications, the stateful part: a Notifier for the tracker that applies the policy of `./calm` over the
 * browser notifier — muted intents are skipped, notifications due during a snooze or quiet hours are held in the
 * calm state (IndexedDB) and released as one "while you were away" summary, and the optional progress notification
 * is kept up to date and turned into the final one.
 *
 * Exactly once: the tracker's delivery records an intent `shown` after `show` resolves. A held intent is written to
 * the calm state before `show` resolves, and `exists` answers true for it, so a worker restart never shows it on its
 * own; the summary is shown at most once (the held list is emptied before it is created). A progress notification
 * turned into the final one is recorded (`final`) before the update, likewise.
 */
import type { CalmState, CalmStateStore, NotifySettings, TrackedIntent } from '../store';
import { DEFAULT_NOTIFY } from '../store';
import type { Notifier } from '../tracker/types';
import { type BrowserNotifier, PROGRESS } from './browser';
import { awayContent, decideNotification, isQuietFor, isSnoozed, progressContent, releaseAt, SNOOZE_MS } from './calm';

/** What {@link createCalmNotifier} uses. */
export interface CalmNotifierDeps {
  /** The browser notifier that shows what the policy lets through. */
  inner: BrowserNotifier;
  state: CalmStateStore;
  /** Current notification settings (defaults when undefined or when the read fails). */
  settings: () => Promise<NotifySettings | undefined>;
  /** The tracked intent as the tracker holds it now. */
  intent: (intentId: string) => Promise<TrackedIntent | undefined>;
  /**
   * Sets the one alarm that releases held notifications at `at` (ms), or clears it (undefined). Must survive the
   * worker's sleep (`browser.alarms`).
   */
  scheduleRelease: (at: number | undefined) => Promise<void>;
  /** The calm state changed (to tell an open popup). */
  onChange?: () => void;
  now?: () => number;
}

/** The calm notifier: a Notifier for the tracker, plus what the popup and the worker's events ask of it. */
export interface CalmNotifier extends Notifier {
  showStuck(intent: TrackedIntent, minutes: number): Promise<void>;
  /** Mutes (or unmutes) one intent: no desktop notification for it; its progress notification is removed. */
  mute(intentId: string, muted: boolean): Promise<void>;
  /** Snoozes every notification for `ms` (default one hour) from now. */
  snooze(ms?: number): Promise<void>;
  /** Ends the snooze now, and releases what it held unless quiet hours still hold it. */
  endSnooze(): Promise<void>;
  /** Shows the summary of held notifications when nothing holds them any more; otherwise (re)sets the alarm. */
  release(): Promise<void>;
  /** Brings the progress notification of an intent up to date (called after its record changed). */
  progress(intentId: string): Promise<void>;
}

/** Creates the calm notifier. */
export function createCalmNotifier(deps: CalmNotifierDeps): CalmNotifier {
  const now = deps.now ?? Date.now;
  const { inner } = deps;
  const settings = () =>
    Promise.resolve()
      .then(deps.settings)
      .then(
        (s) => ({ ...DEFAULT_NOTIFY, ...(s ?? {}) }),
        () => DEFAULT_NOTIFY,
      );

  // Every read-modify-write of the calm state runs in turn (one worker, many callers).
  let queue: Promise<unknown> = Promise.resolve();
  const locked = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const save = async (state: CalmState) => {
    await deps.state.set(state);
    deps.onChange?.();
  };
  const dropProgress = async (state: CalmState, intentId: string) => {
    const mark = state.progress[intentId];
    if (!mark) return false;
    if (!mark.final) await inner.clear(mark.notificationId);
    delete state.progress[intentId];
    return true;
  };
  /** Sets the alarm for the held notifications (none when nothing is held and no snooze runs). */
  const schedule = async (state: CalmState, s: NotifySettings) => {
    const t = now();
    // While snoozed with nothing held, the alarm only ends the snooze: the popup shows it until then.
    await deps.scheduleRelease(state.held.length > 0 || isSnoozed(state, t) ? releaseAt(state, s, t) : undefined);
  };

  const release = () =>
    locked(async () => {
      const [state, s] = await Promise.all([deps.state.get(), settings()]);
      const t = now();
      let changed = false;
      if (state.snoozeUntil !== undefined && state.snoozeUntil <= t) {
        delete state.snoozeUntil;
        changed = true;
      }
      if (state.held.length === 0 || releaseAt(state, s, t) > t) {
        if (changed) await save(state);
        // Called on every wake-up: the alarm is only touched when there is something to end.
        if (changed || state.held.length > 0 || isSnoozed(state, t)) await schedule(state, s);
        return;
      }
      // A muted intent is never announced, not even in the summary.
      const due = state.held.filter((h) => !state.muted.includes(h.intentId));
      // Emptied before the summary is shown: at most once, even if the worker dies in between.
      await save({ ...state, held: [] });
      await deps.scheduleRelease(undefined);
      if (due.length > 0) await inner.showAway(awayContent(due));
    });

  return {
    async show(intent) {
      type Next = { kind: 'inner' } | { kind: 'done' } | { kind: 'in-place'; id: string };
      const next = await locked(async (): Promise<Next> => {
        const [state, s] = await Promise.all([deps.state.get(), settings()]);
        const decision = decideNotification(intent, s, state, now());
        const mark = state.progress[intent.intentId];
        if (decision === 'show' && mark && !mark.final && s.progress) {
          // Recorded before the update: a restart in between finds it shown (at most once).
          state.progress[intent.intentId] = { ...mark, final: true };
          await deps.state.set(state);
          return { kind: 'in-place', id: mark.notificationId };
        }
        const dropped = await dropProgress(state, intent.intentId);
        if (decision === 'show') {
          if (dropped) await deps.state.set(state);
          return { kind: 'inner' };
        }
        if (decision === 'hold' && !state.held.some((h) => h.intentId === intent.intentId)) {
          state.held.push({ intentId: intent.intentId, status: intent.status ?? 'UNKNOWN', heldAt: now() });
          await save(state);
          await schedule(state, s);
        } else if (dropped) await deps.state.set(state);
        return { kind: 'done' };
      });
      // Held or skipped: nothing was said (the tracker records it as dealt with all the same).
      if (next.kind === 'done') return undefined;
      if (next.kind === 'in-place') {
        const content = await inner.finalInPlace(next.id, intent);
        if (content) return content;
        // Gone from the screen (closed, or Firefox): the final notification is shown the ordinary way.
        await inner.clear(next.id);
        await locked(async () => {
          const state = await deps.state.get();
          delete state.progress[intent.intentId];
          await deps.state.set(state);
        });
      }
      // Outside the lock: the browser notifier's grouping window must see the notifications that come together.
      return inner.show(intent);
    },

    async exists(intentId) {
      const state = await deps.state.get();
      if (state.held.some((h) => h.intentId === intentId) || state.progress[intentId]?.final) return true;
      return inner.exists(intentId);
    },

    async showStuck(intent, minutes) {
      const [state, s] = await Promise.all([deps.state.get(), settings()]);
      // A stuck warning is news only now: it is skipped, not held.
      if (isQuietFor(intent.intentId, s, state, now())) return;
      await inner.showStuck(intent, minutes);
    },

    async forget(intentId) {
      await locked(async () => {
        const state = await deps.state.get();
        const before = JSON.stringify(state);
        await dropProgress(state, intentId);
        state.muted = state.muted.filter((id) => id !== intentId);
        state.held = state.held.filter((h) => h.intentId !== intentId);
        if (JSON.stringify(state) !== before) await save(state);
      });
      await inner.forget?.(intentId);
    },

    mute: (intentId, muted) =>
      locked(async () => {
        const state = await deps.state.get();
        state.muted = state.muted.filter((id) => id !== intentId);
        if (muted) {
          state.muted.push(intentId);
          await dropProgress(state, intentId);
        }
        await save(state);
      }),

    snooze: (ms = SNOOZE_MS) =>
      locked(async () => {
        const [state, s] = await Promise.all([deps.state.get(), settings()]);
        state.snoozeUntil = now() + ms;
        await save(state);
        await schedule(state, s);
      }),

    async endSnooze() {
      await locked(async () => {
        const [state, s] = await Promise.all([deps.state.get(), settings()]);
        delete state.snoozeUntil;
        await save(state);
        await schedule(state, s);
      });
      await release();
    },

    release,

    async progress(intentId) {
      // Called after every change of every record: off (the default) costs one settings read, and no turn in the lock.
      if (!(await settings()).progress) return;
      await locked(async () => {
        const s = await settings();
        if (!s.progress) return;
        const [state, intent] = await Promise.all([deps.state.get(), deps.intent(intentId)]);
        const mark = state.progress[intentId];
        // Only intents in flight; a final one is the show() path's business.
        if (intent?.phase !== 'tracking' || intent.notification !== 'none' || !intent.receipt || mark?.final) return;
        if (isQuietFor(intentId, s, state, now())) return;
        const content = progressContent(intent);
        const text = `${content.title}\n${content.message}`;
        if (mark?.message === text) return;
        const id = mark?.notificationId ?? `${PROGRESS}${intentId}:${now()}`;
        await inner.showProgress(id, content, mark !== undefined);
        state.progress[intentId] = { notificationId: id, message: text };
        await deps.state.set(state);
      });
    },
  };
}
