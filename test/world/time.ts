/**
 * Virtual time of the simulated world. `t` is the world's true time (ms since its start; the service's clock is
 * `T0 + t`). The user's wall clock is the true time plus an offset that the schedule moves: jumps back and forth,
 * a drift (ms of wall time gained per ms of true time) and its correction (an NTP step back to the truth). Every
 * worker life gets its own monotonic clock (origin at its birth, never jumps) and its own timers, which die with it.
 * {@link WorldTime.runUntil} drives the world: it lets the real macrotasks of fake-indexeddb run to quiescence, then
 * fires the next due timer — so a run is deterministic and replays from its seed.
 */
import type { Timers } from '@/lib/platform';
import type { Clock } from '@/lib/time/clock';

/** One worker life: its timers fire while it lives; `kill` makes it inert. */
export interface Life {
  readonly n: number;
  readonly bornAt: number;
  dead: boolean;
}

interface Timer {
  at: number;
  seq: number;
  /** Returns {@link NOTHING_DONE} when it did nothing at all (queued no work): the world then need not settle after it. */
  fn: () => unknown;
  life: Life | undefined;
  cancelled: boolean;
}

/** What a timer's callback returns when it did nothing but maybe set another timer (see {@link WorldTime.at}). */
export const NOTHING_DONE: unique symbol = Symbol('nothing done');

/**
 * The real `setImmediate` callbacks queued and not run yet, beside the world's own (fake-indexeddb runs every
 * request of a transaction as one; it reads `globalThis.setImmediate` at each call): {@link WorldTime.settle} waits
 * until none is left instead of for a fixed number of turns.
 */
const immediates = new Set<unknown>();
const realSetImmediate = globalThis.setImmediate;
const realClearImmediate = globalThis.clearImmediate;
if (!(realSetImmediate as { counted?: boolean }).counted) {
  const counted = ((fn: (...args: unknown[]) => void, ...args: unknown[]) => {
    const handle = realSetImmediate(() => {
      immediates.delete(handle);
      fn(...args);
    });
    immediates.add(handle);
    return handle;
  }) as unknown as typeof setImmediate;
  Object.defineProperties(counted, Object.getOwnPropertyDescriptors(realSetImmediate));
  Object.assign(counted, { counted: true });
  globalThis.setImmediate = counted;
  globalThis.clearImmediate = ((handle: NodeJS.Immediate | undefined) => {
    immediates.delete(handle);
    realClearImmediate(handle);
  }) as typeof clearImmediate;
}

/** The world's time, the user's wall clock and every timer. */
export class WorldTime {
  /** True time since the world's start (ms). */
  t = 0;
  #offset = 0;
  #offsetAt = 0;
  #drift = 0;
  /** Every change of the offset or the drift (true time `at`, ms), in order: the wall clock's history for the oracle. */
  readonly #segments: Array<{ at: number; offset: number; drift: number }> = [{ at: 0, offset: 0, drift: 0 }];
  #seq = 0;
  readonly #timers: Timer[] = [];
  /** Real macrotasks still running (fake-indexeddb's transactions): the world waits for them before moving time. */
  busy: () => boolean = () => false;

  constructor(readonly T0: number) {}

  /** The service's (true) time, ms since the epoch. */
  trueNow(): number {
    return this.T0 + this.t;
  }

  /** The user's wall clock minus the true time (ms) now. */
  skew(): number {
    return this.#offset + this.#drift * (this.t - this.#offsetAt);
  }

  /** The user's wall clock, ms since the epoch (integral, as `Date.now()`). */
  wall(): number {
    return Math.round(this.trueNow() + this.skew());
  }

