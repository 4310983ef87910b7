/**
 * The engine's pump (lib/tracker/engine.ts): the watchdogs' pass, then whatever the scheduler (./scheduler) says can
 * start now — long-polls and the sweeper's job (./requests) — and the timer for the next look; the pump loop that
 * coalesces wake-ups. Nothing is sent while the Retry-After pause or a rejected key holds (./pause).
 */
import { type EngineCore, pacedAsHeld, trackingOf } from './engine-core';
import { GRACE_CHECKPOINT_MS, graceKeepAt } from './not-found-grace';
import { check, historyPage } from './requests';
import { planChecks, type SweepJob } from './scheduler';
import { graceKept, notConfigured as notConfiguredRecord } from './transitions';
import type { ReceiptTransport } from './types';
import { runWatchdogs } from './watchdog-actions';

/**
 * The reason a wake-up timer is cancelled with (replaced by an earlier one, or the engine stopped): only its sleep
 * reads the signal, and an `abort()` with no reason builds a DOMException with a stack each time (a timer is replaced
 * at every earlier wake-up: 2 % of the world campaign's time).
 */
const CANCELLED = 'cancelled';

/** Runs the engine's pump one at a time: a wake-up during a run runs it once more after; a timer wakes it later. */
export class PumpLoop {
  #pumping = false;
  #again = false;
  #timer: AbortController | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  readonly #c: EngineCore;
  readonly #run: () => Promise<void>;

  /** `run` is one pass (the engine loads its store first); the core's `stopped` ends every wake-up. */
  constructor(c: EngineCore, run: () => Promise<void>) {
    this.#c = c;
    this.#run = run;
  }

  /** Schedules a pump (coalesced). */
  kick(): void {
    if (this.#c.stopped) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          await this.#run();
        } while (this.#again && !this.#c.stopped);
      } catch (err) {
        console.error('tracker pump failed', err instanceof Error ? err.message : err);
      } finally {
        this.#pumping = false;
      }
    })();
  }

  /** Wakes the engine at `at` (ms) unless it is already woken earlier. */
  wakeAt(at: number): void {
    if (this.#c.stopped || at >= this.#timerAt) return;
    this.#timer?.abort(CANCELLED);
    const controller = new AbortController();
    this.#timer = controller;
    this.#timerAt = at;
    void this.#c.clock.sleep(Math.max(0, at - this.#c.clock.now()), controller.signal).then(() => {
      if (controller.signal.aborted) return;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.kick();
    });
  }

  /** Ends the timer (the engine stopped). */
  stop(): void {
    this.#timer?.abort(CANCELLED);
  }
}

/**
 * Serves the Retry-After pause at `now` (steady ms): writes what is left of it at its 10 s checkpoint
 * (`TrackerPause.serve`, which never rejects) and wakes the engine for the next checkpoint or the pause's end.
 */
async function servePause(c: EngineCore, now: number): Promise<void> {
  await c.pause.serve(now);
  c.wakeAt(Math.min(now + c.pause.left(), c.pause.nextCheckpointAt(now)));
}

/**
 * The load failed (IndexedDB refusing the intents) while a pause a previous worker left holds: it is served all the
 * same, and the wake-up for its next checkpoint tries the load again. Without this, a worker dying after a long
 * refusal left what it served unwritten, and the next held it again (world seed 20261227 run 23154). Never rejects.
 */
export async function servePauseUnloaded(c: EngineCore): Promise<void> {
  if (c.stopped || !(c.pause.left() > 0)) return;
  await servePause(c, c.clock.now());
}

/** `load()` (the engine's, for the pump and the start); when it fails, {@link servePauseUnloaded}, then the same rejection. */
export function loadOrServe(c: EngineCore, load: () => Promise<void>): Promise<void> {
  return load().catch(async (err: unknown) => {
    await servePauseUnloaded(c);
    throw err;
  });
}

/** Runs the watchdogs, then starts whatever the scheduler says can start now, and sets the timer. */
export async function pump(c: EngineCore): Promise<void> {
  if (c.stopped) return;
  const clock = c.clock;
  let now = clock.now();
  // Nothing can be sent now: a user's refresh gets the record as it is rather than waiting.
  if (c.pause.kept.keyRejected) return c.refresh.settleAll();
  await c.pause.flush();
  if (c.pause.kept.pausedUntil !== undefined && c.pause.left() === 0) await c.pause.ended();
  if (c.pause.left() > 0) {
    // The next checkpoint is due 10 s after the last (or the pause's start), not 10 s after this pass: a wake-up set
    // before the pause began may have brought this pass early.
    await servePause(c, now);
    await keepGraces(c, now);
    return c.refresh.settleAll();
  }
  const transport = await c.deps.transport();
  if (c.stopped || c.pause.paused()) return c.kick();
  if (!transport) {
    await notConfigured(c);
    return c.refresh.settleAll();
  }
  now = clock.now();
  const keepAt = await keepStaleGraces(c, now);
  const { verify, wakeAt } = await runWatchdogs(c, now);
  const tracking = trackingOf(c).map((t) => pacedAsHeld(c, t));
  const history = transport.getIntentHistoryLite !== undefined && tracking.some((t) => t.receipt?.createdAt);
  const inFlight = new Map([...c.inFlight].map(([id, f]) => [id, f.kind] as const));
  const plan = planChecks({
    now,
    tracking,
    inFlight,
    longPollTokens: c.longPolls.available(now),
    longPollTokenAt: c.longPolls.nextAt(now),
    sweeping: c.sweeping,
    nextSweepAt: c.nextSweepAt,
    nextIndividualAt: c.nextIndividualAt,
    lastPageAt: c.lastPageAt,
    refresh: [...c.refresh.ids()],
    verify,
    history,
    tuning: c.tuning,
  });
  for (const id of plan.longPolls) {
    c.longPolls.take(now);
    void check(c, transport, id, 'wait');
  }
  if (plan.sweep) {
    // More intents than long-poll slots: some are watched by the sweeper alone.
    const hasCold = tracking.length > c.tuning.maxConcurrent - 1;
    sweep(c, transport, plan.sweep, hasCold, history);
  }
  c.wakeAt(Math.min(plan.wakeAt, wakeAt, keepAt));
}

