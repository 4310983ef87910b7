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
  fn: () => void;
  life: Life | undefined;
  cancelled: boolean;
}

/** The world's time, the user's wall clock and every timer. */
export class WorldTime {
  /** True time since the world's start (ms). */
  t = 0;
  #offset = 0;
  #offsetAt = 0;
  #drift = 0;
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

  /** The user's clock jumps by `ms` (negative: back). */
  jump(ms: number): void {
    this.#offset = this.skew() + ms;
    this.#offsetAt = this.t;
  }

  /** The user's clock starts gaining `rate` ms per ms of true time (negative: losing). */
  setDrift(rate: number): void {
    this.#offset = this.skew();
    this.#offsetAt = this.t;
    this.#drift = rate;
  }

  /** An NTP correction: the wall clock is set right (no drift, no offset). */
  correct(): void {
    this.#offset = 0;
    this.#offsetAt = this.t;
    this.#drift = 0;
  }

  /** Calls `fn` at true time `at` (not before now); dropped when `life` is dead by then. */
  at(at: number, fn: () => void, life?: Life): Timer {
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

  /** Lets real macrotasks (fake-indexeddb) and every promise chain run until nothing is left to run now. */
  async settle(): Promise<void> {
    for (let i = 0; i < 2_000; i++) {
      await new Promise<void>((r) => setImmediate(r));
      if (i >= 2 && !this.busy()) return;
    }
  }

  /**
   * Runs the world until true time `end`: settles, fires the next due timer of a living life, and so on. Throws when
   * more than `maxSteps` timers fire at one instant (a wake-up loop that never lets time pass).
   */
  async runUntil(end: number, maxSteps = 20_000): Promise<void> {
    let sameInstant = 0;
    for (;;) {
      await this.settle();
      const next = this.#timers[0];
      if (!next || next.at > end) break;
      this.#timers.shift();
      if (next.cancelled || next.life?.dead) continue;
      sameInstant = next.at === this.t ? sameInstant + 1 : 0;
      if (sameInstant > maxSteps) throw new Error(`a wake-up loop: ${maxSteps} timers at +${this.t} ms`);
      this.t = next.at;
      next.fn();
    }
    this.t = Math.max(this.t, end);
    await this.settle();
  }

  /** Timers still due (for a run's end: every life is killed, nothing may keep running). */
  get pending(): number {
    return this.#timers.filter((x) => !x.cancelled && !x.life?.dead).length;
  }
}
