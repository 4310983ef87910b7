/**
 * The tracker: keeps every tracked intent that is not final under watch, persists every answer before anything
 * else happens, and shows exactly one notification per intent that reaches a notifying final status.
 *
 * Pure logic: the clock, the transport (Svc client), the store and the notifier are injected, so the engine runs
 * the same in the service worker and in tests with virtual time.
 *
 * ## Scheduling policy (connections, fairness)
 * At most `maxConcurrent` (4) requests are in flight to the service at any time, whatever the number of tracked
 * intents, so that the popup's own calls never queue behind the tracker (Chromium opens 6 connections per host):
 * - **Hot slots** (`maxConcurrent - 1` = 3): WaitIntentReceipt long-polls (spec §4.1) for the intents most likely to
 *   change soon, ranked: never checked yet → EXECUTING → COMMITTED → others, then most recently changed or added.
 *   A long-poll that comes back unchanged sooner than `minWaitCycleMs` (5 s) waits out the rest of that time, so a
 *   server with a zero wait time-out cannot make the tracker spin.
 * - **Sweeper slot** (1): one request every `sweepIntervalMs` (5 s) for the other ("cold") intents: an intent never
 *   checked yet first (GetIntentReceipt, at once), otherwise — when there are two or more cold intents and the
 *   transport can — one page (100 rows) of GetIntentHistory for the notifying final statuses created since the
 *   oldest cold intent, which detects every cold intent that finished; otherwise GetIntentReceipt for the cold intent
 *   checked longest ago. So a cold intent waits at most `N_cold × 5 s` between individual checks, and its final
 *   status is seen within one history cycle (≤ `maxBatchPages` pages, 5 s apart) when batching is available.
 *   **Busy pace**: for 2 intervals after a page that found finished intents, the pages of a cycle follow one another
 *   at once and cycles start 1 s apart, so a burst of finishing intents is seen within about a second plus one cycle
 *   (≤ `maxBatchPages` requests). Only the sweeper's one slot is used, so the bound on connections holds.
 * - When idle (nothing changes) the tracker sends at most 3 × 60 / max(server wait, 5 s) + 12 requests a minute:
 *   ≤ 21/min with the service's usual 20 s wait, ≤ 48/min with a zero wait.
 *
 * ## Faults
 * 5xx, time-outs, resets and malformed bodies back off per intent (exponential, full jitter, capped); 429 slows the
 * whole tracker until `Retry-After` (at least one back-off step); a rejected key or origin pauses everything until
 * the settings change; NotFound is retried with a long back-off for `notFoundGraceMs` (10 min) after the intent was
 * added (the service may not have the receipt right after commit), then the intent is marked not found; an intent
 * COMMITTED for longer than `commitWindowMs` (10 min, spec §3) is marked expired.
 *
 * ## Exactly-once notifications across worker restarts
 * The final status and `notification: 'pending'` are written in one record update; the notification is then shown
 * with an id derived from the intentId and the record moves to `shown`. A worker that dies between the two finds the
 * record `pending` on start-up and asks the notifier whether that notification is already on screen before showing
 * it. Nothing that matters is held only in memory: a new engine (a new worker) loads its mirror from the store.
 */
import { isKeyRejected, isNotFound, isOriginRejected, isRateLimited, SvcApiError } from '../api/errors';
import type { CallOptions } from '../api/http';
import type { HistoryLiteRequest, HistoryLiteResponse } from '../api/schemas/history';
import type {
  GetIntentReceiptRequest,
  GetIntentReceiptResponse,
  IntentReceipt,
  WaitIntentReceiptRequest,
  WaitIntentReceiptResponse,
} from '../api/schemas/receipt';
import { FINAL_INTENT_STATUSES, type TransactionStatus } from '../api/status';
import type { IntentStore, TrackedIntent, TrackerState, TrackerStateStore, TrackingError } from '../store';
import type { Clock } from './clock';

