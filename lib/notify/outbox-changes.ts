/**
 * Which outbox changes follow from what the notification pipeline was told (`./pipeline`): the jobs' keys, the jobs
 * it writes, and each change of the job table as a function of the table and the time. Pure: no I/O, the time is
 * passed in; each change edits the table it is given (as `Outbox.update` hands it) and returns it.
 * The rules the changes keep are in `./pipeline`'s docstring and docs/notifications.md (N1–N5).
 */
import type { CalmState, TrackedIntent } from '../store';
import type { NotificationJob } from '../store/outbox';
import { AWAY, CHAIN, GROUP, INFO, SINGLE, STUCK } from './browser';
import type { ChainNotice } from './chain';
import { groupContentOf, groupLine, type NotificationContent, notificationContent, outcomeExplorerUrl } from './content';
import type { Action } from './decide';

/** The outbox's jobs by key. */
export type Jobs = Record<string, NotificationJob>;

/** The key of an intent's final job. */
export const finalKey = (intentId: string) => `final:${intentId}`;
/** The key of an intent's progress job. */
export const progressKey = (intentId: string) => `progress:${intentId}`;
/** The key of an intent's stuck warning. */
export const stuckKey = (intentId: string) => `stuck:${intentId}`;
/** The key of the `n`th information notification made at `at` (ms). */
export const infoKey = (at: number, n: number) => `info:${at}:${n}`;
/** A removed intent's final job, kept for its link only. */
export const goneKey = (intentId: string) => `gone:${intentId}`;
/** True when `j` exists and is not `done`. */
export const active = (j: NotificationJob | undefined) => j !== undefined && j.state !== 'done';
/** What a job says. */
export const contentOf = (j: NotificationJob): NotificationContent => ({ title: j.title ?? '', message: j.message ?? '' });

