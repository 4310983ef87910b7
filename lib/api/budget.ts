/**
 * The worker's one request budget (invariant I5; docs/tracking.md "One request budget for the whole worker"; docs/time.md
 * "Request rate"): every request the worker sends — the tracker's, the watched-address check, ETA baselines, receipt
 * details, selections, the options page's Test connection — takes a place here before it is sent
 * (`SvcHttp.callWithText`). Every time is read on the monotonic clock: a wall-clock jump neither stops nor frees
 * anything.
 *
 * - **At most `perMinute` (60) requests in ANY 60 s window, for the whole worker** ({@link SlidingWindow}: a hard
 *   limit, proved there and by a property test over random schedules). The user's and the tracker's requests use at
 *   most `perMinute - 1` of any window: the last place is the background lane's.
 * - **At most `maxInFlight` (4) requests in flight**, and {@link USER_PLACES} (1) more for the user's own: a look-up
 *   never waits for a place behind the tracker or the background. A place is held from sending until the answer is read.
 * - **First in line**: the user's look-ups (`user`), then a due background request, then the tracker's (`tracker`),
 *   then the rest of the background work (`background`: watched addresses, ETA baselines), each lane in order asked.
 * - **Background work is paced**: a token bucket refilled at `perMinute` (holding at most `burst`), which every request
 *   sent drains (the tracker's and the user's into debt, down to `-perMinute`), so background work gets what the
 *   tracker leaves. A background request is *due* when a token is there or when the lane sent nothing for
 *   {@link BACKGROUND_DUE_AFTER_MS}; a due one goes before the tracker's, and a place freed while it waits for the
 *   window is kept for it. So, with no `Retry-After` hold and requests ending within their time-outs (at most 48 s),
 *   **a background request waits at most 60 s from when it was asked or from the lane's previous request, whichever
 *   is later**, the user's own look-ups aside, whatever burst the tracker made (docs/time.md; test/api/budget-*.test.ts).
 * - A request aborted while it waits, or no longer wanted when its turn comes (`stillWanted`), is not sent nor
 *   counted: the call rejects with the signal's reason or {@link NotWantedError}.
 * - **`Retry-After` holds the scope that got it**: a scope is one service (origin and access key, see
 *   `holdScopeOf` in ./http). Once that service answers 429 with `Retry-After` ({@link RequestBudget.holdOff}), no
 *   request to it, of any lane, is sent before the hold ends (they wait in line); requests to another service go on.
 *   A hold lasts at most {@link MAX_HOLD_MS}.
 */
import { realClock } from '../time/clock';
import { chooseNext, type LaneWaiter, refilled, wholeTokenAt } from './budget-lanes';
import {
  BACKGROUND_DUE_AFTER_MS,
  type BudgetClock,
  type Lane,
  MAX_HOLD_MS,
  NotWantedError,
  type RequestBudgetOptions,
  type SendOptions,
  TRACKER_BURST,
  TRACKER_PER_MINUTE,
  USER_PLACES,
  WORKER_REQUESTS_PER_MINUTE,
} from './budget-limits';
import { SlidingWindow } from './rate-window';

// The types and limits callers know the budget by (defined in ./budget-limits).
export type { BudgetClock, Lane, RequestBudgetOptions, SendOptions } from './budget-limits';
export {
  BACKGROUND_DUE_AFTER_MS,
  MAX_HOLD_MS,
  NotWantedError,
  retryAfterDeltaSeconds,
  TRACKER_BURST,
  TRACKER_PER_MINUTE,
  WORKER_REQUESTS_PER_MINUTE,
} from './budget-limits';

interface Waiter extends LaneWaiter {
  seq: number;
  scope: string;
  start: () => void;
}

/** The budget. One per worker (see `lib/worker/client-cache.ts`); every client built there shares it. */
export class RequestBudget {
  readonly maxInFlight: number;
  readonly perMinute: number;
  readonly burst: number;
  readonly maxBackground: number;
  readonly #clock: BudgetClock;
  readonly #window = new SlidingWindow(60_000);
  #tokens: number;
  #trackerTokens = TRACKER_BURST; // the tracker's pace, refilled on the monotonic clock
  #trackerAt = Number.NaN;
  #at: number;
  #inFlight = 0;
  #background = 0;
  #lastBackground = Number.NEGATIVE_INFINITY; // when the background lane last had a place (monotonic ms)
  #seq = 0;
  #waiting: Waiter[] = [];
  #timer: AbortController | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  readonly #holds = new Map<string, number>(); // per scope: nothing sent before this monotonic ms (`Retry-After`)
  #gates = 0; // not yet open ({@link RequestBudget.gate})

