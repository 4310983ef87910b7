/**
 * A read of the tracker's load (the tracked intents' `getAll`, the tracker state's `get`; lib/tracker/engine.ts) that
 * every load attempt shares and waits for at most a bound (docs/tracking.md "Faults"). An IndexedDB read can stop
 * answering (an open blocked by another connection, a transaction that never completes): without a bound the load,
 * and with it the request budget's start gate, would wait for ever. A read still pending at the bound counts as
 * refused for that attempt (the engine then does what it does for a refusal: the state unknown opens the gate; the
 * intents unknown restore the kept hold alone); the read itself is not abandoned. It goes on, the next attempt joins
 * it, and the first answer is taken (`apply`, once) whenever it comes; `onLate` tells the engine to load again at once.
 * A read pending longer than the slowest read measured is taken for lost and one fresh read is made beside it, never
 * more than {@link LoadLimits.maxPending} at once. Time is the injected clock's (`sleep`, `monotonic`).
 */
import type { Clock } from '../time/clock';

/** The bounds of a {@link BoundedRead} (ms, on the monotonic clock). */
export interface LoadLimits {
  /**
   * How long one attempt waits for the read. At worker start the gate waits for it before any lane sends, a user's
   * own look-up included, so it is what a look-up waits on a store that never answers; an answering IndexedDB reads
   * the tracker's state (one record) or a desk's intents well within it. A slower read costs nothing lost: the
   * attempt fails as a refused read does, and its answer is used once it comes.
   */
  boundMs: number;
  /** A read pending this long is taken for lost and one fresh read is made beside it: above the slowest read measured. */
  renewMs: number;
  /** Most reads pending at once (the lost ones included): no more pile up on a store that stalled. */
  maxPending: number;
}

/**
 * Default limits: 2 s bound; renew after 60 s, above the 16–48 s a `getAll` of 5,000 took behind the worker's writes
 * (docs/benchmarks.md), so a read that is only slow is never doubled; at most 2 pending (the read given up and one
 * fresh: a blocked open holds every read of its connection, so a third would wait behind the same cause; the next
 * worker life opens its own).
 */
export const LOAD_LIMITS: LoadLimits = { boundMs: 2_000, renewMs: 60_000, maxPending: 2 };

/** Why an attempt failed when its read had not answered within the bound. */
export class ReadPendingError extends Error {
  constructor(boundMs: number) {
    super(`store read still pending after ${boundMs} ms`);
    this.name = 'ReadPendingError';
  }
}

/** What a {@link BoundedRead} does with the first answer, and whom it tells of one that came after an attempt gave up. */
export interface BoundedReadHooks<T> {
  /** Called once, with the first value any read resolved with, before any attempt resolves. */
  apply: (value: T) => void;
  /** Called when that value came after an attempt had given up on the read (the engine loads again). */
  onLate?: () => void;
}

/** One read shared by every attempt, bounded per attempt; see the file's comment. */
export class BoundedRead<T> {
  #value: { v: T } | undefined;
  /** Reads started and not settled, oldest first. */
  #pending: Array<{ startedAt: number; result: Promise<T> }> = [];
  #gaveUp = false;
  /** Resolves with the first value (or never). */
  readonly #first: Promise<T>;
  #resolveFirst!: (v: T) => void;

  constructor(
    readonly read: () => Promise<T>,
    readonly clock: Pick<Clock, 'monotonic' | 'sleep'>,
    readonly hooks: BoundedReadHooks<T>,
    readonly limits: LoadLimits = LOAD_LIMITS,
  ) {
    this.#first = new Promise((resolve) => (this.#resolveFirst = resolve));
  }

  /** Reads pending now (lost ones included); at most `limits.maxPending`. */
  get pending(): number {
    return this.#pending.length;
  }