/**
 * While the tracker is paused, the NotFound grace each intent not known yet has served is written down at each of the
 * pause's checkpoints (./not-found-grace), all in one store transaction: no check writes it meanwhile. A refused
 * write keeps the previous one.
 */
async function keepGraces(c: EngineCore, now: number): Promise<void> {
  await writeGraces(
    c,
    trackingOf(c)
      .filter((t) => !t.receipt)
      .map((t) => t.intentId),
    now,
  );
}

/** Writes down the NotFound grace of `ids` served up to `now` (ms, steady) in one store transaction; a refused write keeps the previous one. */
async function writeGraces(c: EngineCore, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await c.mirror.writeMany(ids, (_id, r) => graceKept(r, now, c.startedAt), { quiet: true }).catch(() => {});
}

/**
 * Out of a pause, the NotFound grace of each intent answered NotFound and not known yet that this life has not written
 * down for {@link GRACE_CHECKPOINT_MS} (no NotFound answer came since: its checks wait behind a hold of the worker's
 * request budget the tracker's pause did not learn of, or fail another way) is written down now, all in one store
 * transaction; a refused write keeps the previous one. Resolves with when (ms, steady) the next is due; Infinity when
 * none is (./not-found-grace `graceKeepAt`).
 */
async function keepStaleGraces(c: EngineCore, now: number): Promise<number> {
  let next = Number.POSITIVE_INFINITY;
  const stale: string[] = [];
  for (const t of trackingOf(c)) {
    const at = graceKeepAt(t, c.startedAt);
    if (at === undefined) continue;
    if (at <= now) stale.push(t.intentId);
    next = Math.min(next, at <= now ? now + GRACE_CHECKPOINT_MS : at);
  }
  await writeGraces(c, stale, now);
  return next;
}

/** Every tracked intent is marked not configured (once): there is no service to ask. */
async function notConfigured(c: EngineCore): Promise<void> {
  const now = c.clock.now();
  for (const t of trackingOf(c)) {
    if (t.lastError?.kind === 'not-configured') continue;
    await c.mirror.write(t.intentId, (t) => notConfiguredRecord(t, now));
  }
}

/**
 * Runs one sweeper job; the next paced job (individual check, history page) is due a gap after it:
 * - every intent in a long-poll (at most `maxConcurrent - 1`, each holding a slot): `2 × sweepGapMs`;
 * - else, after news: none, the next job at once;
 * - else busy (news in the last `busyForMs`): `busySweepGapMs`, none between the pages of one cycle, and counted
 *   from the last history page's start when the job was an individual check and history can be read (individual
 *   checks keep their own pace, `individualEveryMs`, and do not put the busy pages off);
 * - else `sweepGapMs`.
 * While busy, an intent that holds no long-poll right now counts as outside the slots, however few are tracked.
 * Found by the 500-intent Chromium bench (2026-11-25): the last three intents, out of long-polls for want of tokens,
 * ended just after a page; the next page was 5 s away (they were counted as "in a long-poll"), and one was told
 * 4.9 s late. And a page due 0.5 s after the last one waited 0.5 s more behind an individual check.
 */
function sweep(c: EngineCore, transport: ReceiptTransport, job: SweepJob, hasCold: boolean, history: boolean): void {
  const clock = c.clock;
  const started = clock.now();
  c.sweeping = true;
  if (job.kind === 'history') c.lastPageAt = started;
  if (job.kind === 'receipt' && (job.reason === 'stale' || job.reason === 'verify')) {
    c.nextIndividualAt = started + c.tuning.individualEveryMs;
  }
  const run = job.kind === 'history' ? historyPage(c, transport) : check(c, transport, job.intentId, 'receipt');
  void run.then(
    (news) => {
      const now = clock.now();
      const busy = now < c.busyUntil;
      // More intents than slots, or (busy) one that holds no long-poll now (its long-poll waits for a token, or for
      // the pause after an unchanged answer): some intent is watched by the sweeper alone.
      const cold = hasCold || (busy && trackingOf(c).some((t) => c.inFlight.get(t.intentId)?.kind !== 'wait'));
      // With every intent in a long-poll, history only watches for a final status the legs do not show: slow pace.
      // Busy: the pages of a history cycle follow one another at once.
      const gap = !cold
        ? 2 * c.tuning.sweepGapMs
        : news
          ? 0
          : busy
            ? job.kind === 'history' && c.sweeper.midCycle
              ? 0
              : c.tuning.busySweepGapMs
            : c.tuning.sweepGapMs;
      const from = history && busy && cold && job.kind === 'receipt' ? Math.min(started, c.lastPageAt) : started;
      c.nextSweepAt = Math.max(c.nextSweepAt, from + gap);
      c.sweeping = false;
      c.kick();
    },
    () => {
      c.sweeping = false;
      c.kick();
    },
  );
}
