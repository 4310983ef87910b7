/**
 * The tracker: keeps every tracked intent that is not final under watch, writes every answer before anything else
 * happens, and shows exactly one notification per intent that reaches a notifying final status. The invariants it
 * keeps (I1–I6) are stated in docs/tracking.md "Invariants I1–I6" and checked by the world campaign (`test/world/`).
 *
 * This file carries out what the other modules decide: `scheduler` (when to check what), `policy` (what an answer
 * or an error means), `sweeper` (history pages), `watchdogs` (expiry, stuck) and `delivery` (exactly-once). The clock,
 * transport, store and notifier are injected, so it runs the same in the worker and on virtual time in tests.
 */

import { MAX_HOLD_MS } from '../api/budget';
import { SvcApiError, SvcServiceError } from '../api/errors';
import type { IntentReceipt } from '../api/schemas/receipt';
import type { TransactionStatus } from '../api/status';
import type { TrackedIntent, TrackerState, TrackingError } from '../store';
import type { Clock } from '../time/clock';
import { Delivery } from './delivery';
import { IntentMirror } from './mirror';
import { NewsPace } from './news-pace';
import {
  errorMeaning,
  ForeignReceiptError,
  isFinalStatus,
  isReceiptFor,
  isStatusBehind,
  longPollEndsBy,
  rememberState,
  sameStates,
  stateKey,
} from './policy';
import { LongPollBudget, planChecks, type SweepJob } from './scheduler';
import { ServiceClock } from './service-clock';
import { HistorySweeper } from './sweeper';
import { entryRecord, type TrackEntry } from './track-many';
import { aheadMs, clampTimes, pauseLeftMs, shiftPause, shiftTimes, steadyClock } from './tracker-time';
import { answered, baselineSet, expired, type Failure, failed, notConfigured, retried, seen, stuckWarned } from './transitions';
import { DEFAULT_TUNING, type ReceiptTransport, type TrackerDeps, type TrackerTuning, type TrackResult } from './types';
import { watch } from './watchdogs';

type CheckKind = 'wait' | 'receipt';

/** While a Retry-After pause holds, what is left of it is written down this often (ms): see `Tracker.#servePause`. */
export const PAUSE_CHECKPOINT_MS = 10_000;

/**
 * A Retry-After pause is held at least this long (ms) whatever happens (its own length if shorter); beyond it, a
 * worker whose wall clock went back since the earlier one (so that it cannot tell how long it was not running) resumes
 * rather than hold what may already have ended.
 */
export const PAUSE_HONOURED_MS = 60_000;

/** The expiry watchdog expires an intent on this many fresh answers in a row that each show it past its window. */
export const EXPIRY_ANSWERS = 5;

/** A long-poll starts only when the intent's last answer is at most this old; otherwise the slot reads it first. */
const READ_FIRST_AFTER_MS = 10_000;

/** The tracking engine. Create one per worker instance; call {@link Tracker.resume} on every start-up. */
export class Tracker {
  readonly #deps: TrackerDeps;
  /** The tracker's time: wall time at start plus monotonic time since (never jumps; lib/tracker/tracker-time.ts). */
  readonly #clock: Clock;
  readonly #tuning: TrackerTuning;
  readonly #mirror: IntentMirror;
  readonly #delivery: Delivery;
  readonly #sweeper: HistorySweeper;
  readonly #budget: LongPollBudget;
  readonly #serviceClock: ServiceClock;
  /** States each intent's answers showed (oldest first): a state coming back is not news (flapping). */
  readonly #seen = new Map<string, string[]>();
  /** How often each intent's answers may count as news (a status cycling through many states is not news each time). */
  readonly #newsPace = new NewsPace();
  /** Intents whose `done` without a final status was logged (once each, not on every answer). */
  readonly #doneLogged = new Set<string>();
  /** Requests in flight, by intentId (the history page uses the key ''). */
  readonly #inFlight = new Map<string, { kind: CheckKind | 'batch'; controller: AbortController }>();
  /** Intents the user asked to read now, and who waits for the answer. */
  readonly #refresh = new Map<string, Array<() => void>>();
  #sweeping = false;
  #nextSweepAt = 0;
  #nextIndividualAt = 0;
  #lastPageAt = Number.NEGATIVE_INFINITY;
  /** Until then (ms) the tracker is busy: an answer changed something lately, the sweeper keeps a fast pace. */
  #busyUntil = 0;
  /** An answer arrived since this engine started: its `Date` header (if readable) set the service clock. */
  #heard = false;
  /**
   * Per intent, when (monotonic ms) this engine last had an answer that showed the status it believes: the only
   * answers a watchdog acts on (I2). A stale answer (a status behind) never counts, nor does a previous worker's
   * `lastCheckedAt`, whose wall time a jump between the two lives may have made look recent.
   */
  readonly #confirmedAt = new Map<string, number>();
  /** Per intent, the answers (their `#confirmedAt`) on which the expiry watchdog would expire it, in a row. */
  readonly #expiryVotes = new Map<string, Set<number>>();
  #state: TrackerState = {};
  #stateLoaded: Promise<void> | undefined;
  #timer: AbortController | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #pumping = false;
  #again = false;
  #stopped = false;