/** What the tracker needs from the service; SvcClient implements it. `getIntentHistory` enables batch refresh. */
export interface ReceiptTransport {
  waitIntentReceipt(request: WaitIntentReceiptRequest, options?: CallOptions): Promise<WaitIntentReceiptResponse>;
  getIntentReceipt(request: GetIntentReceiptRequest, options?: CallOptions): Promise<GetIntentReceiptResponse>;
  getIntentHistoryLite?(request: HistoryLiteRequest, options?: CallOptions): Promise<HistoryLiteResponse>;
}

/** Shows desktop notifications. Ids are stable per intent so a shown notification can be found again. */
export interface Notifier {
  /** Shows the notification for an intent that reached a notifying final status; resolves with what it said. */
  show(intent: TrackedIntent): Promise<{ title: string; message: string } | undefined>;
  /** True when a notification for this intent is already on screen (used when recovering `pending` records). */
  exists(intentId: string): Promise<boolean>;
  /** Shows "taking longer than expected" for an intent EXECUTING for `minutes` (optional). */
  showStuck?(intent: TrackedIntent, minutes: number): Promise<void>;
}

/** Dependencies and tuning of the tracker. Times in milliseconds. */
export interface TrackerDeps {
  store: IntentStore;
  /** Where the tracker-wide state (rate-limit pause, rejected key) is kept; in memory when omitted. */
  stateStore?: TrackerStateStore;
  /** The transport for the current settings, or undefined while the extension is not configured. */
  transport(): Promise<ReceiptTransport | undefined>;
  notifier: Notifier;
  clock: Clock;
  /** Random source in [0, 1) for back-off jitter (tests inject a fixed one). */
  random?: () => number;
  /** Called after a tracked record changed (e.g. to tell an open popup). */
  onChange?: (intentId: string) => void;
  /** Called when the tracker-wide state changes (badge, popup banner). */
  onStateChange?: (state: TrackerState) => void;
  /** Most requests in flight at once (default 4; one of them is the sweeper's). */
  maxConcurrent?: number;
  /** Client time-out of one WaitIntentReceipt (default 150 000: longer than any usual server wait). */
  waitTimeoutMs?: number;
  /** Shortest time between two long-polls of one intent (default 5 000). */
  minWaitCycleMs?: number;
  /** Time between two sweeper requests (default 5 000); 1/5 of it after a sweep that found a change. */
  sweepIntervalMs?: number;
  /** GetIntentHistory pages per batch cycle before starting over (default 5). */
  maxBatchPages?: number;
  /** Back-off: first delay ceiling (default 1 000) and largest delay (default 60 000). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** How long NotFound is retried after the intent was added (default 10 min). */
  notFoundGraceMs?: number;
  /** After this long in COMMITTED an intent is expired (default 10 min + 1 min of slack). */
  commitWindowMs?: number;
  /** EXECUTING longer than max(this, 2 × the quote's estimated duration) raises one stuck warning (default 15 min). */
  stuckAfterMs?: number;
}

/** Statuses that raise a desktop notification. */
export const NOTIFYING_STATUSES: readonly string[] = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'];

/** True when no more progress is expected for an intent in this status. */
export function isFinalStatus(status: string | undefined): boolean {
  return status !== undefined && FINAL_INTENT_STATUSES.includes(status);
}

/**
 * Back-off delay in ms after `attempt` consecutive failures (1-based): full jitter,
 * `random × min(cap, base × 2^(attempt-1))`, at least 250 ms; never less than `retryAfterMs` when given.
 */
export function backoffDelay(attempt: number, random: number, baseMs: number, capMs: number, retryAfterMs = 0): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.max(250, Math.round(random * ceiling), retryAfterMs);
}

/** Result of adding an intent. */
export type TrackResult = { added: boolean; intent: TrackedIntent };

type CheckKind = 'wait' | 'receipt';

