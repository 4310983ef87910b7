/**
 * The worker's one request budget (invariant I5, README "Tracking policy"): every request the worker sends — the
 * tracker's, the watched-address check, ETA baselines, receipt details, selections, the options page's Test
 * connection — takes a place here before it is sent (`SvcHttp.callWithText`).
 *
 * - **At most `maxInFlight` (4) requests in flight**, whoever sends them. A place is held from the moment the request
 *   is sent until its whole answer is read.
 * - **First in line**: the user's own look-ups (`user`: popup History, Search, receipt details, Test connection, the
 *   context menu), then the tracker's requests (`tracker`), then the worker's own background work (`background`:
 *   watched addresses, ETA baselines), each in the order asked.
 * - **One rate for the whole worker**: every request sent takes a token from one bucket refilled at `perMinute`
 *   (holding at most `burst`). Background requests wait until a token is there; the tracker's and the user's are sent
 *   without waiting and may leave the bucket in debt (down to a minute's worth, `-perMinute`), which background
 *   requests then wait out: every request sent is counted, so the total stays within the rate. The tracker paces
 *   itself (at most 18 long-polls + 24 sweeper requests a minute while nothing changes), so background work gets what
 *   the tracker leaves, and the worker's total while idle stays within `perMinute + burst +
 *   maxInFlight` in any minute, whatever the number of watched addresses or intents and whatever the server's wait.
 * - A request aborted (its signal) while it waits, or no longer wanted when its turn comes (`stillWanted`), is not
 *   sent: the call rejects with the signal's reason or {@link NotWantedError}.
 * - **`Retry-After` holds for the whole worker**: once the service answers 429 with a `Retry-After`
 *   ({@link RequestBudget.holdOff}), no request of any lane is sent before that time; they wait in line.
 */
import { type Clock, realClock } from '../tracker/clock';

/** Who is asking: decides the place in line and whether the request waits for the rate. */
export type Lane = 'user' | 'tracker' | 'background';

/** The time source of the budget (the tracker's `Clock` fits). */
export type BudgetClock = Clock;

/** Tuning of the budget. */
export interface RequestBudgetOptions {
  /** Requests in flight at most (default 4). */
  maxInFlight?: number;
  /** Tokens a minute: the worker's idle rate (default {@link WORKER_REQUESTS_PER_MINUTE}). */
  perMinute?: number;
  /** Tokens held at most (default 2). */
  burst?: number;
  /** Background requests in flight at most (default 1): the tracker's and the user's keep the other places. */
  maxBackground?: number;
  clock?: BudgetClock;
}

/** Options of one request. */
export interface SendOptions {
  /** Aborts the request while it waits (it is then not sent) or while it runs. */
  signal?: AbortSignal;
  /**
   * Asked when the request's turn comes, just before it is sent: false (or a rejection) means it is not sent and the
   * call rejects with {@link NotWantedError} (an ETA look-up for an intent removed meanwhile).
   */
  stillWanted?: () => boolean | Promise<boolean>;
}

/** The request was not sent: `stillWanted` said no when its turn came. */
export class NotWantedError extends Error {
  constructor() {
    super('The request was no longer wanted when its turn came; it was not sent.');
    this.name = 'NotWantedError';
  }
}

/**
 * The worker's rate (tokens a minute). With the burst (2) and the 4 places of requests the tracker may send while the
 * bucket is empty, no minute holds more than 60 requests while nothing changes.
 */
export const WORKER_REQUESTS_PER_MINUTE = 54;

const RANK: Record<Lane, number> = { user: 0, tracker: 1, background: 2 };

interface Waiter {
  lane: Lane;
  seq: number;
  start: () => void;
}

/** The budget. One per worker (see `lib/worker/client-cache.ts`); every client built there shares it. */
export class RequestBudget {
  readonly maxInFlight: number;
  readonly perMinute: number;
  readonly burst: number;
  readonly maxBackground: number;
  readonly #clock: BudgetClock;
  #tokens: number;
  #at: number;
  #inFlight = 0;
  #background = 0;
  #seq = 0;
  #waiting: Waiter[] = [];
  #timer: AbortController | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  /** No request is sent before this time (ms): the service's `Retry-After`. */
  #heldUntil = Number.NEGATIVE_INFINITY;

