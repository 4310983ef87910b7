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
 *
 * Stored one record per job, under its `key`, and read once a life into memory: the worker is the outbox's only
 * reader and writer, and each update writes only the jobs it changed (one transaction). It used to be one record
 * holding every job, read, cloned and written whole at each update: with a thousand jobs kept and thousands of
 * intents finishing, gigabytes of garbage a minute (docs/memory.md). That record, when found, becomes records.
 */
import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';

/** IndexedDB database of the outbox (one object store, one record per job). */
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
  /** away: each line's outcome, in the order of `intentIds` (to count them again when one leaves the summary). */
  statuses?: string[];
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
  /** Every job, frozen (the table and each job): read, never changed. Waits for the updates asked before it. */
  all(): Promise<Record<string, NotificationJob>>;
  /**
   * Atomically replaces the jobs with `fn(jobs)`, pruned ({@link pruneJobs}), in one IndexedDB transaction, after the
   * updates asked before it; resolves with what was written (frozen). `fn` gets a copy of the table whose jobs are frozen: it
   * changes a job by putting a new object in its place (a change in place throws in strict code, the tests'; the
   * extension's bundle is not strict, and there it is lost). Rejects, writing nothing, when `fn` throws, returns no
   * table or a value that is not the job of its key (TypeError), or the store refuses (e.g. `QuotaExceededError`).
   */
  update(fn: (jobs: Record<string, NotificationJob>) => Record<string, NotificationJob>): Promise<Record<string, NotificationJob>>;
}

/** Final jobs kept once told (five times the finished intents the store keeps). */
export const KEEP_TOLD = 1000;

/** True when `j` is finished (`shown`/`done`) and kept as told: final jobs, and shown stuck, chain and progress jobs. */
const told = (j: NotificationJob) =>
  (j.state === 'shown' || j.state === 'done') &&
  (j.kind === 'final' || ((j.kind === 'stuck' || j.kind === 'chain' || j.kind === 'progress') && j.state === 'shown'));

/** True when `j` is finished and not kept (dropped by {@link pruneJobs}). */
const dropped = (j: NotificationJob) => (j.state === 'shown' || j.state === 'done') && !told(j);

/** Newest first (`at`), then by key: the order in which told jobs are kept. */
const newestFirst = (a: NotificationJob, b: NotificationJob) => b.at - a.at || (a.key < b.key ? -1 : 1);

/**
 * Drops the oldest finished (`shown`/`done`) jobs kept as told beyond `keepTold` (newest first by `at`, then by key),
 * and the finished jobs not kept (information, away summaries, done stuck, chain and progress jobs). Throws a TypeError
 * when a value is not a job or is under a key other than its own.
 */
export function pruneJobs(jobs: Record<string, NotificationJob>, keepTold = KEEP_TOLD): Record<string, NotificationJob> {
  return pruneChanged({}, { ...jobs }, keepTold);
}

/** True when `value` is a job: an object with a string `key` (what a record must be to be written or read as one). */
const isJob = (value: unknown): value is NotificationJob =>
  typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string';

/**
 * `next` (the table after an update of `before`, which is pruned) pruned as {@link pruneJobs} would, in place: only
 * the jobs that changed can be finished and not kept, so only they are checked for it, in one walk of the table that
 * also counts the told; the sort comes only when more than `keepTold` are told. Keeps the order of the keys. Throws a
 * TypeError, changing nothing stored, when a value is not a job or is under a key other than its own.
 */
function pruneChanged(
  before: Record<string, NotificationJob>,
  next: Record<string, NotificationJob>,
  keepTold: number,
): Record<string, NotificationJob> {
  let toldCount = 0;
  // for…in, not Object.entries: no pair allocated per job at every change of a table of thousands.
  for (const k in next) {
    const j = next[k];
    if (!isJob(j) || j.key !== k) throw new TypeError(`outbox: no job under ${k}`);
    if (j !== before[k] && dropped(j)) delete next[k];
    else if (told(j)) toldCount++;
  }
  if (toldCount <= keepTold) return next;
  const kept = Object.values(next).filter(told).sort(newestFirst);
  for (const j of kept.slice(keepTold)) delete next[j.key];
  return next;
}

/** `j`, frozen with its list of intents: a job is changed by replacing it, never in place. */
function frozen(j: NotificationJob): NotificationJob {
  Object.freeze(j.intentIds);
  return Object.freeze(j);
}

/** The key of the one record an earlier version kept every job in. */
const LEGACY_KEY = 'jobs';

/** What one read of the store found (see {@link readStore}). */
interface StoredRead {
  jobs: Record<string, NotificationJob>;
  legacy?: Record<string, NotificationJob>;
}

