/**
 * The request budget's timer on a real platform's clocks (lib/api/budget.ts, `#dispatch`): Node's and the browsers'
 * timers run on a millisecond loop clock, so a timer can fire up to 1 ms before `performance.now()` reaches the time
 * asked, and `performance.now()` moves between two reads. When the budget decided "not yet" on one reading of the
 * clock and chose its next wake-up on a later one (by then "due"), it set no near wake-up and a paced background
 * request waited for the 60 s window instead of ~1 s (test/background.test.ts's watched check timed out about one
 * run in four).
 */
import { describe, expect, it } from 'vitest';
import type { BudgetClock } from '@/lib/api/budget';
import { RequestBudget } from '@/lib/api/budget';

/**
 * A monotonic clock that moves `creepMs` on every read (as `performance.now()` does between two statements) and whose
 * timers fire up to `earlyMs` before the time asked (a millisecond loop clock), never before the next read.
 */
class LoopClock implements BudgetClock {
  #t = 1_000;
  #timers: { at: number; resolve: () => void; signal?: AbortSignal }[] = [];
  constructor(
    readonly creepMs: number,
    readonly earlyMs: number,
  ) {}
  monotonic(): number {
    this.#t += this.creepMs;
    return this.#t;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const at = Math.max(this.#t + this.creepMs, this.#t + ms - this.earlyMs);
      this.#timers.push({ at, resolve, signal });
    });
  }
  /** Fires the timers due by `limit` (ms) in order, letting the promises they start run between them. */
  async runUntil(limit: number): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const live = this.#timers.filter((t) => !t.signal?.aborted);
      this.#timers = live;
      const next = live.sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > limit) return;
      this.#timers.splice(this.#timers.indexOf(next), 1);
      this.#t = Math.max(this.#t, next.at);
      next.resolve();
    }
  }
}

describe('the request budget’s wake-up', () => {
  it.each([
    [0.4, 0.5],
    [0.01, 0.9],
    [0, 0],
  ])(
    'paced background requests go about a second apart with a clock creeping %s ms a read, timers %s ms early',
    async (creepMs, earlyMs) => {
      const clock = new LoopClock(creepMs, earlyMs);
      // 60 a minute: one token a second; a burst of 1 so that the second request waits for the pace.
      const budget = new RequestBudget({ clock, perMinute: 60, burst: 1 });
      const t0 = clock.monotonic();
      const starts: number[] = [];
      const sendThree = (async () => {
        for (let i = 0; i < 3; i++) await budget.run('background', async () => void starts.push(clock.monotonic() - t0));
      })();
      await clock.runUntil(t0 + 120_000);
      await sendThree;
      expect(starts).toHaveLength(3);
      // One token a second: each waits about a second (not the 60 s window).
      for (const gap of starts.slice(1).map((t, i) => t - starts[i]!)) expect(gap).toBeLessThan(1_100);
    },
  );
});