  constructor(options: RequestBudgetOptions = {}) {
    this.maxInFlight = options.maxInFlight ?? 4;
    this.perMinute = options.perMinute ?? WORKER_REQUESTS_PER_MINUTE;
    this.burst = options.burst ?? 2;
    this.maxBackground = options.maxBackground ?? 1;
    this.#clock = options.clock ?? realClock;
    this.#tokens = this.burst;
    this.#at = this.#clock.monotonic();
  }

  /** Requests in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }
  /** Requests waiting for their turn now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Sends nothing, of any lane, until `ready` settles (resolved or rejected; several gates: until all have): a new
   * worker first restores the Retry-After hold a previous worker kept, then sends (I5 across restarts).
   */
  gate(ready: Promise<unknown>): void {
    this.#gates++;
    const open = () => {
      this.#gates--;
      this.#dispatch();
    };
    ready.then(open, open);
  }

  /**
   * The service of `scope` answered 429 with `Retry-After: ms / 1000` s: no request to that scope, of any lane, is
   * sent for `ms` from now (at most {@link MAX_HOLD_MS}); those asked meanwhile wait in line, the user's first. A
   * shorter hold than one in force changes nothing. Not a number or not positive: ignored. {@link onHoldOff} is told of
   * the new hold unless `kept`: handed back from where it was kept (lib/worker/hold-keeping.ts), it is not told back.
   */
  holdOff(ms: number, scope = '', options: { kept?: boolean } = {}): void {
    if (!(ms > 0)) return;
    const length = Math.min(ms, MAX_HOLD_MS);
    const until = this.#clock.monotonic() + length;
    if (until <= (this.#holds.get(scope) ?? Number.NEGATIVE_INFINITY)) return;
    this.#holds.set(scope, until);
    if (!options.kept) this.onHoldOff?.(length, scope);
    this.#dispatch();
  }

  /**
   * Told of each new hold (ms from now, already capped; the scope that got it), so that it can be kept where a
   * restarted worker finds it: the worker hands the configured service's holds to the tracker, whose state keeps it.
   */
  onHoldOff?: (ms: number, scope: string) => void;

  /**
   * Runs `send` when the request's turn comes and holds its place until `send` settles. `send` is called at most
   * once, and not at all when the request is aborted while it waits (rejects with the signal's reason) or
   * `stillWanted` says no (rejects with {@link NotWantedError}). A hold that came while `stillWanted` was read sends it
   * back in line, at its old place. A request not sent gives its window place and pace tokens back.
   */
  async run<T>(lane: Lane, send: () => Promise<T>, options: SendOptions = {}): Promise<T> {
    const scope = options.scope ?? '';
    const seq = this.#seq++;
    for (;;) {
      await this.#acquire(lane, scope, options.signal, seq);
      let sent = false;
      try {
        if (options.stillWanted && !(await options.stillWanted())) throw new NotWantedError();
        options.signal?.throwIfAborted();
        if (this.#held(scope, this.#clock.monotonic())) continue;
        sent = true;
        this.#window.sent(this.#clock.monotonic());
        return await send();
      } finally {
        if (!sent) {
          this.#window.cancel();
          this.#tokens = Math.min(this.burst, this.#tokens + 1);
          if (lane === 'tracker') this.#trackerTokens = Math.min(TRACKER_BURST, this.#trackerTokens + 1);
        }
        this.#release(lane);
      }
    }
  }

  #acquire(lane: Lane, scope: string, signal: AbortSignal | undefined, seq: number): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        lane,
        seq,
        scope,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.#waiting.indexOf(waiter);
        if (i < 0) return;
        this.#waiting.splice(i, 1);
        reject(signal?.reason);
        this.#dispatch();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#dispatch();
    });
  }

