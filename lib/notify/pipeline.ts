/**
 * The notification pipeline: every desktop notification of the extension about an intent — a final outcome (alone,
 * grouped, or as its progress notification turned final), the progress notification, the "while you were away"
 * summary, "taking longer than expected" — and every plain information notification (what a user's action did) goes
 * through here. `./decide` says what to do with each event (show now ·
 * hold · update in place · skip); the outbox (`lib/store/outbox`, IndexedDB) keeps one job per notification with
 * its state; the adapter (`./browser`) makes the `browser.notifications` calls.
 *
 * Rules that make "told once, never missed" hold (README, N1–N5):
 * - A job is written before any call that shows it, with the notification id it will use: a retry or a restarted
 *   worker replays the same call, never a new one. Its state moves on only after what the state records happened.
 * - A rejected call leaves the job where it was, to be tried again with back-off (1 s doubling, at most 60 s), on
 *   every wake-up of the worker (the 30 s watchdog), and at once when a job is added. Nothing is dropped.
 * - A job found `showing` (the worker died in the call, or could not record its end) is settled by asking the
 *   browser: a mark outside IndexedDB (`./shown-marks`, written when the call resolved) says it was shown; else
 *   Chrome lists what is on screen (`getAll`); an id it lists was shown. Firefox cannot tell: there a job
 *   `showing` counts as shown (at most once, the window being the `create` call itself).
 * - The tracker's delivery asks `exists(intentId)` before `show`: true as soon as the intent has a final job in any
 *   state (held, queued, shown, summarised, skipped), so a record that stayed `pending` (its write failed, or the
 *   worker died) never makes a second notification: the outbox finishes what it started.
 * - Held jobs become lines of one away job in one outbox write: a line is in the summary or the intent has its own
 *   notification, never both, never neither.
 */

import { t as words } from '../i18n';
import type { CalmState, CalmStateStore, NotifySettings, TrackedIntent } from '../store';
import type { NotificationJob, Outbox } from '../store/outbox';
import { AWAY, CHAIN, GROUP, INFO, type NotificationAdapter, PROGRESS, SINGLE, STUCK } from './browser';
import { awayContent, isSnoozed, progressContent, releaseAt, SNOOZE_MS } from './calm';
import type { ChainNotice } from './chain';
import { groupContentOf, groupLine, type NotificationContent, notificationContent, outcomeExplorerUrl, stuckContent } from './content';
import { decide, type GroupWindow, groupFlushAt } from './decide';
import type { Notifier } from './notifier';
import { rememberedSettings } from './settings-memory';
import type { ShownMarks } from './shown-marks';

/** What {@link createNotificationPipeline} uses. */
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

/** The pipeline: the tracker's Notifier, plus what the popup and the worker's events ask of it. */
export interface NotificationPipeline extends Notifier {
  /**
   * Queues the stuck warning of an intent as an outbox job (`stuck:<intentId>`, one per intent: queued again, it is
   * not shown again) unless switched off, muted, snoozed or in quiet hours; resolves once the job is written (or
   * skipped), delivery follows; rejects when the outbox cannot be written. `stillDue` false when the turn comes:
   * nothing queued, resolves `false`.
   */
  showStuck(intent: TrackedIntent, minutes: number, stillDue?: () => boolean): Promise<unknown>;
  /**
   * Queues a disagreement between a chain and the service about one intent (`./chain`) as an outbox job under its
   * own key (`chain:<intentId>:<kind>:<leg>`; a key already there is not queued again), unless `./decide` skips it;
   * held by a snooze or quiet hours (urgent ones) until they end. Shown as `svc-chain:<intentId>:<ms>` with "View
   * receipt"; a click opens the intent's receipt. Resolves once the job is written (or skipped); rejects when the
   * outbox cannot be written.
   */
  showChain(notice: ChainNotice): Promise<void>;
  /**
   * Shows a plain information notification (`message` under the extension's name; what a user's own action did, e.g.
   * the context menu's "Track intent"), as an outbox job like the others: retried until shown, shown once. Not held
   * by a snooze or quiet hours (it answers the user's action), no buttons, a click opens nothing. Resolves with its
   * notification id (`svc-info:<ms>:<n>`) after the first attempt to show it (shown, or rejected and left to the
   * retries); rejects when the outbox cannot be written.
   */
  inform(message: string): Promise<string>;
  /** Mutes (or unmutes) one intent: no desktop notification for it; its progress notification is removed. */
  mute(intentId: string, muted: boolean): Promise<void>;
  /** Snoozes every notification for `ms` (default one hour) from now. */
  snooze(ms?: number): Promise<void>;
  /** Ends the snooze now, and releases what it held unless quiet hours still hold it. */
  endSnooze(): Promise<void>;
  /** Turns held jobs into the away summary when nothing holds them any more (otherwise (re)sets the alarm); delivers. */
  release(): Promise<void>;
  /** Brings the progress notification of an intent up to date (called after its record changed). */
  progress(intentId: string): Promise<void>;
  /** Every start and wake-up: releases what is due and delivers every job left unfinished. */
  resume(): Promise<void>;
  /**
   * The explorer link ("Open in explorer") the notification `notificationId` was shown with, from its outbox job —
   * kept when its intent was removed since (`forget`); undefined when none is known.
   */
  explorerLinkOf(notificationId: string): Promise<string | undefined>;
}