/** The tracking engine. Create one per worker instance; call {@link Tracker.resume} on every start-up. */
export class Tracker {
  readonly #deps: Required<
    Pick<
      TrackerDeps,
      | 'maxConcurrent'
      | 'waitTimeoutMs'
      | 'minWaitCycleMs'
      | 'sweepIntervalMs'
      | 'maxBatchPages'
      | 'backoffBaseMs'
      | 'backoffCapMs'
      | 'notFoundGraceMs'
      | 'commitWindowMs'
      | 'stuckAfterMs'
    >
  > &
    TrackerDeps;
  /** In-memory mirror of the store (loaded once, see #load); every write goes to the store first. */
  readonly #intents = new Map<string, TrackedIntent>();
  /** Requests in flight, by intentId (the sweeper's batch uses the key ''). */
  readonly #inFlight = new Map<string, { kind: CheckKind | 'batch'; controller: AbortController }>();
  readonly #delivering = new Set<string>();
  #sweeping = false;
  #nextSweepAt = 0;
  #batchCursor: number | undefined;
  #batchPages = 0;
  /** Until then (ms) the sweeper runs at its busy pace: a batch recently found finished intents. */
  #busyUntil = 0;
  #state: TrackerState = {};
  #loaded: Promise<void> | undefined;
  #timer: AbortController | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #pumping = false;
  #again = false;
  #stopped = false;