  constructor(options: RequestBudgetOptions = {}) {
    this.maxInFlight = options.maxInFlight ?? 4;
    this.perMinute = options.perMinute ?? WORKER_REQUESTS_PER_MINUTE;
    this.burst = options.burst ?? 2;
    this.maxBackground = options.maxBackground ?? 1;
    this.#clock = options.clock ?? realClock;
    this.#tokens = this.burst;
    this.#at = this.#clock.now();
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
   * The service answered 429 with `Retry-After: ms / 1000` s: no request of any lane is sent for `ms` from now (those
   * asked meanwhile wait in line, the user's first). A shorter hold than one in force changes nothing.
   */
  holdOff(ms: number): void {
    if (!(ms > 0)) return;
    const until = this.#clock.now() + ms;
    if (until <= this.#heldUntil) return;
    this.#heldUntil = until;
    this.onHoldOff?.(ms);
    this.#dispatch();
  }

  /**
   * Told of each new hold (ms from now), so that it can be kept where a restarted worker finds it: the worker hands
   * it to the tracker, whose state (IndexedDB) keeps the pause and gives it back to the next worker's budget.
   */
  onHoldOff?: (ms: number) => void;

  /**
   * Runs `send` when the request's turn comes and holds its place until `send` settles. `send` is called at most
   * once, and not at all when the request is aborted while it waits (rejects with the signal's reason) or
   * `stillWanted` says no (rejects with {@link NotWantedError}).
   */
  async run<T>(lane: Lane, send: () => Promise<T>, options: SendOptions = {}): Promise<T> {
    await this.#acquire(lane, options.signal);
    try {
      if (options.stillWanted && !(await options.stillWanted())) throw new NotWantedError();
      options.signal?.throwIfAborted();
      this.#take();
      return await send();
    } finally {
      this.#release(lane);
    }
  }

  #acquire(lane: Lane, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        lane,
        seq: this.#seq++,
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
      this.#waiting.sort((a, b) => RANK[a.lane] - RANK[b.lane] || a.seq - b.seq);
      this.#dispatch();
    });
  }

  /** Starts whoever may start now, first in line first. */
  #dispatch(): void {
    if (this.#waiting.length > 0 && this.#clock.now() < this.#heldUntil) {
      this.#wakeAt(this.#heldUntil);
      return;
    }
    while (this.#inFlight < this.maxInFlight && this.#waiting.length > 0) {
      const i = this.#waiting.findIndex((w) => w.lane !== 'background' || this.#backgroundMayStart());
      if (i < 0) break;
      const [w] = this.#waiting.splice(i, 1);
      this.#inFlight++;
      if (w!.lane === 'background') this.#background++;
      w!.start();
    }
    const bg = this.#waiting.some((w) => w.lane === 'background');
    if (bg && this.#inFlight < this.maxInFlight && this.#background < this.maxBackground) this.#wakeAt(this.#tokenAt());
  }

  #backgroundMayStart(): boolean {
    return this.#background < this.maxBackground && this.#available() >= 1;
  }

  #release(lane: Lane): void {
    this.#inFlight--;
    if (lane === 'background') this.#background--;
    this.#dispatch();
  }

  #refill(): void {
    const now = this.#clock.now();
    const elapsed = Math.max(0, now - this.#at);
    this.#tokens = Math.min(this.burst, this.#tokens + (elapsed * this.perMinute) / 60_000);
    this.#at = Math.max(this.#at, now);
  }

  #available(): number {
    this.#refill();
    return this.#tokens;
  }

  /**
   * A request is sent: one token, into debt down to `-perMinute`. While the tracker spends faster than the rate (answers
   * that bring news), background work waits; once it calms down, background work resumes within seconds.
   */
  #take(): void {
    this.#refill();
    // Counted in full down to a minute of debt: a shallower floor forgot the tracker's requests sent at it, and the
    // background work then spent those tokens again (62 requests in an idle minute, found by the worker's campaign).
    this.#tokens = Math.max(-this.perMinute, this.#tokens - 1);
  }

  /** When the next whole token is there (ms). */
  #tokenAt(): number {
    const tokens = this.#available();
    return this.#clock.now() + Math.max(0, Math.ceil(((1 - tokens) * 60_000) / this.perMinute));
  }

  #wakeAt(at: number): void {
    if (at >= this.#timerAt) return;
    this.#timer?.abort();
    const controller = new AbortController();
    this.#timer = controller;
    this.#timerAt = at;
    void this.#clock.sleep(Math.max(0, at - this.#clock.now()), controller.signal).then(() => {
      if (controller.signal.aborted) return;
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#dispatch();
    });
  }
}
