/**
 * The notification outbox in IndexedDB (idb-keyval, database `svc-outbox`): every notification the worker means to
 * show is a job here before any `browser.notifications` call, and moves through its states as what they record
 * happens. A worker that dies anywhere finds its jobs on the next start and resumes them.
 *
 * Job states:
 * - `held` — a final notification held by a snooze or quiet hours: it will be one line of the away summary;
 * - `queued` — to be shown (also after a rejected call: `nextAt` says when to try again);
 * - `clearing` — a progress notification is being removed first (replayable: `clear` is idempotent);
 * - `showing` — written just before the call that puts `notificationId` on screen (create, or update in place);
 * - `shown` — the call resolved: it is on the desktop;
 * - `done` — nothing more to do: summarised (a held job whose line is in an away job), skipped (muted meanwhile),
 *   or removed from the screen (a progress job).
 * Jobs of final outcomes are kept once `shown`/`done` (the newest 1 000): they answer "was this intent told?".
 */
import { createStore, get, type UseStore, update } from 'idb-keyval';

/** IndexedDB database of the outbox (one object store, one key). */
export const OUTBOX_DB = 'svc-outbox';

/** Kinds of notification jobs. */
export type JobKind = 'final' | 'progress' | 'away' | 'stuck' | 'info' | 'chain';
/** See the module's docstring. */
export type JobState = 'held' | 'queued' | 'clearing' | 'showing' | 'shown' | 'done';

/** One notification job. Times in ms since the epoch. */
export interface NotificationJob {
  /** `final:<intentId>`, `progress:<intentId>`, `stuck:<intentId>`, `away:<ms>:<its first intentId>`, `info:<ms>:<n>`,
   * `chain:<intentId>:<kind>:<leg>` (a disagreement between the chain and the service, lib/notify/chain.ts); `gone:<intentId>`: the
   * final job of an intent removed since, kept (done) for its explorer link only. */
  key: string;
  kind: JobKind;
  state: JobState;
  /** The intents it tells of (one; the away summary: every line; information: none). */
  intentIds: string[];
  /** final: the outcome (a TransactionStatus), for the summary's count. */
  status?: string;
  /** The notification that shows it, chosen before the call (replayable: the same id on a retry). */
  notificationId?: string;
  /** final: the progress notification it replaces (updated in place on Chrome; cleared first on Firefox). */
  replaces?: string;
  /** What it says. */
  title?: string;
  message?: string;
  /** final: its line in a summary of several ("0x1234…abcd: Arbitrum One → Base"). */
  line?: string;
  /** Chrome: "Open in explorer" links here. */
  explorerUrl?: string;
  /** Rejected calls so far (the back-off grows with it). */
  attempts: number;
  /** Not tried again before this time. */
  nextAt: number;
  /** When the job was made. */
  at: number;
  /** done: why (`summarised` into an away job, `skipped`, `cleared`). */
  reason?: string;
}

/** The outbox: every job by key. */
export interface Outbox {
  /** Every job. */
  all(): Promise<Record<string, NotificationJob>>;
  /** Atomically replaces the jobs with `fn(jobs)` (one IndexedDB transaction); resolves with what was written. */
  update(fn: (jobs: Record<string, NotificationJob>) => Record<string, NotificationJob>): Promise<Record<string, NotificationJob>>;
}

/** Final jobs kept once told (five times the finished intents the store keeps). */
export const KEEP_TOLD = 1000;

/** Drops the oldest finished (`shown`/`done`) final jobs beyond {@link KEEP_TOLD}, and finished jobs of other kinds. */
export function pruneJobs(jobs: Record<string, NotificationJob>): Record<string, NotificationJob> {
  const finished = (j: NotificationJob) => j.state === 'shown' || j.state === 'done';
  const out: Record<string, NotificationJob> = {};
  const told: NotificationJob[] = [];
  for (const j of Object.values(jobs)) {
    if (!finished(j)) out[j.key] = j;
    else if (
      j.kind === 'final' ||
      ((j.kind === 'stuck' || j.kind === 'chain') && j.state === 'shown') ||
      (j.kind === 'progress' && j.state === 'shown')
    )
      told.push(j);
  }
  told.sort((a, b) => b.at - a.at);
  for (const j of told.slice(0, KEEP_TOLD)) out[j.key] = j;
  return out;
}

/** Creates the IndexedDB-backed outbox. */
export function createOutbox(db: UseStore = createStore(OUTBOX_DB, 'jobs')): Outbox {
  return {
    all: async () => (await get<Record<string, NotificationJob>>('jobs', db)) ?? {},
    async update(fn) {
      let written: Record<string, NotificationJob> = {};
      await update<Record<string, NotificationJob>>(
        'jobs',
        (current) => {
          written = pruneJobs(fn(structuredClone(current ?? {})));
          return written;
        },
        db,
      );
      return written;
    },
  };
}