/**
 * Every record of `store`: the jobs, each under its own key (other values left out), and the jobs of an earlier
 * version's single record `jobs` when there is one (`legacy`).
 */
async function readStore(store: IDBObjectStore): Promise<StoredRead> {
  const [keys, values] = await Promise.all([
    promisifyRequest(store.getAllKeys()),
    promisifyRequest(store.getAll() as IDBRequest<unknown[]>),
  ]);
  const read: StoredRead = { jobs: {} };
  keys.forEach((k, i) => {
    const value = values[i];
    if (k !== LEGACY_KEY) {
      if (isJob(value) && value.key === k) read.jobs[k] = value;
      return;
    }
    read.legacy = {};
    for (const j of Object.values(typeof value === 'object' && value !== null ? value : {})) if (isJob(j)) read.legacy[j.key] = j;
  });
  return read;
}

/**
 * Every job stored in `db`, each under its key: one per record, or those of an earlier version's single record `jobs`
 * when it is there (that version wrote it last). Rejects when the store cannot be read.
 */
export function storedJobs(db: UseStore): Promise<Record<string, NotificationJob>> {
  return db('readonly', readStore).then((read) => read.legacy ?? read.jobs);
}

/**
 * Loads the jobs of `db` for a life, pruned. An earlier version's single record, when there, is what that version wrote
 * last: its jobs replace every job record, one per job, in one transaction, before any use (else it would win again
 * at the next load). Job records pruning dropped are deleted, or left for the next life when writes are refused.
 */
async function loadJobs(db: UseStore, keepTold: number): Promise<Record<string, NotificationJob>> {
  const read = await db('readonly', readStore);
  const jobs = pruneJobs(read.legacy ?? read.jobs, keepTold);
  const stale = Object.keys(read.jobs).filter((k) => !(k in jobs));
  if (read.legacy === undefined && stale.length === 0) return jobs;
  const cleaned = db('readwrite', (store) => {
    for (const k of read.legacy ? [LEGACY_KEY, ...stale] : stale) store.delete(k);
    if (read.legacy) for (const j of Object.values(jobs)) store.put(j, j.key);
    return promisifyRequest(store.transaction);
  });
  await (read.legacy ? cleaned : cleaned.catch(() => {}));
  return jobs;
}

/**
 * Creates the IndexedDB-backed outbox (see the module's docstring), keeping `keepTold` told jobs ({@link pruneJobs}).
 * The jobs written become frozen, the caller's own objects included.
 */
export function createOutbox(db: UseStore = createStore(OUTBOX_DB, 'jobs'), keepTold = KEEP_TOLD): Outbox {
  /**
   * The jobs as last written, frozen (the table and each job), loaded on first use (again after a failed load). Handed
   * out as it is by `all` and `update`: a read costs nothing, an update one shallow copy of the table.
   */
  let table: Promise<Record<string, NotificationJob>> | undefined;
  /** The calls in the order asked: each starts once the one before has settled. */
  let turn: Promise<unknown> = Promise.resolve();
  const load = () => {
    table ??= loadJobs(db, keepTold).then(
      (jobs) => {
        for (const j of Object.values(jobs)) frozen(j);
        return Object.freeze(jobs);
      },
      (err: unknown) => {
        table = undefined;
        throw err;
      },
    );
    return table;
  };
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const done = turn.then(work, work);
    turn = done.catch(() => {});
    return done;
  };
  return {
    all: () => inTurn(load),
    update: (fn) =>
      inTurn(async () => {
        const before = await load();
        const draft = { ...before };
        const changed: unknown = fn(draft);
        if (typeof changed !== 'object' || changed === null) throw new TypeError('outbox: no jobs returned');
        // The draft is the outbox's own; any other object is the caller's, left as it is.
        const next = pruneChanged(before, changed === draft ? draft : { ...(changed as Record<string, NotificationJob>) }, keepTold);
        const puts: NotificationJob[] = [];
        const deletes: string[] = [];
        for (const k in next) if (next[k] !== before[k]) puts.push(next[k]!);
        for (const k in before) if (!(k in next)) deletes.push(k);
        if (puts.length > 0 || deletes.length > 0)
          await db('readwrite', (store) => {
            try {
              for (const j of puts) store.put(j, j.key);
              for (const k of deletes) store.delete(k);
            } catch (err) {
              // A put refused at once (a value that cannot be cloned): nothing of this update is written.
              store.transaction.abort();
              throw err;
            }
            return promisifyRequest(store.transaction);
          });
        for (const j of puts) frozen(j);
        const written = Object.freeze(next);
        table = Promise.resolve(written);
        return written;
      }),
  };
}