/** The former name of the pipeline's interface (mute, snooze, quiet hours, progress). */
export type CalmNotifier = NotificationPipeline;

/** Back-off after `attempts` rejected calls (ms): 1 s doubling, at most 60 s. */
export function retryDelay(attempts: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * True when job `j` may be tried at wall time `t` (ms): its `nextAt` has come, or — for a job waiting out a back-off
 * (`attempts` > 0) — lies further ahead than that back-off could set it (`retryDelay(attempts)`): the wall clock went
 * back since it was written, and the wait is not stretched by the jump (docs/time.md). A job not yet tried whose
 * `nextAt` is ahead (an on-chain warning held until a snooze or quiet hours end) waits for it.
 */
export function isDue(j: Pick<NotificationJob, 'nextAt' | 'attempts'>, t: number): boolean {
  return j.nextAt <= t || (j.attempts > 0 && j.nextAt - t > retryDelay(j.attempts));
}

const finalKey = (intentId: string) => `final:${intentId}`;
const progressKey = (intentId: string) => `progress:${intentId}`;
const stuckKey = (intentId: string) => `stuck:${intentId}`;
const infoKey = (at: number, n: number) => `info:${at}:${n}`;
/** A removed intent's final job, kept for its link only. */
const goneKey = (intentId: string) => `gone:${intentId}`;
const active = (j: NotificationJob | undefined) => j !== undefined && j.state !== 'done';
const contentOf = (j: NotificationJob): NotificationContent => ({ title: j.title ?? '', message: j.message ?? '' });

/** Creates the pipeline. */
export function createNotificationPipeline(deps: PipelineDeps): NotificationPipeline {
  const now = deps.now ?? Date.now;
  const monotonic = deps.monotonic ?? now;
  const { adapter, outbox } = deps;
  const windowMs = deps.groupWindowMs ?? 300;
  const quietMs = deps.groupQuietMs ?? 100;
  const groupTimer = deps.groupTimer ?? ((fn, ms) => void setTimeout(fn, ms));
  const retryTimer = deps.retryTimer ?? ((fn, ms) => void setTimeout(fn, ms));
  // A failed read gives the last settings read in this life, never the defaults (./settings-memory).
  const settings = rememberedSettings(() => Promise.resolve().then(deps.settings));

  // Every read-modify-write of the calm state, and every decision that writes jobs, runs in turn.
  let queue: Promise<unknown> = Promise.resolve();
  const locked = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  const saveCalm = async (state: CalmState) => {
    await deps.state.set(state);
    deps.onChange?.();
  };

  /** Notification ids whose showing call resolved in this worker's life (a failed write of `shown` is retried). */
  const shownHere = new Set<string>();
  /** Notification ids whose `create` was rejected in this life: nothing is on screen, the job is queued again. */
  const createRejected = new Set<string>();
  /** Final jobs waiting for the grouping flush (this life only: after a restart they go at once, together). */
  const grouping = new Set<string>();
  let window: GroupWindow = { endsAt: 0, quietSpent: false };
  let infoSeq = 0;
  let flushToken = 0;
  const waiters = new Map<string, Array<() => void>>();
  const wakeWaiters = (keys: readonly string[]) => {
    for (const k of keys) {
      const list = waiters.get(k);
      waiters.delete(k);
      for (const w of list ?? []) w();
    }
  };
  const waitFor = (key: string) =>
    new Promise<void>((resolve) => {
      const list = waiters.get(key) ?? [];
      list.push(resolve);
      waiters.set(key, list);
    });

  /** Records outside IndexedDB that `id` was shown (best effort: the outbox's `shown` write follows). */
  const mark = (id: string) => deps.shownMarks?.add(id).catch(() => {});

  /** Writes `patch` over the jobs `keys` (those still there). */
  const patch = (keys: readonly string[], p: Partial<NotificationJob>) =>
    outbox.update((jobs) => {
      for (const k of keys) if (jobs[k]) jobs[k] = { ...jobs[k]!, ...p };
      return jobs;
    });

  const setShown = (keys: readonly string[]) => patch(keys, { state: 'shown', attempts: 0 });

  /** Final jobs shown together as one notification: one line each, or the single one's own words and buttons. */
  const contentOfBatch = (batch: readonly NotificationJob[]): NotificationContent =>
    batch.length === 1 ? contentOf(batch[0]!) : groupContentOf(batch.map((j) => ({ status: j.status, line: j.line ?? '' })));

  /** Creates `id` for `batch` (already written `showing` with it), then records them shown. */
  const createFor = async (id: string, batch: readonly NotificationJob[], s: NotifySettings) => {
    const one = batch.length === 1 ? batch[0]! : undefined;
    const content = contentOfBatch(batch);
    try {
      await adapter.create(id, content, { sound: one?.kind === 'progress' ? false : s.sound, explorer: one?.explorerUrl !== undefined });
    } catch (err) {
      createRejected.add(id);
      throw err;
    }
    createRejected.delete(id);
    shownHere.add(id);
    await mark(id);
    await setShown(batch.map((j) => j.key));
  };

  /** The final notification of `job` in place of its progress notification (Chrome); created anew when it is gone. */
  const inPlace = async (job: NotificationJob, s: NotifySettings) => {
    const id = job.replaces!;
    if (await adapter.update(id, contentOf(job), { sound: s.sound, explorer: job.explorerUrl !== undefined })) {
      shownHere.add(id);
      await mark(id);
      await setShown([job.key]);
      return;
    }
    // No longer on screen (the user closed the progress notification): the ordinary way.
    const single = `${SINGLE}${job.intentIds[0]}:${now()}`;
    await patch([job.key], { state: 'showing', notificationId: single, replaces: undefined });
    await createFor(single, [{ ...job, notificationId: single }], s);
  };

  /** One step of an unfinished job (final jobs of a batch go through `showBatch`). */
  const step = async (job: NotificationJob, siblings: readonly NotificationJob[], s: NotifySettings) => {
    switch (job.state) {
      case 'clearing': {
        const id = job.kind === 'progress' ? job.notificationId : job.replaces;
        if (id) await adapter.clear(id);
        if (job.kind === 'final') {
          await patch([job.key], { state: 'queued', replaces: undefined });
          await showBatch([{ ...job, state: 'queued', replaces: undefined }], s);
        } else await patch([job.key], { state: 'done', reason: 'cleared' });
        return;
      }
      case 'queued': {
        if (job.kind === 'final' && job.replaces) {
          // Chrome turns the progress notification into the final one; Firefox (no update) clears it first.
          if (adapter.firefox) {
            await patch([job.key], { state: 'clearing' });
            await step({ ...job, state: 'clearing' }, [], s);
            return;
          }
          await patch([job.key], { state: 'showing', notificationId: job.replaces });
          await inPlace(job, s);
          return;
        }
        await showBatch([job], s);
        return;
      }
      case 'showing': {
        const id = job.notificationId!;
        const batch = siblings.length > 0 ? siblings : [job];
        if (shownHere.has(id)) {
          await setShown(batch.map((j) => j.key));
          return;
        }
        // Its create was rejected in this life: nothing is on screen, whatever the record says (the write that would
        // have queued it again was refused). Created again, rather than taken for shown (Firefox) — desktop campaign,
        // 2026-11-24: the away summary lost after a rejected create and a refused write.
        if (createRejected.has(id)) {
          await createFor(id, batch, s);
          return;
        }
        // Shown in an earlier life whose outbox write was refused: the user may have closed it since.
        if (await deps.shownMarks?.has(id)) {
          shownHere.add(id);
          await setShown(batch.map((j) => j.key));
          return;
        }
        const screen = await adapter.onScreen();
        // Firefox cannot tell: the call may have shown it, so it counts as shown (at most once).
        if (screen === undefined) {
          await setShown(batch.map((j) => j.key));
          return;
        }
        if (job.kind === 'final' && job.replaces) {
          await inPlace(job, s);
          return;
        }
        if (screen.has(id)) {
          shownHere.add(id);
          await setShown(batch.map((j) => j.key));
          return;
        }
        await createFor(id, batch, s);
        return;
      }
      default:
        return;
    }
  };

  /** Shows queued final (or away, stuck) jobs: one notification for one job, one summary for several finals. */
  const showBatch = async (batch: readonly NotificationJob[], s: NotifySettings) => {
    const first = batch[0]!;
    const t = now();
    const id =
      first.kind === 'away'
        ? `${AWAY}${first.key.slice('away:'.length)}`
        : first.kind === 'info'
          ? `${INFO}${first.key.slice('info:'.length)}`
          : first.kind === 'stuck' || first.kind === 'chain'
            ? `${first.kind === 'stuck' ? STUCK : CHAIN}${first.intentIds[0]}:${t}`
            : batch.length === 1
              ? `${SINGLE}${first.intentIds[0]}:${t}`
              : `${GROUP}${t}:${batch.map((j) => j.intentIds[0]).join(',')}`;
    const keys = batch.map((j) => j.key);
    await patch(keys, { state: 'showing', notificationId: id });
    await createFor(
      id,
      batch.map((j) => ({ ...j, notificationId: id })),
      s,
    );
  };

  /** After a rejected call or a failed write: try again later; a rejected create leaves nothing on screen. */
  const backOff = async (keys: readonly string[]) => {
    const t = now();
    await outbox
      .update((jobs) => {
        for (const k of keys) {
          const j = jobs[k];
          if (!j || j.state === 'shown' || j.state === 'done') continue;
          const attempts = j.attempts + 1;
          const shown = j.notificationId !== undefined && shownHere.has(j.notificationId);
          // A `showing` job whose create was rejected here is queued again (Firefox would take it as shown); any
          // other failure (getAll, update, a write) leaves it `showing`: the retry asks the screen again.
          const rejected = j.state === 'showing' && j.notificationId !== undefined && createRejected.has(j.notificationId);
          const state = shown ? 'shown' : rejected ? 'queued' : j.state;
          jobs[k] = { ...j, state, attempts, nextAt: t + retryDelay(attempts) };
        }
        return jobs;
      })
      .catch(() => {});
  };

  let running: Promise<void> | undefined;
  let again = false;
  let retryAt = Number.POSITIVE_INFINITY;
  /** Delivers every unfinished job that is due; one run at a time (a call during a run asks for another). */
  const pump = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await drain().catch((err) => console.error('notification outbox', err instanceof Error ? err.message : err));
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const drain = async () => {
    const [jobs, s] = await Promise.all([outbox.all(), settings()]);
    const t = now();
    const open = Object.values(jobs)
      .filter((j) => (j.state === 'queued' || j.state === 'clearing' || j.state === 'showing') && !grouping.has(j.key))
      .filter((j) => j.kind !== 'progress' || j.state === 'clearing')
      .sort((a, b) => a.at - b.at);
    const due = open.filter((j) => isDue(j, t));
    // Queued finals go together: one notification, or one summary of several.
    const batch = due.filter((j) => j.kind === 'final' && j.state === 'queued' && !j.replaces);
    const seen = new Set<string>();
    const units: Array<{ keys: string[]; run: () => Promise<void> }> = [];
    if (batch.length > 0) units.push({ keys: batch.map((j) => j.key), run: () => showBatch(batch, s) });
    for (const j of due) {
      if (batch.includes(j) || seen.has(j.key)) continue;
      const siblings =
        j.state === 'showing' && j.kind === 'final' && !j.replaces
          ? due.filter((o) => o.kind === 'final' && o.state === 'showing' && o.notificationId === j.notificationId)
          : [];
      for (const o of siblings) seen.add(o.key);
      units.push({ keys: siblings.length > 0 ? siblings.map((o) => o.key) : [j.key], run: () => step(j, siblings, s) });
    }
    for (const unit of units) {
      try {
        await unit.run();
      } catch (err) {
        console.error('notification failed', unit.keys.join(' '), err instanceof Error ? err.message : err);
        await backOff(unit.keys);
      } finally {
        wakeWaiters(unit.keys);
      }
    }
    const after = await outbox.all().catch(() => ({}) as Record<string, NotificationJob>);
    // Whoever waits for a job that is settled, skipped or waiting for its retry is told.
    for (const k of [...waiters.keys()]) {
      const j = after[k];
      if (grouping.has(k)) continue;
      if (!j || !(j.state === 'queued' || j.state === 'clearing' || j.state === 'showing') || !isDue(j, now())) wakeWaiters([k]);
    }
    // The earliest retry still to come.
    const later = Object.values(after)
      .filter((j) => (j.state === 'queued' || j.state === 'clearing' || j.state === 'showing') && !isDue(j, now()))
      .map((j) => j.nextAt);
    const next = Math.min(...later);
    if (Number.isFinite(next) && next < retryAt) {
      retryAt = next;
      retryTimer(
        () => {
          retryAt = Number.POSITIVE_INFINITY;
          void pump();
        },
        Math.max(0, next - now()),
      );
    }
  };

  /**
   * Decides when the final job `key`, shown at `t`, goes (`./decide`'s grouping rule): at once (undefined), or held
   * in `grouping` until the flush it returns.
   */
  const holdForGroup = (key: string): { at: number; early: boolean } | undefined => {
    const t = monotonic();
    const g = groupFlushAt(window, grouping.size, t, windowMs, quietMs);
    window = g.window;
    if (g.at <= t) return undefined;
    grouping.add(key);
    return { at: g.at - t, early: g.early };
  };
  /** Sets the grouping flush (a later one replaces it). */
  const armFlush = (f: { at: number; early: boolean }) => {
    const token = ++flushToken;
    groupTimer(() => {
      if (token !== flushToken) return;
      if (f.early) window = { ...window, quietSpent: true };
      grouping.clear();
      void pump();
    }, f.at);
  };

  const schedule = async (state: CalmState, s: NotifySettings, held: boolean) => {
    const t = now();
    // While snoozed with nothing held, the alarm only ends the snooze: the popup shows it until then.
    await deps.scheduleRelease(held || isSnoozed(state, t) ? releaseAt(state, s, t) : undefined);
  };

  /**
   * Held notifications kept by the version before the outbox (in the calm state) become held jobs, then leave the
   * calm state: written in that order, so a worker dying in between only repeats the first write (a job is added
   * only when the intent has none). Its progress marks are dropped: those notifications stay as they are on screen.
   */
  const adoptLegacyHeld = async (state: CalmState, t: number) => {
    const legacy = state.held ?? [];
    if (legacy.length === 0 && Object.keys(state.progress ?? {}).length === 0) return outbox.all();
    const jobs = await outbox.update((all) => {
      for (const h of legacy) {
        const key = finalKey(h.intentId);
        if (all[key]) continue;
        all[key] = { key, kind: 'final', state: 'held', intentIds: [h.intentId], status: h.status, attempts: 0, nextAt: t, at: h.heldAt };
      }
      return all;
    });
    state.held = [];
    state.progress = {};
    await saveCalm(state);
    return jobs;
  };

  const release = async () => {
    await locked(async () => {
      const [state, s] = await Promise.all([deps.state.get(), settings()]);
      const t = now();
      const jobs = await adoptLegacyHeld(state, t);
      let changed = false;
      if (state.snoozeUntil !== undefined && state.snoozeUntil <= t) {
        delete state.snoozeUntil;
        changed = true;
      }
      const held = Object.values(jobs).filter((j) => j.kind === 'final' && j.state === 'held');
      if (changed) await saveCalm(state);
      if (decide({ kind: 'away' }, s, state, t) === 'hold') {
        // Called on every wake-up: the alarm is only touched when there is something to end.
        if (changed || held.length > 0 || isSnoozed(state, t)) await schedule(state, s, held.length > 0);
        return;
      }
      if (held.length > 0) {
        // One write: each held intent becomes a line of the away summary (or is skipped, muted meanwhile).
        const due = held.filter((h) => !state.muted.includes(h.intentIds[0]!));
        const away = awayContent(due.map((h) => ({ intentId: h.intentIds[0]!, status: h.status ?? 'UNKNOWN', heldAt: h.at })));
        // Its key (and notification id) names its first intent: two summaries made in the same millisecond, in one
        // life or two, never share a job or a notification (each intent is summarised once).
        const awayKey = due.length > 0 ? `away:${t}:${due[0]!.intentIds[0]}` : '';
        await outbox.update((all) => {
          for (const h of held) {
            if (all[h.key]?.state !== 'held') continue;
            all[h.key] = { ...all[h.key]!, state: 'done', reason: due.includes(h) ? `summarised:${awayKey}` : 'skipped' };
          }
          if (due.length > 0)
            all[awayKey] = {
              key: awayKey,
              kind: 'away',
              state: 'queued',
              intentIds: due.map((h) => h.intentIds[0]!),
              title: away.title,
              message: away.message,
              attempts: 0,
              nextAt: t,
              at: t,
            };
          return all;
        });
      }
      if (changed || held.length > 0) await deps.scheduleRelease(undefined).catch(() => {});
    });
    await pump();
  };

  return {
    async show(intent) {
      const key = finalKey(intent.intentId);
      const decided = await locked(async () => {
        const [state, s, jobs] = await Promise.all([deps.state.get(), settings(), outbox.all()]);
        if (jobs[key]) return { action: 'again' as const, job: jobs[key]! };
        const t = now();
        const progress = jobs[progressKey(intent.intentId)];
        const action = decide(
          { kind: 'final', intentId: intent.intentId, status: intent.status, progressOnScreen: active(progress) },
          s,
          state,
          t,
        );
        const content = notificationContent(intent);
        const job: NotificationJob = {
          key,
          kind: 'final',
          state: action === 'hold' ? 'held' : action === 'skip' ? 'done' : 'queued',
          intentIds: [intent.intentId],
          ...(intent.status ? { status: intent.status } : {}),
          title: content.title,
          message: content.message,
          line: groupLine(intent),
          ...(outcomeExplorerUrl(intent) ? { explorerUrl: outcomeExplorerUrl(intent)! } : {}),
          ...(action === 'update' && progress?.notificationId ? { replaces: progress.notificationId } : {}),
          ...(action === 'skip' ? { reason: 'skipped' } : {}),
          attempts: 0,
          nextAt: t,
          at: t,
        };
        // Grouping is decided before the job is visible to a run of the outbox, and undone when the job could not be
        // written: nothing was shown, and a key left in `grouping` would keep the job written by a later try out of
        // every run of this life (desktop campaign, 2026-11-24: two rejected writes, the job queued to the end).
        const windowBefore = window;
        const flush = action === 'show' ? holdForGroup(key) : undefined;
        await outbox
          .update((all) => {
            all[key] = job;
            const p = all[progressKey(intent.intentId)];
            // Turned final in place: the progress job ends here; otherwise its notification is removed.
            if (p && active(p))
              all[p.key] = action === 'update' ? { ...p, state: 'done', reason: 'final' } : { ...p, state: 'clearing', nextAt: t };
            return all;
          })
          .catch((err: unknown) => {
            grouping.delete(key);
            window = windowBefore;
            throw err;
          });
        if (action === 'hold') await schedule(state, s, true).catch(() => {});
        return { action, job, content, flush };
      });
      if (decided.action === 'again') {
        await pump();
        return undefined;
      }
      if (decided.action === 'hold' || decided.action === 'skip') {
        void pump();
        return undefined;
      }
      const done = waitFor(key);
      if (decided.flush !== undefined) armFlush(decided.flush);
      else void pump();
      await done;
      return decided.content;
    },

    async explorerLinkOf(notificationId) {
      const jobs = Object.values(await outbox.all());
      return jobs.find((j) => j.notificationId === notificationId && j.explorerUrl !== undefined)?.explorerUrl;
    },

    async exists(intentId) {
      return (await outbox.all())[finalKey(intentId)] !== undefined;
    },

    async showStuck(intent, minutes, stillDue) {
      const key = stuckKey(intent.intentId);
      let due = true;
      const go = await locked(async () => {
        const [state, s, jobs] = await Promise.all([deps.state.get(), settings(), outbox.all()]);
        const t = now();
        due = stillDue?.() ?? true;
        if (!due) return false;
        if (jobs[key] || decide({ kind: 'stuck', intentId: intent.intentId }, s, state, t) !== 'show') return false;
        const content = stuckContent(intent, minutes);
        await outbox.update((all) => {
          all[key] = { key, kind: 'stuck', state: 'queued', intentIds: [intent.intentId], ...content, attempts: 0, nextAt: t, at: t };
          return all;
        });
        return true;
      });
      if (go) void pump();
      if (!due) return false;
    },

    async showChain(notice) {
      const go = await locked(async () => {
        const [state, s, jobs] = await Promise.all([deps.state.get(), settings(), outbox.all()]);
        const t = now();
        const action = decide({ kind: 'chain', intentId: notice.intentId, urgent: notice.urgent }, s, state, t);
        if (jobs[notice.key] || action === 'skip') return false;
        // Held: queued for when the snooze or quiet hours end (the retry timer and every wake-up deliver what is due).
        const nextAt = action === 'hold' ? releaseAt(state, s, t) : t;
        await outbox.update((all) => {
          all[notice.key] = {
            key: notice.key,
            kind: 'chain',
            state: 'queued',
            intentIds: [notice.intentId],
            ...notice.content,
            attempts: 0,
            nextAt,
            at: t,
          };
          return all;
        });
        return true;
      });
      if (go) void pump();
    },

    async inform(message) {
      const key = await locked(async () => {
        const t = now();
        let key = '';
        await outbox.update((all) => {
          // Unique in this life even once an earlier one was shown and pruned (Chrome would replace a shown id).
          let n = infoSeq++;
          while (all[infoKey(t, n)]) n = infoSeq++;
          key = infoKey(t, n);
          all[key] = { key, kind: 'info', state: 'queued', intentIds: [], title: words('extName'), message, attempts: 0, nextAt: t, at: t };
          return all;
        });
        return key;
      });
      // Waits for the first attempt (shown, or rejected and left to the retries), so that the user's action ends
      // with its answer on screen.
      const tried = waitFor(key);
      void pump();
      await tried;
      return `${INFO}${key.slice('info:'.length)}`;
    },

    async forget(intentId) {
      await locked(async () => {
        const state = await deps.state.get();
        if (state.muted.includes(intentId)) await saveCalm({ ...state, muted: state.muted.filter((id) => id !== intentId) });
        const t = now();
        await outbox.update((all) => {
          // Its notification may still be on screen: its link stays for "Open in explorer" (a finished job, pruned
          // with the others); the intent may be told again if tracked again.
          const f = all[finalKey(intentId)];
          if (f?.notificationId && f.explorerUrl)
            all[goneKey(intentId)] = { ...f, key: goneKey(intentId), state: 'done', reason: 'forgotten' };
          delete all[finalKey(intentId)];
          delete all[stuckKey(intentId)];
          for (const k of Object.keys(all)) if (k.startsWith(`chain:${intentId}:`)) delete all[k];
          const p = all[progressKey(intentId)];
          if (p && active(p)) all[p.key] = { ...p, state: 'clearing', nextAt: t };
          return all;
        });
      });
      await pump();
    },

    async mute(intentId, muted) {
      await locked(async () => {
        const state = await deps.state.get();
        state.muted = state.muted.filter((id) => id !== intentId);
        if (muted) state.muted.push(intentId);
        await saveCalm(state);
        if (!muted) return;
        const t = now();
        await outbox.update((all) => {
          const p = all[progressKey(intentId)];
          if (p && active(p)) all[p.key] = { ...p, state: 'clearing', nextAt: t };
          const f = all[finalKey(intentId)];
          // Not yet on its way to the screen: never shown now.
          if (f && f.state === 'queued') all[f.key] = { ...f, state: 'done', reason: 'skipped' };
          return all;
        });
      });
      await pump();
    },

    snooze: (ms = SNOOZE_MS) =>
      locked(async () => {
        const [state, s, jobs] = await Promise.all([deps.state.get(), settings(), outbox.all()]);
        state.snoozeUntil = now() + ms;
        await saveCalm(state);
        await schedule(
          state,
          s,
          Object.values(jobs).some((j) => j.state === 'held'),
        );
      }),

    async endSnooze() {
      await locked(async () => {
        const [state, s, jobs] = await Promise.all([deps.state.get(), settings(), outbox.all()]);
        delete state.snoozeUntil;
        await saveCalm(state);
        await schedule(
          state,
          s,
          Object.values(jobs).some((j) => j.state === 'held'),
        );
      });
      await release();
    },

    release,

    async resume() {
      await release().catch(() => {});
      await pump();
    },

    async progress(intentId) {
      // Called after every change of every record: off (the default) costs one settings read, and no turn in the lock.
      if (!(await settings()).progress) return;
      await locked(async () => {
        const [s, state, intent, jobs] = await Promise.all([settings(), deps.state.get(), deps.intent(intentId), outbox.all()]);
        // Only intents in flight; a final one is the final job's business.
        if (intent?.phase !== 'tracking' || intent.notification !== 'none' || !intent.receipt || jobs[finalKey(intentId)]) return;
        const key = progressKey(intentId);
        const current = jobs[key];
        const on = active(current) && current!.state !== 'clearing';
        const t = now();
        const action = decide({ kind: 'progress', intentId, progressOnScreen: on }, s, state, t);
        if (action === 'skip') return;
        const content = progressContent(intent);
        if (on && current!.title === content.title && current!.message === content.message) return;
        const id = on ? current!.notificationId! : `${PROGRESS}${intentId}:${t}`;
        // Written first, with its id: a create replayed under the same id replaces, never adds.
        await outbox.update((all) => {
          all[key] = {
            key,
            kind: 'progress',
            state: 'showing',
            intentIds: [intentId],
            notificationId: id,
            ...content,
            attempts: 0,
            nextAt: t,
            at: t,
          };
          return all;
        });
        const o = { sound: false, explorer: false };
        if (action === 'update') {
          if (adapter.firefox) {
            await adapter.clear(id);
            await adapter.create(id, content, o);
          } else if (!(await adapter.update(id, content, o))) await adapter.create(id, content, o);
        } else await adapter.create(id, content, o);
        await patch([key], { state: 'shown' });
      });
    },
  };
}