  /**
   * Resolves with the value once read (at once after the first answer). Otherwise joins the pending read (or starts
   * one) and waits at most `boundMs`: rejects with the read's error when the newest read is refused, or with
   * {@link ReadPendingError} when none answered in time. `Infinity` waits without bound (no timer).
   */
  async attempt(boundMs = this.limits.boundMs): Promise<T> {
    if (this.#value) return this.#value.v;
    const read = this.#current();
    const timer = new AbortController();
    const bound = Number.isFinite(boundMs) ? [this.clock.sleep(boundMs, timer.signal)] : [];
    try {
      await Promise.race([this.#first, read, ...bound]);
      // A read that answered set the value before its promise settled; none did when the bound won.
      const value = this.#value as { v: T } | undefined;
      if (value) return value.v;
      this.#gaveUp = true;
      throw new ReadPendingError(boundMs);
    } finally {
      timer.abort();
    }
  }

  /** The newest pending read, or a fresh one when there is none or it is lost and there is room. */
  #current(): Promise<T> {
    const now = this.clock.monotonic();
    const newest = this.#pending.at(-1);
    if (newest && (now - newest.startedAt < this.limits.renewMs || this.#pending.length >= this.limits.maxPending)) return newest.result;
    let result: Promise<T>;
    try {
      result = this.read();
    } catch (err) {
      result = Promise.reject(err);
    }
    const entry = { startedAt: now, result };
    this.#pending.push(entry);
    const done = () => (this.#pending = this.#pending.filter((e) => e !== entry));
    entry.result = entry.result.then(
      (v) => {
        done();
        this.#settle(v);
        return v;
      },
      (err: unknown) => {
        done();
        throw err;
      },
    );
    // A lost read's refusal is nobody's: only the attempt that joined the newest read reports one.
    entry.result.catch(() => {});
    return entry.result;
  }

  #settle(v: T): void {
    if (this.#value) return;
    this.#value = { v };
    this.hooks.apply(v);
    this.#resolveFirst(v);
    if (this.#gaveUp) this.hooks.onLate?.();
  }
}

/**
 * Waits for `work` (a write the load makes before it resolves: times moved back, the kept pause's rebase) at most
 * `boundMs` (ms, on `clock`): resolves true once it settled (written or refused), false at the bound. Never rejects;
 * the work is not abandoned and may still complete after the bound. A write transaction that never completes would
 * otherwise keep the load, every look-up and the start gate waiting for the worker's whole life.
 */
export async function settledWithin(work: Promise<unknown>, clock: Pick<Clock, 'sleep'>, boundMs = LOAD_LIMITS.boundMs): Promise<boolean> {
  const timer = new AbortController();
  const settled = work.then(
    () => true,
    () => true,
  );
  const bound = clock.sleep(boundMs, timer.signal).then(
    () => false,
    () => false,
  );
  try {
    return await Promise.race([settled, bound]);
  } finally {
    timer.abort();
  }
}

/**
 * How long (ms, monotonic) a user's own action on the tracker (a track, a removal, _Retry now_, a refresh) waits for
 * a load read that is only slow before it fails as on a refused read: longer than the start gate's bound, so that a
 * desk's slow `getAll` right after a start is waited for rather than told to the user as an error.
 */
export const USER_LOAD_WAIT_MS = 10_000;

/**
 * Runs `load` again while it rejects with {@link ReadPendingError}, until `waitMs` (ms, monotonic) has passed since the
 * first try; each try joins the same pending read and waits its bound, so nothing is read twice. Resolves with what
 * `load` resolves with; rejects with any other error at once, and with the last {@link ReadPendingError} once the wait
 * is over.
 */
export async function patiently<T>(load: () => Promise<T>, clock: Pick<Clock, 'monotonic'>, waitMs = USER_LOAD_WAIT_MS): Promise<T> {
  const start = clock.monotonic();
  for (;;) {
    try {
      return await load();
    } catch (err) {
      if (!(err instanceof ReadPendingError) || clock.monotonic() - start >= waitMs) throw err;
    }
  }
}

/**
 * The loads of users' own actions still waiting ({@link patiently}), so that a look-up asked after an action is
 * answered after it: a look-up's load (`after`) also waits for every action load asked before it, which the action
 * awaited first and so resumes first (a removal's intent is gone from the tracker's memory by then). Once the load
 * has its answer these loads settle within a few turns; an action's refused load is waited for, not thrown.
 */
export class ActionsAhead {
  readonly #waiting = new Set<Promise<unknown>>();

  /** Remembers `load` (an action's load, which the action awaits at once) until it settles; returns it as it is. */
  add<T>(load: Promise<T>): Promise<T> {
    this.#waiting.add(load);
    const forget = () => this.#waiting.delete(load);
    load.then(forget, forget);
    return load;
  }

  /** Resolves with what `load()` resolves with, once the action loads asked before now have settled too; rejects as `load()` does. */
  async after<T>(load: () => Promise<T>): Promise<T> {
    const ahead = this.#waiting.size > 0 ? Promise.allSettled([...this.#waiting]) : undefined;
    const value = await load();
    await ahead;
    return value;
  }
}