  /**
   * The largest {@link WorldTime.skew} (ms) the wall clock had at any true time in `[from, to]` (ms since the world's
   * start; a time before the start reads the start's): what a worker may have read as it last wrote a time down
   * somewhere in that span.
   */
  maxSkew(from: number, to: number): number {
    let max = Number.NEGATIVE_INFINITY;
    this.#segments.forEach((seg, i) => {
      const next = this.#segments[i + 1]?.at ?? Number.POSITIVE_INFINITY;
      const a = Math.max(from, seg.at);
      const b = Math.min(to, next);
      if (a > b) return;
      // Linear within a segment: its largest value is at one end of the part inside the span.
      for (const t of [a, b]) max = Math.max(max, seg.offset + seg.drift * (t - seg.at));
    });
    return max;
  }

  /**
   * True time passes by `ms` while the worker works (the slowDisk family: an IndexedDB transaction that takes that
   * long). No timer fires meanwhile: one that fell due fires at the world's next step, late, as on a busy event loop.
   */
  pass(ms: number): void {
    if (ms <= 0) return;
    // Calls made in one synchronous run of JavaScript are side by side (none can wait for another's answer): one burst,
    // until the microtasks queued before its first call have run.
    if (!this.#inBurst) {
      this.#inBurst = true;
      this.#bursts++;
      queueMicrotask(() => (this.#inBurst = false));
    }
    this.stalls.push({ at: this.trueNow(), ms, burst: this.#bursts });
    this.t += ms;
  }

  /**
   * Each time true time passed while the worker worked ({@link pass}: the slowDisk and slowCalls families), from when
   * (true time, ms since the epoch, as {@link trueNow}) and how long (ms). The whole world stood still meanwhile, calls made side by side one after another:
   * time no part of the worker could use (test/world/lookups.ts adds to a look-up's 2 s what calls of one burst took
   * beyond the longest of them). `burst`: calls made in one synchronous run share it — side by side, they would take
   * their time at once in a browser; calls in different bursts may wait for one another (one after another, awaited).
   */
  readonly stalls: Array<{ at: number; ms: number; burst: number }> = [];
  #bursts = 0;
  #inBurst = false;

  /** The user's clock jumps by `ms` (negative: back). */
  jump(ms: number): void {
    this.#offset = this.skew() + ms;
    this.#offsetAt = this.t;
    this.#logSegment();
  }

  /** The user's clock starts gaining `rate` ms per ms of true time (negative: losing). */
  setDrift(rate: number): void {
    this.#offset = this.skew();
    this.#offsetAt = this.t;
    this.#drift = rate;
    this.#logSegment();
  }

  /** An NTP correction: the wall clock is set right (no drift, no offset). */
  correct(): void {
    this.#offset = 0;
    this.#offsetAt = this.t;
    this.#drift = 0;
    this.#logSegment();
  }

  /** Notes the offset and drift from now on (a change at the same instant replaces the one before). */
  #logSegment(): void {
    const last = this.#segments.at(-1)!;
    const seg = { at: this.t, offset: this.#offset, drift: this.#drift };
    if (last.at === this.t) this.#segments[this.#segments.length - 1] = seg;
    else this.#segments.push(seg);
  }

  /**
   * Calls `fn` at true time `at` (not before now); dropped when `life` is dead by then. `fn` returns
   * {@link NOTHING_DONE} when it did nothing but maybe call `at` (no promise, no event, no IndexedDB request): the world
   * then moves on without settling.
   */
  at(at: number, fn: () => unknown, life?: Life): Timer {
    const timer: Timer = { at: Math.max(at, this.t), seq: this.#seq++, fn, life, cancelled: false };
    let lo = 0;
    let hi = this.#timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.#timers[mid]!;
      if (m.at < timer.at || (m.at === timer.at && m.seq < timer.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.#timers.splice(lo, 0, timer);
    return timer;
  }

  /** The monotonic clock and sleep of one worker life (origin: its birth; a wall jump does not move it). */
  clockFor(life: Life): Clock {
    return {
      now: () => this.wall(),
      monotonic: () => this.t - life.bornAt,
      sleep: (ms, signal) =>
        new Promise<void>((resolve) => {
          if (signal?.aborted) return resolve();
          const timer = this.at(this.t + Math.max(0, ms), done, life);
          function done() {
            timer.cancelled = true;
            signal?.removeEventListener('abort', done);
            resolve();
          }
          signal?.addEventListener('abort', done);
        }),
    };
  }

  /** `setTimeout`/`clearTimeout` of one worker life, on true time (ms clamped to [0, 2^31 − 1] as browsers do). */
  timersFor(life: Life): Timers {
    return {
      setTimeout: (fn, ms) => {
        // Browsers run a delay above 2^31 − 1 ms (or NaN) at once: the simulation does what they do.
        const delay = Number.isFinite(ms) && ms > 0 && ms <= 2 ** 31 - 1 ? ms : 0;
        return this.at(this.t + delay, fn, life);
      },
      clearTimeout: (handle) => {
        if (handle && typeof handle === 'object' && 'cancelled' in handle) (handle as Timer).cancelled = true;
      },
    };
  }

  /**
   * Lets real macrotasks (fake-indexeddb's) and every promise chain run: at least three turns of the event loop, and
   * on while a transaction is open (at most 2,000 turns). Work still queued then runs after the next timer. A turn
   * that ends with nothing queued (no other `setImmediate`, no transaction open; each turn drains every promise chain
   * before the next) leaves the turns after it nothing to do: the settling ends there, with the same outcome.
   * Returns whether nothing was left queued.
   */
  async settle(): Promise<boolean> {
    for (let i = 0; i < 2_000; i++) {
      await new Promise<void>((r) => realSetImmediate(r));
      const idle = immediates.size === 0;
      if (!this.busy() && (idle || i >= 2)) return idle;
    }
    return false;
  }

  /**
   * Runs the world until true time `end`: settles, fires the next due timer of a living life, and so on (a timer that
   * did nothing, {@link NOTHING_DONE}, after a settling that left nothing queued, needs no settling). Throws when
   * more than `maxSteps` timers fire at one instant (a wake-up loop that never lets time pass).
   */
  async runUntil(end: number, maxSteps = 20_000): Promise<void> {
    let sameInstant = 0;
    // After a settling that left nothing queued, a timer that did nothing leaves nothing either.
    let idle = false;
    let quiet = false;
    for (;;) {
      if (!(quiet && idle)) idle = await this.settle();
      const next = this.#timers[0];
      if (!next || next.at > end) break;
      this.#timers.shift();
      quiet = true;
      if (next.cancelled || next.life?.dead) continue;
      sameInstant = next.at <= this.t ? sameInstant + 1 : 0;
      if (sameInstant > maxSteps) throw new Error(`a wake-up loop: ${maxSteps} timers at +${this.t} ms`);
      // A timer that fell due while work made time pass ({@link WorldTime.pass}) fires late; time never goes back.
      this.t = Math.max(this.t, next.at);
      quiet = next.fn() === NOTHING_DONE;
    }
    this.t = Math.max(this.t, end);
    await this.settle();
  }

  /** Timers still due (for a run's end: every life is killed, nothing may keep running). */
  get pending(): number {
    return this.#timers.filter((x) => !x.cancelled && !x.life?.dead).length;
  }
}