  /**
   * Starts whoever may start now, first in line first, then sets the timer for the next change, both on one reading of
   * the clock: on two, the pace could say "not yet" to the first and "due" to the second, and set no near wake-up.
   */
  #dispatch(): void {
    let now: number;
    for (;;) {
      now = this.#clock.monotonic();
      const next = this.#next(now);
      if (!next) break;
      this.#waiting.splice(this.#waiting.indexOf(next), 1);
      this.#start(next);
    }
    this.#wakeAt(this.#nextChangeAt(now));
  }

  /** The waiter to start at `now` (monotonic ms), if any (see the order in the module's docstring). */
  #next(now: number): Waiter | undefined {
    if (this.#gates > 0 || this.#inFlight >= this.maxInFlight + USER_PLACES || this.#waiting.length === 0) return undefined;
    const open = this.#waiting.filter((w) => !this.#held(w.scope, now)).sort((a, b) => a.seq - b.seq);
    return chooseNext({
      open,
      count: this.#window.count(now),
      full: this.#inFlight >= this.maxInFlight,
      perMinute: this.perMinute,
      backgroundDue: () => this.#background < this.maxBackground && this.#backgroundDue(now),
      trackerReady: () => this.#trackerReady(now),
    });
  }

  #start(w: Waiter): void {
    const now = this.#clock.monotonic();
    this.#window.reserve();
    this.#refill(now);
    this.#tokens = Math.max(-this.perMinute, this.#tokens - 1);
    this.#inFlight++;
    if (w.lane === 'tracker') this.#trackerTokens -= 1;
    if (w.lane === 'background') {
      this.#background++;
      this.#lastBackground = now;
    }
    w.start();
  }

  /** A background request may go now as far as the pace is concerned. */
  #backgroundDue(now: number): boolean {
    this.#refill(now);
    return this.#tokens >= 1 || now - this.#lastBackground >= BACKGROUND_DUE_AFTER_MS;
  }

  /** The tracker's pace has a token now (refilled first). */
  #trackerReady(now: number): boolean {
    if (Number.isNaN(this.#trackerAt)) this.#trackerAt = now;
    const elapsed = now - this.#trackerAt;
    if (elapsed > 0) {
      this.#trackerTokens = refilled(this.#trackerTokens, elapsed, TRACKER_PER_MINUTE, TRACKER_BURST);
      this.#trackerAt = now;
    }
    return this.#trackerTokens >= 1;
  }

  #held(scope: string, now: number): boolean {
    const until = this.#holds.get(scope) ?? Number.NEGATIVE_INFINITY;
    if (until <= now) this.#holds.delete(scope);
    return until > now;
  }

  #release(lane: Lane): void {
    this.#inFlight--;
    if (lane === 'background') this.#background--;
    this.#dispatch();
  }

  #refill(now: number): void {
    const elapsed = now - this.#at;
    if (!(elapsed > 0)) return;
    this.#tokens = refilled(this.#tokens, elapsed, this.perMinute, this.burst);
    this.#at = Math.max(this.#at, now);
  }

  /** When (monotonic ms, after `now`) a hold, the window or the pace blocking a waiter may end. Slots end on release. */
  #nextChangeAt(now: number): number {
    if (this.#waiting.length === 0) return Number.POSITIVE_INFINITY;
    let at = this.#window.nextExpiryAt(now);
    for (const w of this.#waiting) if (this.#held(w.scope, now)) at = Math.min(at, this.#holds.get(w.scope)!);
    if (this.#waiting.some((w) => w.lane === 'tracker') && !this.#trackerReady(now))
      at = Math.min(at, wholeTokenAt(now, this.#trackerTokens, TRACKER_PER_MINUTE));
    if (this.#waiting.some((w) => w.lane === 'background') && !this.#backgroundDue(now))
      at = Math.min(at, wholeTokenAt(now, this.#tokens, this.perMinute), this.#lastBackground + BACKGROUND_DUE_AFTER_MS);
    return at;
  }

  #wakeAt(at: number): void {
    if (!Number.isFinite(at) || at >= this.#timerAt) return;
    this.#timer?.abort();
    const controller = new AbortController();
    this.#timer = controller;
    this.#timerAt = at;
    void this.#clock.sleep(Math.max(0, at - this.#clock.monotonic()), controller.signal).then(() => {
      if (controller.signal.aborted) return;
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#dispatch();
    });
  }
}