  constructor(deps: TrackerDeps) {
    this.#deps = {
      maxConcurrent: 4,
      waitTimeoutMs: 150_000,
      minWaitCycleMs: 5_000,
      sweepIntervalMs: 5_000,
      maxBatchPages: 5,
      backoffBaseMs: 1_000,
      backoffCapMs: 60_000,
      notFoundGraceMs: 10 * 60_000,
      commitWindowMs: 11 * 60_000,
      stuckAfterMs: 15 * 60_000,
      ...deps,
    };
  }

  /** True while at least one request to the service is in flight (the worker must be kept alive). */
  get busy(): boolean {
    return this.#inFlight.size > 0;
  }

  /** Number of requests in flight now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** The tracker-wide state: rate-limit pause and rejected key. */
  get state(): TrackerState {
    return this.#state;
  }

  /**
   * Starts tracking `intentId` (already validated). Idempotent: an intent already tracked is left as it is, except
   * that one stopped (not found, expired) is tried again.
   */
  async track(intentId: string, extra: Pick<TrackedIntent, 'source' | 'estimatedDuration'> = {}): Promise<TrackResult> {
    await this.#load();
    let added = false;
    const now = this.#deps.clock.now();
    const intent = await this.#write(intentId, (current) => {
      if (current) {
        return current.phase === 'not-found' || current.phase === 'expired'
          ? { ...current, phase: 'tracking', retry: undefined, lastError: undefined, addedAt: now }
          : undefined;
      }
      added = true;
      return { intentId, addedAt: now, lastStates: [], phase: 'tracking', notification: 'none', ...extra };
    });
    this.#kick();
    return { added, intent: intent as TrackedIntent };
  }

  /** Stops tracking and forgets the intent. */
  async remove(intentId: string): Promise<void> {
    await this.#load();
    this.#inFlight.get(intentId)?.controller.abort();
    this.#intents.delete(intentId);
    await this.#deps.store.remove(intentId);
    this.#deps.onChange?.(intentId);
    this.#kick();
  }

  /**
   * Retry now: clears back-off and the tracker-wide pause, and resumes stopped intents (one, or all when omitted).
   * Call it when the settings change, too.
   */
  async retryNow(intentId?: string): Promise<void> {
    await this.#load();
    await this.#setState({});
    const ids = intentId ? [intentId] : [...this.#intents.keys()];
    for (const id of ids) {
      await this.#write(id, (t) =>
        t && t.phase !== 'final'
          ? {
              ...t,
              phase: 'tracking',
              retry: undefined,
              nextCheckAt: undefined,
              addedAt: t.phase === 'not-found' ? this.#deps.clock.now() : t.addedAt,
            }
          : undefined,
      );
    }
    for (const [id, f] of this.#inFlight) if (f.kind !== 'wait' || !intentId || id === intentId) f.controller.abort();
    this.#nextSweepAt = 0;
    this.#kick();
  }

  /**
   * Start-up and wake-ups: loads the store (first call), shows notifications left `pending` by a previous worker,
   * and schedules checks. Safe to call any number of times (alarms, messages, start-up events).
   */
  async resume(): Promise<void> {
    if (this.#stopped) return;
    await this.#load();
    for (const intent of this.#intents.values()) if (intent.notification === 'pending') void this.#deliver(intent.intentId);
    this.#kick();
  }

  /** Every tracked intent as the tracker holds it (the store's content, without reading it), newest added first. */
  async list(): Promise<TrackedIntent[]> {
    await this.#load();
    return [...this.#intents.values()].sort((a, b) => b.addedAt - a.addedAt);
  }

  /**
   * Marks every finished intent as seen by the user (the popup was opened), without telling listeners: only the
   * badge depends on it. Resolves with how many were marked.
   */
  async markSeen(): Promise<number> {
    await this.#load();
    let marked = 0;
    for (const t of [...this.#intents.values()]) {
      if (t.phase !== 'final' || t.seen) continue;
      await this.#write(t.intentId, (c) => (c?.phase === 'final' && !c.seen ? { ...c, seen: true } : undefined), { quiet: true });
      marked++;
    }
    return marked;
  }

  /** Gets one intent's receipt now (GetIntentReceipt) through the sweeper slot and records it. */
  async refresh(intentId: string): Promise<TrackedIntent | undefined> {
    await this.#load();
    const t = this.#intents.get(intentId);
    if (!t || t.phase === 'final' || this.#inFlight.has(intentId)) return t;
    await this.#write(intentId, (c) => (c ? { ...c, nextCheckAt: undefined, retry: undefined, lastCheckedAt: undefined } : undefined));
    this.#nextSweepAt = 0;
    this.#kick();
    return this.#intents.get(intentId);
  }

  /** Stops every request and timer (worker teardown in tests). The engine cannot be restarted; build a new one. */
  stop(): void {
    this.#stopped = true;
    this.#timer?.abort();
    for (const f of this.#inFlight.values()) f.controller.abort();
  }

  // ---- internals ----

  /**
   * Loads the mirror from the store once per engine. It is never rebuilt over itself: every later change goes
   * through #write, and a second picture of the store read while writes were under way could be older than what
   * the mirror already holds (an intent tracked meanwhile would drop out of the schedule). A failed load is retried
   * by the next call.
   */
  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const [all, state] = await Promise.all([this.#deps.store.list(), this.#deps.stateStore?.get()]);
      for (const t of all) this.#intents.set(t.intentId, t);
      if (state) this.#state = state;
    })().catch((err: unknown) => {
      this.#loaded = undefined;
      throw err;
    });
    return this.#loaded;
  }

  /** Writes one record through the store (atomic), mirrors it, and tells listeners (unless `quiet`). */
  async #write(
    intentId: string,
    fn: (current: TrackedIntent | undefined) => TrackedIntent | undefined,
    options: { quiet?: boolean } = {},
  ): Promise<TrackedIntent | undefined> {
    let changed = false;
    const written = await this.#deps.store.update(intentId, (current) => {
      const next = fn(current);
      changed = next !== undefined;
      return next;
    });
    if (written && changed) this.#intents.set(intentId, written);
    if (changed && !options.quiet) this.#deps.onChange?.(intentId);
    return written;
  }

  async #setState(state: TrackerState): Promise<void> {
    this.#state = state;
    await this.#deps.stateStore?.set(state);
    this.#deps.onStateChange?.(state);
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
    void this.#deps.clock.sleep(Math.max(0, at - this.#deps.clock.now()), controller.signal).then(() => {
      if (controller.signal.aborted) return;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#kick();
    });
  }

  /** Priority of an intent for a hot slot: lower sorts first. */
  #rank(t: TrackedIntent): [number, number] {
    const tier = t.lastCheckedAt === undefined ? 0 : t.status === 'EXECUTING' ? 1 : t.status === 'COMMITTED' ? 2 : 3;
    return [tier, -(t.lastChangeAt ?? t.addedAt)];
  }

  /** Starts whatever can start now, and sets the timer for the next thing due. */
  async #pump(): Promise<void> {
    await this.#load();
    const { clock } = this.#deps;
    const now = clock.now();
    let wake = Number.POSITIVE_INFINITY;
    if (this.#state.keyRejected) return;
    if (this.#state.pausedUntil && this.#state.pausedUntil > now) {
      this.#wakeAt(this.#state.pausedUntil);
      return;
    }
    const transport = await this.#deps.transport();
    const tracking = [...this.#intents.values()].filter((t) => t.phase === 'tracking');
    if (!transport) {
      for (const t of tracking) {
        if (t.lastError?.kind !== 'not-configured') {
          await this.#write(t.intentId, (c) =>
            c
              ? { ...c, lastError: { kind: 'not-configured', message: 'Set the service URL and access key in the settings.', at: now } }
              : undefined,
          );
        }
      }
      return;
    }
    // Expire intents left COMMITTED past the execution window (spec §3).
    for (const t of tracking) {
      const created = t.receipt?.createdAt ? Date.parse(t.receipt.createdAt) : Number.NaN;
      if (t.status === 'COMMITTED' && !Number.isNaN(created) && now - created > this.#deps.commitWindowMs) {
        await this.#write(t.intentId, (c) =>
          c && c.phase === 'tracking'
            ? {
                ...c,
                phase: 'expired',
                lastError: {
                  kind: 'expired',
                  message: 'Not executed within 10 minutes of commit: the quote expired. A new quote and commit are needed.',
                  at: now,
                },
              }
            : undefined,
        );
      }
    }
    // Stuck watchdog: one warning for an intent EXECUTING well past its expected time.
    for (const t of tracking) {
      if (t.status !== 'EXECUTING' || t.stuckNotifiedAt !== undefined || !this.#deps.notifier.showStuck) continue;
      const started = Date.parse(t.receipt?.summary?.startedAt ?? t.receipt?.createdAt ?? '');
      const limit = Math.max(this.#deps.stuckAfterMs, 2 * (t.estimatedDuration ?? 0) * 1000);
      if (Number.isNaN(started)) continue;
      if (now - started <= limit) {
        wake = Math.min(wake, started + limit + 1);
        continue;
      }
      const written = await this.#write(t.intentId, (c) =>
        c && c.stuckNotifiedAt === undefined ? { ...c, stuckNotifiedAt: now } : undefined,
      );
      if (written?.stuckNotifiedAt === now) {
        void this.#deps.notifier.showStuck(written, Math.round((now - started) / 60_000)).catch(() => {});
      }
    }
    const due = (t: TrackedIntent) => {
      const at = Math.max(t.retry?.nextAt ?? 0, t.nextCheckAt ?? 0);
      if (at > now) wake = Math.min(wake, at);
      return at <= now;
    };
    const candidates = [...this.#intents.values()]
      .filter((t) => t.phase === 'tracking' && !this.#inFlight.has(t.intentId) && due(t))
      .sort((a, b) => {
        const [ta, ra] = this.#rank(a);
        const [tb, rb] = this.#rank(b);
        return ta - tb || ra - rb;
      });
    // Hot slots: long-polls.
    const hotSlots = this.#deps.maxConcurrent - 1;
    let waits = [...this.#inFlight.values()].filter((f) => f.kind === 'wait').length;
    const hot = new Set<string>();
    for (const t of candidates) {
      if (waits >= hotSlots) break;
      hot.add(t.intentId);
      waits++;
      void this.#check(transport, t, 'wait');
    }
    // Sweeper slot: the due intents left over, and (for the batch) every tracked intent not in a long-poll.
    const cold = candidates.filter((t) => !hot.has(t.intentId));
    const coldTracking = tracking.filter((t) => !hot.has(t.intentId) && this.#inFlight.get(t.intentId)?.kind !== 'wait');
    if (!this.#sweeping) {
      const fresh = cold.find((t) => t.lastCheckedAt === undefined);
      if (fresh) {
        this.#sweep(() => this.#check(transport, fresh, 'receipt'));
      } else if (now >= this.#nextSweepAt) {
        const withCreated = coldTracking.filter((t) => t.receipt?.createdAt && !Number.isNaN(Date.parse(t.receipt.createdAt)));
        if (transport.getIntentHistoryLite && withCreated.length >= 2 && cold.length > 0) {
          this.#sweep(() => this.#batch(transport, withCreated));
        } else if (cold.length > 0) {
          const stalest = [...cold].sort((a, b) => (a.lastCheckedAt ?? 0) - (b.lastCheckedAt ?? 0))[0]!;
          this.#sweep(() => this.#check(transport, stalest, 'receipt'));
        }
      } else if (cold.length > 0 || coldTracking.length > 0) {
        wake = Math.min(wake, this.#nextSweepAt);
      }
    }
    if (wake < Number.POSITIVE_INFINITY) this.#wakeAt(wake);
  }

  /** Runs one sweeper job; the next sweep is due `sweepIntervalMs` after it started. */
  #sweep(job: () => Promise<void>): void {
    this.#sweeping = true;
    this.#nextSweepAt = this.#deps.clock.now() + this.#deps.sweepIntervalMs;
    void job().finally(() => {
      this.#sweeping = false;
      this.#kick();
    });
  }

  /** One check of one intent: a long-poll (`wait`) or a single read (`receipt`). */
  #check(transport: ReceiptTransport, t: TrackedIntent, kind: CheckKind): Promise<void> {
    const controller = new AbortController();
    this.#inFlight.set(t.intentId, { kind, controller });
    const started = this.#deps.clock.now();
    const run = async () => {
      try {
        if (kind === 'wait') {
          const res = await transport.waitIntentReceipt(
            { intentId: t.intentId, lastReceiptStates: t.lastStates },
            { signal: controller.signal, timeoutMs: this.#deps.waitTimeoutMs },
          );
          if (controller.signal.aborted) return;
          const unchanged = !res.done && sameStates(res.receiptStates ?? [], t.lastStates) && res.intentReceipt.status === t.status;
          await this.#record(
            t.intentId,
            res.intentReceipt,
            res.receiptStates ?? undefined,
            res.done,
            unchanged ? started + this.#deps.minWaitCycleMs : undefined,
          );
        } else {
          const res = await transport.getIntentReceipt({ intentId: t.intentId }, { signal: controller.signal, timeoutMs: 15_000 });
          if (controller.signal.aborted) return;
          await this.#record(t.intentId, res.intentReceipt, undefined, false, undefined);
        }
      } catch (err) {
        if (controller.signal.aborted) return;
        if (err instanceof SvcApiError && err.kind === 'timeout' && kind === 'wait') {
          // The server held the wait longer than our time-out: not an error, just ask again.
          await this.#write(t.intentId, (c) => (c ? { ...c, lastCheckedAt: this.#deps.clock.now() } : undefined));
        } else {
          await this.#fail(t.intentId, err);
        }
      } finally {
        if (this.#inFlight.get(t.intentId)?.controller === controller) this.#inFlight.delete(t.intentId);
        this.#kick();
      }
    };
    return run();
  }

  /** One page of GetIntentHistory for notifying final statuses since the oldest cold intent. */
  async #batch(transport: ReceiptTransport, cold: TrackedIntent[]): Promise<void> {
    const controller = new AbortController();
    this.#inFlight.set('', { kind: 'batch', controller });
    try {
      const oldest = Math.min(...cold.map((t) => Date.parse(t.receipt!.createdAt!)));
      const res = await transport.getIntentHistoryLite!(
        {
          byStatuses: [...NOTIFYING_STATUSES],
          fromTime: Math.floor(oldest / 1000),
          page: { pageSize: 100, ...(this.#batchCursor !== undefined ? { after: this.#batchCursor } : {}) },
        },
        { signal: controller.signal, timeoutMs: 15_000 },
      );
      const next = res.nextPage;
      this.#batchPages++;
      if (next && next.more !== false && typeof next.after === 'number' && this.#batchPages < this.#deps.maxBatchPages) {
        this.#batchCursor = next.after;
      } else {
        this.#batchCursor = undefined;
        this.#batchPages = 0;
      }
      let found = 0;
      for (const row of res.intents) {
        const t = this.#intents.get(row.intentId);
        if (t?.phase !== 'tracking' || !row.receipt || this.#inFlight.get(row.intentId)?.kind === 'wait') continue;
        await this.#record(row.intentId, row.receipt, undefined, false, undefined);
        found++;
      }
      // Things are finishing (a batch found some in the last 2 intervals): the rest of this cycle's pages follow at
      // once and the next cycle starts 1/5 of the interval later. Idle stays at the slow pace.
      const now = this.#deps.clock.now();
      if (found > 0) this.#busyUntil = now + 2 * this.#deps.sweepIntervalMs;
      if (now < this.#busyUntil) {
        const gap = this.#batchCursor !== undefined ? 0 : Math.round(this.#deps.sweepIntervalMs / 5);
        this.#nextSweepAt = Math.min(this.#nextSweepAt, now + gap);
      }
      // A batch answered: the cold intents it covered count as checked.
      for (const t of cold) {
        const current = this.#intents.get(t.intentId);
        if (current?.phase === 'tracking') this.#intents.set(t.intentId, { ...current, lastCheckedAt: now });
      }
    } catch (err) {
      if (isRateLimited(err)) await this.#rateLimited(err.retryAfterSeconds);
      else if (isKeyRejected(err) || isOriginRejected(err)) await this.#keyRejected(err);
      // Other batch failures: the individual checks still run.
    } finally {
      this.#inFlight.delete('');
    }
  }

  /** Persists an answer; moves to final (notification pending) when the status is final. */
  async #record(
    intentId: string,
    receipt: IntentReceipt,
    states: TransactionStatus[] | undefined,
    done: boolean,
    nextCheckAt: number | undefined,
  ): Promise<void> {
    const now = this.#deps.clock.now();
    const final = done || isFinalStatus(receipt.status);
    const written = await this.#write(intentId, (t) => {
      if (!t || t.phase === 'final') return undefined;
      const newStates = states ?? t.lastStates;
      const changed = receipt.status !== t.status || !sameStates(newStates, t.lastStates);
      return {
        ...t,
        receipt,
        status: receipt.status,
        lastStates: newStates,
        lastCheckedAt: now,
        ...(changed ? { lastChangeAt: now } : {}),
        lastError: undefined,
        retry: undefined,
        nextCheckAt: final ? undefined : nextCheckAt,
        phase: final ? 'final' : 'tracking',
        notification: final && t.notification === 'none' && NOTIFYING_STATUSES.includes(receipt.status) ? 'pending' : t.notification,
      };
    });
    // Not awaited: the request's slot is free again while the notification is shown (it may be held for grouping).
    if (written?.notification === 'pending') void this.#deliver(intentId);
  }

  /** Records an error: NotFound grace, tracker-wide pauses, or a back-off of this intent. */
  async #fail(intentId: string, err: unknown): Promise<void> {
    const now = this.#deps.clock.now();
    if (isKeyRejected(err) || isOriginRejected(err)) {
      await this.#keyRejected(err);
      return;
    }
    if (isRateLimited(err)) await this.#rateLimited(err.retryAfterSeconds);
    const random = (this.#deps.random ?? Math.random)();
    await this.#write(intentId, (t) => {
      if (t?.phase !== 'tracking') return undefined;
      const attempt = (t.retry?.attempt ?? 0) + 1;
      if (isNotFound(err) && !t.receipt) {
        if (now - t.addedAt >= this.#deps.notFoundGraceMs) {
          return {
            ...t,
            phase: 'not-found',
            retry: undefined,
            gaveUpAt: now,
            lastError: { kind: 'not-found', message: 'The service does not know this intent ID (NotFound).', at: now },
          };
        }
        // Long back-off (at least 5 s), but the last check falls at the end of the grace period.
        const delay = Math.max(5_000, backoffDelay(attempt, random, 15_000, 120_000));
        return {
          ...t,
          retry: { attempt, nextAt: Math.min(now + delay, t.addedAt + this.#deps.notFoundGraceMs) },
          lastError: { kind: 'not-found-yet', message: 'The service does not know this intent yet; checking again', at: now },
        };
      }
      const retryAfterMs = isRateLimited(err) && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
      const delay = backoffDelay(attempt, random, this.#deps.backoffBaseMs, this.#deps.backoffCapMs, retryAfterMs);
      return {
        ...t,
        retry: { attempt, nextAt: now + delay },
        lastError: {
          kind: err instanceof SvcApiError ? err.kind : 'unknown',
          message: err instanceof Error ? err.message : String(err),
          at: now,
        },
      };
    });
  }

  async #rateLimited(retryAfterSeconds: number | undefined): Promise<void> {
    const now = this.#deps.clock.now();
    const until = now + Math.max(this.#deps.backoffBaseMs, (retryAfterSeconds ?? 0) * 1000);
    if ((this.#state.pausedUntil ?? 0) >= until) return;
    await this.#setState({
      ...this.#state,
      pausedUntil: until,
      pauseReason: 'The service is rate-limiting requests; the tracker slowed down.',
    });
  }

  async #keyRejected(err: unknown): Promise<void> {
    const error: TrackingError = {
      kind: isKeyRejected(err) ? 'key-rejected' : 'origin-rejected',
      message: isKeyRejected(err)
        ? 'The service rejected the access key. Tracking is paused until the key is updated in the settings.'
        : 'The access key is not allowed from this extension (InvalidOrigin). Tracking is paused until the settings change.',
      at: this.#deps.clock.now(),
    };
    for (const [id, f] of this.#inFlight) if (id !== '') f.controller.abort();
    await this.#setState({ ...this.#state, keyRejected: error });
  }

  /** Shows the pending notification of an intent once, then records it as shown. */
  async #deliver(intentId: string): Promise<void> {
    if (this.#delivering.has(intentId)) return;
    this.#delivering.add(intentId);
    try {
      const intent = this.#intents.get(intentId);
      if (intent?.notification !== 'pending') return;
      const content = (await this.#deps.notifier.exists(intentId)) ? undefined : await this.#deps.notifier.show(intent);
      await this.#write(intentId, (t) =>
        t ? { ...t, notification: 'shown', notifiedAt: this.#deps.clock.now(), ...(content ? { notified: content } : {}) } : undefined,
      );
    } catch (err) {
      console.error('notification failed', intentId, err instanceof Error ? err.message : err);
    } finally {
      this.#delivering.delete(intentId);
    }
  }
}

/** True when two receipt-state lists are equal. */
function sameStates(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