  constructor(deps: TrackerDeps) {
    this.#deps = deps;
    this.#clock = steadyClock(deps.clock);
    this.#tuning = { ...DEFAULT_TUNING };
    for (const key of Object.keys(DEFAULT_TUNING) as Array<keyof TrackerTuning>) {
      if (deps[key] !== undefined) this.#tuning[key] = deps[key];
    }
    this.#mirror = new IntentMirror(deps.store, deps.onChange);
    this.#delivery = new Delivery(this.#mirror, deps.notifier, this.#clock);
    this.#sweeper = new HistorySweeper(this.#tuning.maxBatchPages);
    const slots = this.#tuning.maxConcurrent - 1;
    this.#budget = new LongPollBudget(slots, this.#tuning.longPollsPerMinute, this.#clock.now());
    this.#serviceClock = deps.serviceClock ?? new ServiceClock(deps.clock);
  }

  /** True while at least one request to the service is in flight (the worker must be kept alive). */
  get busy(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Number of requests in flight now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** The tracker-wide state: rate-limit pause (its times on the wall clock as it reads now) and rejected key. */
  get state(): TrackerState {
    return this.#onWall(this.#state);
  }

  /**
   * Starts tracking `intentId` (already validated). Idempotent: an intent already tracked is left as it is, except
   * that one stopped (not found, expired) is tried again. `added` is true only when the intent was not tracked. A list
   * of one ({@link Tracker.trackMany}).
   */
  async track(intentId: string, extra: Pick<TrackedIntent, 'source' | 'estimatedDuration'> = {}): Promise<TrackResult> {
    const [result] = await this.trackMany([{ intentId, extra }]);
    return result as TrackResult;
  }

  /**
   * Tracks a list at once (`entries` validated, intentIds unique; `./track-many.ts` decides each record): one store
   * transaction for all, one pump after. Resolves with `added` and the record per entry, in order; rejects, tracking
   * none, when the store refuses the transaction.
   */
  async trackMany(entries: readonly TrackEntry[]): Promise<TrackResult[]> {
    await this.#load();
    const now = this.#clock.now();
    const added = new Set<string>();
    for (const e of entries) this.#mirror.revive(e.intentId);
    const byId = new Map(entries.map((e) => [e.intentId, e]));
    const ids = [...byId.keys()];
    const written = await this.#mirror.writeMany(ids, (id, current) => {
      if (current === undefined) added.add(id);
      return entryRecord(current, byId.get(id) as TrackEntry, now);
    });
    this.#kick();
    const intents = new Map(ids.map((id, i) => [id, written[i] ?? this.#mirror.get(id)]));
    return entries.map((e) => ({ added: added.has(e.intentId), intent: intents.get(e.intentId) as TrackedIntent }));
  }

  /**
   * Records the ETA baseline of a tracked intent (seconds; lib/eta), found after tracking started. Fields already set
   * are kept; an intent no longer tracked is left alone.
   */
  async setBaseline(intentId: string, baseline: Pick<TrackedIntent, 'estimatedDuration' | 'routeDuration'>): Promise<void> {
    await this.#load();
    await this.#mirror.write(intentId, (t) => baselineSet(t, baseline));
  }

  /**
   * Stops tracking and forgets the intent: no request for it starts after this, and it is never listed again. Rejects
   * when the store refuses the deletion: the intent is then still tracked (and checked) as before.
   */
  async remove(intentId: string): Promise<void> {
    await this.#load();
    this.#inFlight.get(intentId)?.controller.abort();
    this.#settleRefresh(intentId);
    this.#seen.delete(intentId);
    this.#newsPace.forget(intentId);
    this.#confirmedAt.delete(intentId);
    this.#expiryVotes.delete(intentId);
    try {
      await this.#mirror.remove(intentId);
    } finally {
      this.#kick();
    }
    await this.#deps.notifier.forget?.(intentId).catch(() => {});
  }

  /**
   * Retry now: clears back-off and a rejected key, and resumes stopped intents (one, or all when omitted); a
   * rate-limit pause (Retry-After) still holds. Call it when the settings change, too.
   */
  async retryNow(intentId?: string): Promise<void> {
    await this.#load();
    // A rejected key is retried; the server's Retry-After still holds.
    const { pausedUntil, pausedAt, pauseReason } = this.#state;
    await this.#setState(this.#pauseLeft() > 0 ? { pausedUntil, pausedAt, pauseReason } : {});
    const ids = intentId ? [intentId] : this.#mirror.values().map((t) => t.intentId);
    for (const id of ids) {
      await this.#mirror.write(id, (t) => retried(t, this.#clock.now()));
    }
    // Requests in flight were sent with the old settings or back-off: send them again now.
    for (const [id, f] of this.#inFlight) if (!intentId || id === intentId) f.controller.abort();
    this.#nextSweepAt = 0;
    this.#nextIndividualAt = 0;
    this.#kick();
  }

  /**
   * Start-up and wake-ups: loads the store (first call), shows notifications left `pending` by a previous worker,
   * and schedules checks. Safe to call any number of times (alarms, messages, start-up events).
   */
  async resume(): Promise<void> {
    if (this.#stopped) return;
    await this.#load();
    for (const intent of this.#mirror.values()) if (intent.notification === 'pending') void this.#delivery.deliver(intent.intentId);
    this.#kick();
  }

  /** Every tracked intent as the tracker holds it (the store's content, without reading it), newest added first. */
  async list(): Promise<TrackedIntent[]> {
    await this.#load();
    return this.#mirror.values().sort((a, b) => b.addedAt - a.addedAt);
  }

  /**
   * Marks every finished intent as seen by the user (the popup was opened), without telling listeners: only the
   * badge depends on it. Resolves with how many were marked.
   */
  async markSeen(): Promise<number> {
    await this.#load();
    let marked = 0;
    for (const t of this.#mirror.values()) {
      if (t.phase !== 'final' || t.seen) continue;
      await this.#mirror.write(t.intentId, seen, { quiet: true });
      marked++;
    }
    return marked;
  }

  /**
   * Reads one intent's receipt now (GetIntentReceipt, through the sweeper's slot; a long-poll of that intent is
   * ended first) and resolves with the record once the answer (or the error) is written. An intent not being tracked
   * is returned as it is, without a request.
   */
  async refresh(intentId: string): Promise<TrackedIntent | undefined> {
    await this.#load();
    const t = this.#mirror.get(intentId);
    if (t?.phase !== 'tracking' || this.#stopped) return t;
    const done = new Promise<void>((resolve) => {
      const waiters = this.#refresh.get(intentId) ?? [];
      waiters.push(resolve);
      this.#refresh.set(intentId, waiters);
    });
    const f = this.#inFlight.get(intentId);
    if (f?.kind === 'wait') f.controller.abort();
    this.#kick();
    await done;
    return this.#mirror.get(intentId);
  }

  /** Stops every request and timer (worker teardown in tests). The engine cannot be restarted; build a new one. */
  stop(): void {
    this.#stopped = true;
    this.#timer?.abort();
    for (const f of this.#inFlight.values()) f.controller.abort();
    this.#settleAllRefresh();
  }

  // ---- internals ----

  #load(): Promise<void> {
    this.#stateLoaded ??= (async () => {
      const [, state] = await Promise.all([this.#mirror.load(), this.#deps.stateStore?.get()]);
      if (state) this.#state = state;
      await this.#rebase();
      // A restarted worker's listeners learn the state a previous one left (a Retry-After still running, a rejected key).
      if (this.#state.pausedUntil !== undefined || this.#state.keyRejected !== undefined)
        this.#deps.onStateChange?.(this.#onWall(this.#state));
    })().catch((err: unknown) => {
      this.#stateLoaded = undefined;
      throw err;
    });
    return this.#stateLoaded;
  }

  /**
   * Times written by a previous worker whose wall clock was ahead of this one's (the clock went back between them) are
   * brought back once, at load: no event in the future, no wait (back-off, Retry-After pause) longer than its own
   * length from now. Within one life the tracker's clock never jumps (lib/tracker/tracker-time.ts). A refused write
   * leaves that record as it was.
   */
  async #rebase(): Promise<void> {
    const now = this.#clock.now();
    const cap = this.#tuning.backoffCapMs;
    // The clock went back between the two workers: the earlier one's times move back together (their order kept).
    const shift = aheadMs(this.#mirror.values(), this.#state, now);
    const rebased = (t: TrackedIntent) => clampTimes(shiftTimes(t, shift), now, cap);
    for (const t of this.#mirror.values()) {
      if (rebased(t) === t) continue;
      await this.#mirror.write(t.intentId, (c) => c && rebased(c), { quiet: true }).catch(() => {});
    }
    const { pausedUntil, pausedAt, pauseServedMs = 0, pauseWallAheadMs = 0 } = this.#state;
    if (pausedUntil !== undefined) {
      const moved = { pausedUntil: pausedUntil - shift, ...(pausedAt === undefined ? {} : { pausedAt: pausedAt - shift }) };
      const steadyLeft = pauseLeftMs(moved, now, MAX_HOLD_MS);
      // Read on the wall clock the earlier worker's read when it wrote the pause too: after an NTP step back inside
      // its life, its steady times ran ahead of the wall clock, and the records do not show it once this worker
      // started later than the step was long. The shorter of the two readings is what is left.
      const wallLeft = Math.min(steadyLeft, pauseLeftMs(shiftPause(this.#state, pauseWallAheadMs), now, MAX_HOLD_MS));
      // Held for sure: until min(its length, PAUSE_HONOURED_MS) of it are served, whatever the wall clock did while
      // no worker ran (time not running is not counted as served).
      const length = pausedAt === undefined ? wallLeft : pausedUntil - pausedAt + pauseServedMs;
      // (A state written before `pauseServedMs` existed says nothing of what was served: none is held for sure.)
      const served = this.#state.pauseServedMs !== undefined;
      const sure = served ? Math.max(0, Math.min(PAUSE_HONOURED_MS, length) - pauseServedMs) : 0;
      // The clock went back: how long no worker ran is unknown, and what was left at the last checkpoint could
      // outlast the service's hold by every death in between; beyond the sure part it is not held.
      const left = Math.max(sure, shift > 0 ? Math.min(wallLeft, sure) : wallLeft);
      if (left === steadyLeft && shift === 0 && (pausedAt === undefined || pausedAt <= now)) return;
      this.#state = { ...this.#state, pausedAt: now, pausedUntil: now + left };
      await this.#saveState().catch(() => {});
    }
  }

  async #setState(state: TrackerState): Promise<void> {
    this.#state = state;
    await this.#saveState();
    this.#deps.onStateChange?.(this.#onWall(state));
  }

  /**
   * Writes the state; a pause with how far the wall clock reads ahead of this engine's steady clock now
   * (`pauseWallAheadMs`): a next worker reads the pause on both clocks (`#rebase`), as an NTP step inside this life
   * moved them apart.
   */
  async #saveState(): Promise<void> {
    const { pauseWallAheadMs: _w, ...state } = this.#state;
    await this.#deps.stateStore?.set(state.pausedUntil === undefined ? state : { ...state, pauseWallAheadMs: this.#wallAhead() });
  }

  /** How far (ms) the wall clock now reads ahead of the tracker's steady clock (negative: behind; 0 without a jump). */
  #wallAhead(): number {
    return this.#deps.clock.now() - this.#clock.now();
  }

  /** `state`, kept on the steady clock, with its pause on the wall clock as it reads now. */
  #onWall(state: TrackerState): TrackerState {
    return shiftPause(state, this.#wallAhead());
  }

  /** Schedules a pump (coalesced). */
  #kick(): void {
    if (this.#stopped) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          await this.#pump();
        } while (this.#again && !this.#stopped);
      } catch (err) {
        console.error('tracker pump failed', err instanceof Error ? err.message : err);
      } finally {
        this.#pumping = false;
      }
    })();
  }

  /** Wakes the engine at `at` (ms) unless it is already woken earlier. */
  #wakeAt(at: number): void {
    if (this.#stopped || at >= this.#timerAt) return;
    this.#timer?.abort();
    const controller = new AbortController();
    this.#timer = controller;
    this.#timerAt = at;
    void this.#clock.sleep(Math.max(0, at - this.#clock.now()), controller.signal).then(() => {
      if (controller.signal.aborted) return;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#kick();
    });
  }

  /** Runs the watchdogs, then starts whatever the scheduler says can start now, and sets the timer. */
  async #pump(): Promise<void> {
    await this.#load();
    if (this.#stopped) return;
    const clock = this.#clock;
    let now = clock.now();
    // Nothing can be sent now: a user's refresh gets the record as it is rather than waiting.
    if (this.#state.keyRejected) return this.#settleAllRefresh();
    if (this.#state.pausedUntil !== undefined && this.#pauseLeft() === 0) await this.#pauseEnded();
    if (this.#pauseLeft() > 0) {
      await this.#servePause(now);
      this.#wakeAt(now + Math.min(this.#pauseLeft(), PAUSE_CHECKPOINT_MS));
      return this.#settleAllRefresh();
    }
    const transport = await this.#deps.transport();
    if (this.#stopped || this.#paused()) return this.#kick();
    if (!transport) {
      await this.#notConfigured();
      return this.#settleAllRefresh();
    }
    now = clock.now();
    let wakeAt = Number.POSITIVE_INFINITY;
    const verify = new Set<string>();
    // The earliest the service's time can be by every Date sample kept: a watchdog acts only once even that is past
    // its deadline. Until an answer told the service's time (a worker just started), while too few samples are kept,
    // or while its Date headers disagree or leave an error too wide to decide, a watchdog asks before it acts.
    const sure = this.#serviceClock.earliestSure();
    const serviceNow = sure ?? this.#serviceClock.now();
    const clockKnown = (this.#heard || this.#serviceClock.hasEvidence) && sure !== undefined && this.#serviceClock.decidable;
    for (const t of this.#tracking()) {
      const w = watch(t, now, this.#tuning, this.#deps.notifier.showStuck !== undefined, serviceNow, this.#answerAge(t.intentId));
      if (w.action === 'none') wakeAt = Math.min(wakeAt, w.wakeAt ?? wakeAt);
      else if (w.action === 'verify' || !clockKnown) verify.add(t.intentId);
      else if (w.action === 'expire' && this.#expiryVote(t.intentId)) await this.#expire(t.intentId);
      else if (w.action === 'expire') verify.add(t.intentId);
      else await this.#stuck(t.intentId, w.minutes);
    }
    const tracking = this.#tracking();
    const history = transport.getIntentHistoryLite !== undefined && tracking.some((t) => t.receipt?.createdAt);
    const inFlight = new Map([...this.#inFlight].map(([id, f]) => [id, f.kind] as const));
    const plan = planChecks({
      now,
      tracking,
      inFlight,
      longPollTokens: this.#budget.available(now),
      longPollTokenAt: this.#budget.nextAt(now),
      sweeping: this.#sweeping,
      nextSweepAt: this.#nextSweepAt,
      nextIndividualAt: this.#nextIndividualAt,
      lastPageAt: this.#lastPageAt,
      refresh: [...this.#refresh.keys()],
      verify,
      history,
      tuning: this.#tuning,
    });
    for (const id of plan.longPolls) {
      this.#budget.take(now);
      void this.#check(transport, id, 'wait');
    }
    if (plan.sweep) {
      // More intents than long-poll slots: some are watched by the sweeper alone.
      const hasCold = tracking.length > this.#tuning.maxConcurrent - 1;
      this.#sweep(transport, plan.sweep, hasCold, history);
    }
    this.#wakeAt(Math.min(plan.wakeAt, wakeAt));
  }

  /** True while nothing may be sent: a rejected key, or a rate-limit pause. */
  #paused(): boolean {
    return this.#state.keyRejected !== undefined || this.#pauseLeft() > 0;
  }

  /** How long (ms) the Retry-After pause still holds: never more than its own length, whatever the wall clock did. */
  #pauseLeft(): number {
    return pauseLeftMs(this.#state, this.#clock.now(), MAX_HOLD_MS);
  }

  #tracking(): TrackedIntent[] {
    return this.#mirror.values().filter((t) => t.phase === 'tracking');
  }

  async #notConfigured(): Promise<void> {
    const now = this.#clock.now();
    for (const t of this.#tracking()) {
      if (t.lastError?.kind === 'not-configured') continue;
      await this.#mirror.write(t.intentId, (c) => notConfigured(c, now));
    }
  }

  /** How long ago (monotonic ms) this engine had an answer that showed the status it believes; Infinity if never. */
  #answerAge(intentId: string): number {
    return this.#clock.monotonic() - (this.#confirmedAt.get(intentId) ?? Number.NEGATIVE_INFINITY);
  }

  /**
   * One more fresh answer (told apart by its arrival, monotonic) on which the expiry watchdog would expire `intentId`;
   * true once {@link EXPIRY_ANSWERS} distinct ones did. Expiry ends tracking for good, and a stale replica may answer
   * COMMITTED for an intent that executes while the tracker has not yet seen it EXECUTING: each further answer is a
   * fresh read, and any answer that is not COMMITTED starts the count again (`#record`).
   */
  #expiryVote(intentId: string): boolean {
    const at = this.#confirmedAt.get(intentId);
    const votes = this.#expiryVotes.get(intentId) ?? new Set<number>();
    if (at !== undefined) votes.add(at);
    this.#expiryVotes.set(intentId, votes);
    return votes.size >= EXPIRY_ANSWERS;
  }

  async #expire(intentId: string): Promise<void> {
    const now = this.#clock.now();
    await this.#mirror.write(intentId, (c) => expired(c, now));
  }

  /**
   * The stuck warning: queued with the notifier first, then marked given (`stuckNotifiedAt`). A mark written first
   * would lose the warning to a worker dying before it was queued; queued first, a worker dying before the mark
   * queues it again on its next wake-up, and the notifier keeps one warning per intent. A rejected queue leaves the
   * mark unwritten: the next watchdog turn tries again.
   */
  async #stuck(intentId: string, minutes: number): Promise<void> {
    const { notifier } = this.#deps;
    const clock = this.#clock;
    const current = this.#mirror.get(intentId);
    if (!current || current.stuckNotifiedAt !== undefined || !notifier.showStuck) return;
    // Asked again when the warning's turn comes (the notifier may wait for a notification being grouped): an answer
    // that arrived meanwhile and did not show EXECUTING (a stale one) leaves the decision to the next watchdog turn.
    const stillDue = () => {
      const t = this.#mirror.get(intentId);
      return t?.phase === 'tracking' && t.status === 'EXECUTING' && this.#answerAge(intentId) < this.#tuning.freshForMs;
    };
    try {
      if ((await notifier.showStuck(current, minutes, stillDue)) === false) return;
    } catch {
      return;
    }
    const now = clock.now();
    await this.#mirror.write(intentId, (c) => stuckWarned(c, now));
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
  #sweep(transport: ReceiptTransport, job: SweepJob, hasCold: boolean, history: boolean): void {
    const clock = this.#clock;
    const started = clock.now();
    this.#sweeping = true;
    if (job.kind === 'history') this.#lastPageAt = started;
    if (job.kind === 'receipt' && (job.reason === 'stale' || job.reason === 'verify')) {
      this.#nextIndividualAt = started + this.#tuning.individualEveryMs;
    }
    const run = job.kind === 'history' ? this.#historyPage(transport) : this.#check(transport, job.intentId, 'receipt');
    void run.then(
      (news) => {
        const now = clock.now();
        const busy = now < this.#busyUntil;
        // More intents than slots, or (busy) one that holds no long-poll now (its long-poll waits for a token, or for
        // the pause after an unchanged answer): some intent is watched by the sweeper alone.
        const cold = hasCold || (busy && this.#tracking().some((t) => this.#inFlight.get(t.intentId)?.kind !== 'wait'));
        // With every intent in a long-poll, history only watches for a final status the legs do not show: slow pace.
        // Busy: the pages of a history cycle follow one another at once.
        const gap = !cold
          ? 2 * this.#tuning.sweepGapMs
          : news
            ? 0
            : busy
              ? job.kind === 'history' && this.#sweeper.midCycle
                ? 0
                : this.#tuning.busySweepGapMs
              : this.#tuning.sweepGapMs;
        const from = history && busy && cold && job.kind === 'receipt' ? Math.min(started, this.#lastPageAt) : started;
        this.#nextSweepAt = Math.max(this.#nextSweepAt, from + gap);
        this.#sweeping = false;
        this.#kick();
      },
      () => {
        this.#sweeping = false;
        this.#kick();
      },
    );
  }

  /**
   * One check of one intent: a long-poll (`wait`) or a single read (`receipt`). A long-poll the server holds past
   * `waitCapMs` is ended and followed by a single read in the same slot. Resolves with true when the answer told
   * something new.
   */
  async #check(transport: ReceiptTransport, intentId: string, kind: CheckKind): Promise<boolean> {
    const controller = new AbortController();
    this.#inFlight.set(intentId, { kind, controller });
    const clock = this.#clock;
    const started = clock.now();
    const options = { signal: controller.signal };
    try {
      const t = this.#mirror.get(intentId);
      if (!t) return false;
      // A long-poll starts only on a recent answer (else the slot reads the receipt first) and ends by
      // `longPollEndsBy`, counted from when it was asked and from the intent's last answer, whatever the server's wait
      // and however long the request budget held it: the read that follows still comes within S(N). A first long-poll
      // (no states yet) is answered at once: it is a read.
      const recent = t.lastCheckedAt === undefined || started - t.lastCheckedAt <= READ_FIRST_AFTER_MS;
      if (kind === 'wait' && recent) {
        const cap = new AbortController();
        void clock.sleep(Math.max(0, longPollEndsBy(t, started, this.#tuning) - clock.now()), cap.signal).then(() => cap.abort());
        try {
          const res = await transport.waitIntentReceipt(
            { intentId, lastReceiptStates: t.lastStates },
            { signal: AbortSignal.any([controller.signal, cap.signal]), timeoutMs: this.#tuning.waitCapMs },
          );
          if (controller.signal.aborted) return false;
          this.#checkFor(intentId, res.intentReceipt.intentId, 'WaitIntentReceipt');
          const status = res.intentReceipt.status;
          if (res.done && !isFinalStatus(status) && !this.#doneLogged.has(intentId)) {
            this.#doneLogged.add(intentId);
            console.warn('tracker: WaitIntentReceipt said done with a status that is not final; tracking goes on', { intentId, status });
          }
          const states = res.receiptStates ?? undefined;
          const final = isFinalStatus(status);
          // Unchanged, or stale (a status behind the believed one): the next long-poll waits its pause.
          const unchanged = !final && ((sameStates(states ?? [], t.lastStates) && status === t.status) || isStatusBehind(status, t.status));
          // A state seen before coming back is no news: a flapping service is asked at the idle pace.
          const flapping = !final && this.#seenLately(intentId, stateKey(status, states ?? t.lastStates));
          const news = await this.#record(
            intentId,
            res.intentReceipt,
            states,
            unchanged || flapping ? started + this.#tuning.minWaitCycleMs : undefined,
            flapping,
          );
          if (news) this.#budget.refund();
          return news;
        } catch (err) {
          const capped = cap.signal.aborted || (err instanceof SvcApiError && err.kind === 'timeout');
          if (controller.signal.aborted || !capped) throw err;
          // Held past our cap: read the receipt instead, in the same slot (unless the tracker was paused meanwhile).
          if (this.#paused()) return false;
        } finally {
          // Ends the cap's timer (an answer came first); the request is settled by then.
          cap.abort();
        }
      }
      const res = await transport.getIntentReceipt({ intentId }, { ...options, timeoutMs: 15_000 });
      if (controller.signal.aborted) return false;
      this.#checkFor(intentId, res.intentReceipt.intentId, 'GetIntentReceipt');
      const status = res.intentReceipt.status;
      const flapping = !isFinalStatus(status) && this.#seenLately(intentId, stateKey(status, t.lastStates));
      return await this.#record(intentId, res.intentReceipt, undefined, undefined, flapping);
    } catch (err) {
      if (controller.signal.aborted) return false;
      // A store that cannot write (quota, closed database) loses this answer, not the intent: it is asked again.
      await this.#fail(intentId, err).catch((e: unknown) =>
        console.error('tracker could not record an error', e instanceof Error ? e.message : e),
      );
      return false;
    } finally {
      if (this.#inFlight.get(intentId)?.controller === controller) this.#inFlight.delete(intentId);
      if (kind === 'receipt') this.#settleRefresh(intentId);
      this.#kick();
    }
  }

  /** One page of GetIntentHistory; every final row of a tracked intent is acted on at once. True when it found one. */
  async #historyPage(transport: ReceiptTransport): Promise<boolean> {
    const request = this.#sweeper.next(this.#tracking());
    if (!request || !transport.getIntentHistoryLite) return false;
    const controller = new AbortController();
    this.#inFlight.set('', { kind: 'batch', controller });
    try {
      const res = await transport.getIntentHistoryLite(request, { signal: controller.signal, timeoutMs: 15_000 });
      let found = false;
      for (const row of this.#sweeper.answer(res)) {
        if (this.#mirror.get(row.intentId)?.phase !== 'tracking') continue;
        // Final for sure: a check of this intent still in flight has nothing more to tell.
        this.#inFlight.get(row.intentId)?.controller.abort();
        found = (await this.#record(row.intentId, row.receipt, undefined, undefined)) || found;
      }
      return found;
    } catch (err) {
      this.#sweeper.reset();
      const meaning = errorMeaning(err);
      if (meaning === 'rate-limited') await this.#rateLimited(err);
      else if (meaning === 'key-rejected' || meaning === 'origin-rejected') await this.#keyRejected(meaning);
      // Other failures of a page: the individual checks still run.
      return false;
    } finally {
      this.#inFlight.delete('');
    }
  }

  /**
   * Throws {@link ForeignReceiptError} (logged) when an answer's receipt is not about the intent asked: it is never
   * recorded, and the intent is asked again after a back-off.
   */
  #checkFor(intentId: string, answered: string, operation: string): void {
    if (isReceiptFor(intentId, answered)) return;
    console.warn(`tracker: ${operation} answered about another intent; ignored`, { asked: intentId, answered });
    throw new ForeignReceiptError(intentId, answered);
  }

  /** Notes that an answer showed state `key` for `intentId`; true when it is a return to an earlier state (flapping). */
  #seenLately(intentId: string, key: string): boolean {
    const { seen, returned } = rememberState(this.#seen.get(intentId) ?? [], key);
    this.#seen.set(intentId, seen);
    return returned;
  }

  /**
   * Writes an answer (already checked to be about `intentId`); only a final status moves the intent to `final`, with
   * its notification pending — a `done` flag alone never does. True when it was news; an answer that only brings
   * back a state seen before (`flapping`) is not, and does not make the tracker busy; nor is one past the intent's
   * news pace (`./news-pace`): it is written with the pause of an unchanged answer before the next long-poll.
   */
  async #record(
    intentId: string,
    receipt: IntentReceipt,
    states: TransactionStatus[] | undefined,
    nextCheckAt: number | undefined,
    flapping = false,
  ): Promise<boolean> {
    const now = this.#clock.now();
    this.#heard = true;
    this.#serviceClock.observeAtLeast(Date.parse(receipt.updatedAt ?? ''));
    let news = false;
    let stale = false;
    const written = await this.#mirror.write(intentId, (t) => {
      stale = t?.status !== undefined && isStatusBehind(receipt.status, t.status);
      const a = answered(t, receipt, states, now, nextCheckAt);
      news = a.next !== undefined && a.news && !flapping;
      if (!news || a.next?.phase !== 'tracking' || this.#newsPace.admit(intentId, receipt.status)) return a.next;
      news = false;
      return { ...a.next, nextCheckAt: Math.max(a.next.nextCheckAt ?? 0, now + this.#tuning.minWaitCycleMs) };
    });
    if (news) this.#busyUntil = now + this.#tuning.busyForMs;
    if (written && !stale) this.#confirmedAt.set(intentId, this.#clock.monotonic());
    if (receipt.status !== 'COMMITTED') this.#expiryVotes.delete(intentId);
    else if (stale) this.#confirmedAt.delete(intentId);
    if (written?.phase !== 'tracking') {
      this.#confirmedAt.delete(intentId);
      this.#expiryVotes.delete(intentId);
      this.#seen.delete(intentId);
      this.#newsPace.forget(intentId);
    }
    // Not awaited: the request's slot is free again while the notification is shown (it may be held for grouping).
    if (written?.notification === 'pending') void this.#delivery.deliver(intentId);
    return news;
  }

  /** Records an error: tracker-wide pauses, the NotFound grace, or a back-off of this intent. */
  async #fail(intentId: string, err: unknown): Promise<void> {
    const now = this.#clock.now();
    const meaning = errorMeaning(err);
    if (meaning === 'key-rejected' || meaning === 'origin-rejected') {
      await this.#keyRejected(meaning);
      return;
    }
    if (meaning === 'rate-limited') await this.#rateLimited(err);
    const failure: Failure = {
      notFound: meaning === 'not-found',
      kind: err instanceof SvcApiError || err instanceof ForeignReceiptError ? err.kind : 'unknown',
      message: err instanceof Error ? err.message : String(err),
      retryAfterMs: retryAfterOf(err),
      random: (this.#deps.random ?? Math.random)(),
    };
    await this.#mirror.write(intentId, (t) => failed(t, failure, now, this.#tuning));
  }

  /**
   * The service answered another request of the worker with 429 and `Retry-After` (`ms`): the tracker sends nothing
   * before then either, and keeps the pause in its state, so that a restarted worker holds it too.
   */
  async holdOff(ms: number): Promise<void> {
    await this.#load();
    await this.#pauseFor(ms);
    // The pump serves the pause (its checkpoints) and wakes when it ends.
    this.#kick();
  }

  /** 429: no new request anywhere before Retry-After (at least one back-off step). */
  async #rateLimited(err: unknown): Promise<void> {
    await this.#pauseFor(Math.max(this.#tuning.backoffBaseMs, retryAfterOf(err)));
  }

  /**
   * Writes down how much of the Retry-After pause is left (`pausedAt` now, `pausedUntil` that much later), at most every
   * {@link PAUSE_CHECKPOINT_MS} while it holds: a next worker whose wall clock went back (so that it cannot tell how
   * long ago the pause began) then holds only what was left at the last checkpoint, not the whole pause again. A
   * refused write keeps the previous checkpoint.
   */
  async #servePause(now: number): Promise<void> {
    const { pausedAt, pauseServedMs = 0 } = this.#state;
    if (pausedAt !== undefined && now - pausedAt < PAUSE_CHECKPOINT_MS) return;
    const served = pauseServedMs + Math.max(0, now - (pausedAt ?? now));
    this.#state = { ...this.#state, pausedAt: now, pausedUntil: now + this.#pauseLeft(), pauseServedMs: served };
    await this.#saveState().catch(() => {});
  }

  /** The pause has been served whole: it is forgotten, so that no later worker holds any of it again. */
  async #pauseEnded(): Promise<void> {
    const { pausedUntil: _u, pausedAt: _a, pauseServedMs: _s, pauseReason: _r, pauseWallAheadMs: _w, ...rest } = this.#state;
    await this.#setState(rest).catch(() => {});
  }

  /** Pauses every request for `ms` (at most {@link MAX_HOLD_MS}) from now, unless a longer pause holds. */
  async #pauseFor(ms: number): Promise<void> {
    const length = Math.min(ms, MAX_HOLD_MS);
    if (!(length > 0) || this.#pauseLeft() >= length) return;
    const now = this.#clock.now();
    await this.#setState({
      ...this.#state,
      pausedUntil: now + length,
      pausedAt: now,
      pauseServedMs: 0,
      pauseReason: 'The service is rate-limiting requests; the tracker slowed down.',
    });
  }

  /** A rejected key or origin pauses everything until the settings change (retryNow). */
  async #keyRejected(kind: 'key-rejected' | 'origin-rejected'): Promise<void> {
    const error: TrackingError = {
      kind,
      message:
        kind === 'key-rejected'
          ? 'The service rejected the access key. Tracking is paused until the key is updated in the settings.'
          : 'The access key is not allowed from this extension (InvalidOrigin). Tracking is paused until the settings change.',
      at: this.#clock.now(),
    };
    for (const [id, f] of this.#inFlight) if (id !== '') f.controller.abort();
    await this.#setState({ ...this.#state, keyRejected: error });
  }

  #settleAllRefresh(): void {
    for (const id of [...this.#refresh.keys()]) this.#settleRefresh(id);
  }

  #settleRefresh(intentId: string): void {
    const waiters = this.#refresh.get(intentId);
    this.#refresh.delete(intentId);
    for (const resolve of waiters ?? []) resolve();
  }
}

/** Retry-After of a 429 in ms (0 when absent). */
function retryAfterOf(err: unknown): number {
  return err instanceof SvcServiceError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
}
