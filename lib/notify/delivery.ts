/**
 * The calls that carry the outbox's jobs to the desktop (`./pipeline`'s rules, docs/notifications.md N1–N5): each run
 * ({@link OutboxDelivery.pump}) tries every due unfinished job (`./drain-plan`), moving it through its states only
 * after what the state records happened, with back-off after a rejected call; the grouping of final notifications
 * (`./decide`'s rule) holds a job out of the runs until its flush; a caller may wait for a job's first attempt.
 */
import type { NotifySettings } from '../store';
import type { NotificationJob } from '../store/outbox';
import { type NotificationAdapter, PROGRESS, SINGLE } from './browser';
import { nextRetryAt, planDrain, settledKeys } from './drain-plan';
import { GroupHold, type GroupHoldDeps } from './group-hold';
import { backedOff, batchNotificationId, contentOf, contentOfBatch, type Jobs, patched } from './outbox-changes';
import { dropMuted, dropUntracked, type RecheckDeps } from './outbox-recheck';
import type { ShownMarks } from './shown-marks';

/**
 * What the delivery uses (see `PipelineDeps` in `./pipeline` for each): the grouping's (`./group-hold`) and the
 * re-checks' (`./outbox-recheck`: the outbox, the clock, the tracker's and the mutes' answers) included.
 */
export interface DeliveryDeps extends GroupHoldDeps, RecheckDeps {
  adapter: NotificationAdapter;
  /** The notification settings (the last ones read when a read fails). */
  settings: () => Promise<NotifySettings>;
  retryTimer: (fn: () => void, ms: number) => void;
  shownMarks?: ShownMarks | undefined;
}

/** The outbox's delivery to the adapter, for one worker life. */
export class OutboxDelivery {
  readonly #deps: DeliveryDeps;
  /** Notification ids whose showing call resolved in this worker's life (a failed write of `shown` is retried). */
  readonly #shownHere = new Set<string>();
  /** Notification ids whose `create` was rejected in this life: nothing is on screen, the job is queued again. */
  readonly #createRejected = new Set<string>();
  /** Final jobs waiting for the grouping flush (this life only: after a restart they go at once, together). */
  readonly group: GroupHold;
  readonly #waiters = new Map<string, Array<() => void>>();
  #running: Promise<void> | undefined;
  #again = false;
  #retryAt = Number.POSITIVE_INFINITY;

  /** @param deps see {@link DeliveryDeps} */
  constructor(deps: DeliveryDeps) {
    this.#deps = deps;
    this.group = new GroupHold(deps, () => void this.pump());
  }