/** Back-off after `attempts` rejected calls (ms): 1 s doubling, at most 60 s. */
export function retryDelay(attempts: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/**
 * True when job `j` may be tried at wall time `t` (ms): its `nextAt` has come, or — for a job waiting out a back-off
 * (`attempts` > 0) — lies further ahead than that back-off could set it (`retryDelay(attempts)`): the wall clock went
 * back since it was written, and the wait is not stretched by the jump (docs/time.md). A job not yet tried that was
 * due when written (`nextAt` ≤ `at`, both on its writer's wall clock) stays due whatever the wall clock reads later
 * (it went back since, in this life or between two); so does one not yet retried that is `clearing` (written due at
 * the event that clears it, later than `at`) or `showing` (its call was made once it was due); one held until a later
 * time (an on-chain warning until a snooze or quiet hours end, `nextAt` > `at`, still `queued`) waits for it.
 */
export function isDue(
  j: Pick<NotificationJob, 'nextAt' | 'attempts'> & Partial<Pick<NotificationJob, 'at' | 'state'>>,
  t: number,
): boolean {
  return (
    j.nextAt <= t ||
    (j.attempts === 0 && (j.state === 'clearing' || j.state === 'showing' || (j.at !== undefined && j.nextAt <= j.at))) ||
    (j.attempts > 0 && j.nextAt - t > retryDelay(j.attempts))
  );
}

/** Final jobs shown together as one notification: one line each, or the single one's own words and buttons. */
export function contentOfBatch(batch: readonly NotificationJob[]): NotificationContent {
  return batch.length === 1 ? contentOf(batch[0]!) : groupContentOf(batch.map((j) => ({ status: j.status, line: j.line ?? '' })));
}

/**
 * The notification id of `batch` (queued jobs shown as one notification at `t`, ms): the away summary's and an
 * information's follow their key; a stuck or chain warning's and a single final's name the intent and `t`; a group's
 * `t` and every intent.
 */
export function batchNotificationId(batch: readonly NotificationJob[], t: number): string {
  const first = batch[0]!;
  return first.kind === 'away'
    ? `${AWAY}${first.key.slice('away:'.length)}`
    : first.kind === 'info'
      ? `${INFO}${first.key.slice('info:'.length)}`
      : first.kind === 'stuck' || first.kind === 'chain'
        ? `${first.kind === 'stuck' ? STUCK : CHAIN}${first.intentIds[0]}:${t}`
        : batch.length === 1
          ? `${SINGLE}${first.intentIds[0]}:${t}`
          : `${GROUP}${t}:${batch.map((j) => j.intentIds[0]).join(',')}`;
}

/**
 * The final job of `intent` decided `action` at `t` (ms): held, done (skipped) or queued; replacing the progress
 * notification `progress` when updated in place.
 */
export function finalJob(intent: TrackedIntent, action: Action, progress: NotificationJob | undefined, t: number): NotificationJob {
  const content = notificationContent(intent);
  return {
    key: finalKey(intent.intentId),
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
}

/** Writes the final `job` (decided `action` at `t`): its intent's progress job ends (`update`) or is cleared. */
export function withFinal(all: Jobs, job: NotificationJob, action: Action, t: number): Jobs {
  all[job.key] = job;
  const p = all[progressKey(job.intentIds[0]!)];
  // Turned final in place: the progress job ends here; otherwise its notification is removed.
  if (p && active(p)) all[p.key] = action === 'update' ? { ...p, state: 'done', reason: 'final' } : { ...p, state: 'clearing', nextAt: t };
  return all;
}

/**
 * Held notifications kept in the calm state (`legacy`, by the version before the outbox) as held final jobs, made
 * at `t`; an intent that has a final job already keeps it.
 */
export function withLegacyHeld(all: Jobs, legacy: CalmState['held'], t: number): Jobs {
  for (const h of legacy) {
    const key = finalKey(h.intentId);
    if (all[key]) continue;
    all[key] = { key, kind: 'final', state: 'held', intentIds: [h.intentId], status: h.status, attempts: 0, nextAt: t, at: h.heldAt };
  }
  return all;
}

/**
 * The away summary's key for the held jobs `due` summarised at `t` (ms); '' when none. It names its first intent: two
 * summaries made in the same millisecond, in one life or two, never share a job or a notification (each intent is
 * summarised once).
 */
export function awayKeyOf(due: readonly NotificationJob[], t: number): string {
  return due.length > 0 ? `away:${t}:${due[0]!.intentIds[0]}` : '';
}

/**
 * Every `held` final job ends (in one write): those in `due` as lines of the away job `awayKey` saying `away` (queued
 * at `t`), the others skipped (muted meanwhile). A job no longer held is left as it is.
 */
export function withSummary(
  all: Jobs,
  held: readonly NotificationJob[],
  due: readonly NotificationJob[],
  awayKey: string,
  away: NotificationContent,
  t: number,
): Jobs {
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
      statuses: due.map((h) => h.status ?? 'UNKNOWN'),
      title: away.title,
      message: away.message,
      attempts: 0,
      nextAt: t,
      at: t,
    };
  return all;
}

/** True when `j` is a chain warning held for the end of a snooze or quiet hours still ahead of `t` (ms), not yet tried. */
export const heldForCalm = (j: NotificationJob, t: number) =>
  j.kind === 'chain' && j.state === 'queued' && j.attempts === 0 && j.nextAt > t;

/** The snooze and the quiet hours are over at `t` (ms; ended early, or switched off): the chain warnings held for their end are due. */
export function withCalmOver(all: Jobs, t: number): Jobs {
  for (const j of Object.values(all)) if (heldForCalm(j, t)) all[j.key] = { ...j, nextAt: t };
  return all;
}

/**
 * True when `j` is a final not yet on its way to the screen: `queued` and never tried (as one waiting for its group's
 * flush), not turning a progress notification in place (`replaces`: that notification is already on screen).
 */
export const waitingFinal = (j: NotificationJob) => j.kind === 'final' && j.state === 'queued' && j.attempts === 0 && !j.replaces;

/**
 * A snooze began, or a snooze or quiet hours are found in force at a wake-up, at `t` (ms): every {@link waitingFinal}
 * is held for the "while you were away" summary instead, as a final decided in the calm is. A final already tried (its
 * create refused, waiting for its back-off) goes on with its retries.
 */
export function withSnoozed(all: Jobs, t: number): Jobs {
  for (const j of Object.values(all)) if (waitingFinal(j)) all[j.key] = { ...j, state: 'held', nextAt: t };
  return all;
}

/** The stuck warning of `intentId` saying `content`, queued at `t` (ms). */
export function stuckJob(intentId: string, content: NotificationContent, t: number): NotificationJob {
  return { key: stuckKey(intentId), kind: 'stuck', state: 'queued', intentIds: [intentId], ...content, attempts: 0, nextAt: t, at: t };
}

/** The chain disagreement `notice`, queued at `t` (ms) to be tried from `nextAt` (a snooze's or quiet hours' end). */
export function chainJob(notice: ChainNotice, nextAt: number, t: number): NotificationJob {
  return {
    key: notice.key,
    kind: 'chain',
    state: 'queued',
    intentIds: [notice.intentId],
    ...notice.content,
    attempts: 0,
    nextAt,
    at: t,
  };
}

/**
 * Adds the information `message` under `title`, queued at `t` (ms), under the first key `info:<t>:<n>` not in the
 * table, `n` from `nextSeq()` (unique in this life even once an earlier one was shown and pruned: Chrome would
 * replace a shown id). Returns its key.
 */
export function addInfo(all: Jobs, title: string, message: string, t: number, nextSeq: () => number): string {
  let n = nextSeq();
  while (all[infoKey(t, n)]) n = nextSeq();
  const key = infoKey(t, n);
  all[key] = { key, kind: 'info', state: 'queued', intentIds: [], title, message, attempts: 0, nextAt: t, at: t };
  return key;
}

/** The progress job of `intentId` saying `content`, `showing` under `notificationId` from `t` (ms). */
export function progressJob(intentId: string, notificationId: string, content: NotificationContent, t: number): NotificationJob {
  return {
    key: progressKey(intentId),
    kind: 'progress',
    state: 'showing',
    intentIds: [intentId],
    notificationId,
    ...content,
    attempts: 0,
    nextAt: t,
    at: t,
  };
}

/**
 * After a rejected call or a failed write at `t` (ms): the unfinished jobs `keys` are tried again after
 * {@link retryDelay}. A job whose notification `shownHere` (its call resolved in this life) is `shown`; a `showing`
 * job whose create was `rejectedHere` is queued again (Firefox would take it as shown); any other failure (getAll,
 * update, a write) leaves it `showing`: the retry asks the screen again.
 */
export function backedOff(
  all: Jobs,
  keys: readonly string[],
  t: number,
  shownHere: (notificationId: string) => boolean,
  rejectedHere: (notificationId: string) => boolean,
): Jobs {
  for (const k of keys) {
    const j = all[k];
    if (!j || j.state === 'shown' || j.state === 'done') continue;
    const attempts = j.attempts + 1;
    const shown = j.notificationId !== undefined && shownHere(j.notificationId);
    const rejected = j.state === 'showing' && j.notificationId !== undefined && rejectedHere(j.notificationId);
    const state = shown ? 'shown' : rejected ? 'queued' : j.state;
    all[k] = { ...j, state, attempts, nextAt: t + retryDelay(attempts) };
  }
  return all;
}

/** Writes `patch` over the jobs `keys` (those still there). */
export function patched(all: Jobs, keys: readonly string[], patch: Partial<NotificationJob>): Jobs {
  for (const k of keys) if (all[k]) all[k] = { ...all[k]!, ...patch };
  return all;
}