  /** Resolves once the job `key` was tried (settled, skipped, or left to its retry). */
  waitFor(key: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const list = this.#waiters.get(key) ?? [];
      list.push(resolve);
      this.#waiters.set(key, list);
    });
  }

  #wake(keys: readonly string[]): void {
    for (const k of keys) {
      const list = this.#waiters.get(k);
      this.#waiters.delete(k);
      for (const w of list ?? []) w();
    }
  }

  /** Delivers every unfinished job that is due; one run at a time (a call during a run asks for another). */
  pump(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#drain().catch((err) => console.error('notification outbox', err instanceof Error ? err.message : err));
      } while (this.#again);
    })().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** `jobs` without those of the intents the tracker no longer holds (`./outbox-recheck` `dropUntracked`). */
  dropUntracked(jobs: Jobs): Promise<Jobs> {
    return dropUntracked(this.#deps, jobs);
  }

  async #drain(): Promise<void> {
    const { outbox, now } = this.#deps;
    const [read, s] = await Promise.all([outbox.all(), this.#deps.settings()]);
    const jobs = await dropMuted(this.#deps, await this.dropUntracked(read));
    for (const unit of planDrain(jobs, this.group.keys, now())) {
      try {
        await (unit.kind === 'batch' ? this.#showBatch(unit.jobs, s) : this.#step(unit.job, unit.siblings, s));
      } catch (err) {
        console.error('notification failed', unit.keys.join(' '), err instanceof Error ? err.message : err);
        await this.#backOff(unit.keys);
      } finally {
        this.#wake(unit.keys);
      }
    }
    const after = await outbox.all().catch(() => ({}) as Jobs);
    // Whoever waits for a job that is settled, skipped or waiting for its retry is told.
    for (const k of settledKeys([...this.#waiters.keys()], after, this.group.keys, now)) this.#wake([k]);
    // The earliest retry still to come.
    const next = nextRetryAt(after, now);
    if (Number.isFinite(next) && next < this.#retryAt) {
      this.#retryAt = next;
      this.#deps.retryTimer(
        () => {
          this.#retryAt = Number.POSITIVE_INFINITY;
          void this.pump();
        },
        Math.max(0, next - now()),
      );
    }
  }

  /**
   * The user clicked notification `id` (its body or a button): it was shown, whatever the outbox says. Taken as shown
   * in this life at once (a run that finds its job `showing` — its worker died before recording it — does not create
   * it again after the click cleared it), and marked outside IndexedDB for later lives. A progress notification's
   * click says nothing of the final that is to replace it in place (same id): nothing is recorded for it. Resolves
   * once the mark is written or refused; never rejects.
   */
  seen(id: string): Promise<void> {
    if (id.startsWith(PROGRESS)) return Promise.resolve();
    this.#shownHere.add(id);
    return this.#mark(id) ?? Promise.resolve();
  }

  /** Records outside IndexedDB that `id` was shown (best effort: the outbox's `shown` write follows). */
  #mark(id: string): Promise<void> | undefined {
    return this.#deps.shownMarks?.add(id).catch(() => {});
  }

  /** Writes `p` over the jobs `keys` (those still there). */
  patch(keys: readonly string[], p: Partial<NotificationJob>): Promise<Jobs> {
    return this.#deps.outbox.update((jobs) => patched(jobs, keys, p));
  }

  #setShown(keys: readonly string[]): Promise<Jobs> {
    return this.patch(keys, { state: 'shown', attempts: 0 });
  }

  /** Creates `id` for `batch` (already written `showing` with it), then records them shown. */
  async #createFor(id: string, batch: readonly NotificationJob[], s: NotifySettings): Promise<void> {
    const one = batch.length === 1 ? batch[0]! : undefined;
    const content = contentOfBatch(batch);
    try {
      await this.#deps.adapter.create(id, content, {
        sound: one?.kind === 'progress' ? false : s.sound,
        explorer: one?.explorerUrl !== undefined,
      });
    } catch (err) {
      this.#createRejected.add(id);
      throw err;
    }
    this.#createRejected.delete(id);
    this.#shownHere.add(id);
    await this.#mark(id);
    await this.#setShown(batch.map((j) => j.key));
  }

  /** The final notification of `job` in place of its progress notification (Chrome); created anew when it is gone. */
  async #inPlace(job: NotificationJob, s: NotifySettings): Promise<void> {
    const id = job.replaces!;
    if (await this.#deps.adapter.update(id, contentOf(job), { sound: s.sound, explorer: job.explorerUrl !== undefined })) {
      this.#shownHere.add(id);
      await this.#mark(id);
      await this.#setShown([job.key]);
      return;
    }
    // No longer on screen (the user closed the progress notification): the ordinary way.
    const single = `${SINGLE}${job.intentIds[0]}:${this.#deps.now()}`;
    await this.patch([job.key], { state: 'showing', notificationId: single, replaces: undefined });
    await this.#createFor(single, [{ ...job, notificationId: single }], s);
  }

  /** One step of an unfinished job (final jobs of a batch go through `#showBatch`). */
  async #step(job: NotificationJob, siblings: readonly NotificationJob[], s: NotifySettings): Promise<void> {
    if (job.state === 'clearing') return this.#clearing(job, s);
    if (job.state === 'queued') return this.#queued(job, s);
    if (job.state === 'showing') return this.#showing(job, siblings, s);
  }

  /** A `clearing` job: its progress notification removed; a final job then shown, a progress job done. */
  async #clearing(job: NotificationJob, s: NotifySettings): Promise<void> {
    const id = job.kind === 'progress' ? job.notificationId : job.replaces;
    if (id) await this.#deps.adapter.clear(id);
    if (job.kind === 'final') {
      await this.patch([job.key], { state: 'queued', replaces: undefined });
      await this.#showBatch([{ ...job, state: 'queued', replaces: undefined }], s);
    } else await this.patch([job.key], { state: 'done', reason: 'cleared' });
  }

  /** A `queued` job: shown, or — a final replacing its progress notification — updated in place (or cleared first). */
  async #queued(job: NotificationJob, s: NotifySettings): Promise<void> {
    if (job.kind === 'final' && job.replaces) {
      // Chrome turns the progress notification into the final one; Firefox (no update) clears it first.
      if (this.#deps.adapter.firefox) {
        await this.patch([job.key], { state: 'clearing' });
        await this.#clearing({ ...job, state: 'clearing' }, s);
        return;
      }
      await this.patch([job.key], { state: 'showing', notificationId: job.replaces });
      await this.#inPlace(job, s);
      return;
    }
    await this.#showBatch([job], s);
  }

  /**
   * A job found `showing` (with its `siblings`, shown under the same id): settled as shown when its call resolved in
   * this life, a shown mark or the screen says so (Firefox cannot tell: counted shown, at most once); created again
   * when its create was rejected in this life or the screen does not list it.
   */
  async #showing(job: NotificationJob, siblings: readonly NotificationJob[], s: NotifySettings): Promise<void> {
    const id = job.notificationId!;
    const batch = siblings.length > 0 ? siblings : [job];
    if (this.#shownHere.has(id)) {
      await this.#setShown(batch.map((j) => j.key));
      return;
    }
    // Its create was rejected in this life: nothing is on screen, whatever the record says (the write that would
    // have queued it again was refused). Created again, rather than taken for shown (Firefox).
    if (this.#createRejected.has(id)) return this.#createFor(id, batch, s);
    // Shown in an earlier life whose outbox write was refused: the user may have closed it since.
    if (await this.#deps.shownMarks?.has(id)) {
      this.#shownHere.add(id);
      await this.#setShown(batch.map((j) => j.key));
      return;
    }
    const screen = await this.#deps.adapter.onScreen();
    // Firefox cannot tell: the call may have shown it, so it counts as shown (at most once).
    if (screen === undefined) {
      await this.#setShown(batch.map((j) => j.key));
      return;
    }
    if (job.kind === 'final' && job.replaces) return this.#inPlace(job, s);
    // Clicked while the screen was asked (`seen`): shown, and cleared by the click, not to be made again.
    if (screen.has(id) || this.#shownHere.has(id)) {
      this.#shownHere.add(id);
      await this.#setShown(batch.map((j) => j.key));
      return;
    }
    await this.#createFor(id, batch, s);
  }

  /** Shows queued final (or away, stuck) jobs: one notification for one job, one summary for several finals. */
  async #showBatch(batch: readonly NotificationJob[], s: NotifySettings): Promise<void> {
    const id = batchNotificationId(batch, this.#deps.now());
    await this.patch(
      batch.map((j) => j.key),
      { state: 'showing', notificationId: id },
    );
    await this.#createFor(
      id,
      batch.map((j) => ({ ...j, notificationId: id })),
      s,
    );
  }

  /** After a rejected call or a failed write: try again later; a rejected create leaves nothing on screen. */
  async #backOff(keys: readonly string[]): Promise<void> {
    const t = this.#deps.now();
    await this.#deps.outbox
      .update((jobs) =>
        backedOff(
          jobs,
          keys,
          t,
          (id) => this.#shownHere.has(id),
          (id) => this.#createRejected.has(id),
        ),
      )
      .catch(() => {});
  }
}
