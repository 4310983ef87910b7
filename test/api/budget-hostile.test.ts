/**
 * Hostile tests of the request budget's wake-up (lib/api/budget.ts `#dispatch`: one monotonic reading decides who
 * starts and when to wake). Attacked on a loop clock that creeps between reads and fires timers early or late,
 * with every lane asking, Retry-After holds of two scopes (some ending exactly on a token's time), aborts, and
 * requests that are no longer wanted: no waiter may be left with nothing to wake it (a hang), and I5's window holds.
 */
import { describe, expect, it } from 'vitest';
import type { BudgetClock, Lane } from '@/lib/api/budget';
import { RequestBudget } from '@/lib/api/budget';

/** A small seeded PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A monotonic clock that moves `creepMs` on every read and whose timers fire between `earlyMs` before and `lateMs`
 * after the time asked — never sooner than 1 ms after they were set (a timer loop's tick), so time always moves.
 */
class JitterClock implements BudgetClock {
  t = 1_000;
  #timers: { at: number; seq: number; resolve: () => void; signal?: AbortSignal | undefined }[] = [];
  #seq = 0;
  fires = 0;
  constructor(
    readonly random: () => number,
    readonly creepMs: number,
    readonly earlyMs: number,
    readonly lateMs: number,
  ) {}
  monotonic(): number {
    this.t += this.creepMs * this.random();
    return this.t;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const jitter = -this.earlyMs * this.random() + this.lateMs * this.random();
      const at = Math.max(this.t + 1, this.t + ms + jitter);
      this.#timers.push({ at, seq: this.#seq++, resolve, signal });
    });
  }
  /** Fires the timers due by `limit` in order, letting what they start run between them. */
  async runUntil(limit: number): Promise<void> {
    for (;;) {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      this.#timers = this.#timers.filter((t) => !t.signal?.aborted);
      const next = this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next || next.at > limit) return;
      this.#timers.splice(this.#timers.indexOf(next), 1);
      this.t = Math.max(this.t, next.at);
      this.fires++;
      next.resolve();
    }
  }
}

interface Outcome {
  asked: number;
  started: number;
  aborted: number;
  unwanted: number;
  /** Starts (monotonic ms) of the requests sent. */
  starts: number[];
  waitingAtEnd: number;
  inFlightAtEnd: number;
}

/** One random life of the budget; `aligned`: holds end on whole seconds (the pace's token times at 60 a minute). */
async function life(seed: number, clockShape: [number, number, number], aligned: boolean): Promise<Outcome> {
  const random = prng(seed);
  const clock = new JitterClock(random, ...clockShape);
  const budget = new RequestBudget({ clock, perMinute: 60, burst: 2 });
  const lanes: Lane[] = ['user', 'tracker', 'background'];
  const out: Outcome = { asked: 0, started: 0, aborted: 0, unwanted: 0, starts: [], waitingAtEnd: 0, inFlightAtEnd: 0 };
  const t0 = clock.t;
  const done: Promise<unknown>[] = [];
  // 150 asks and a few holds over 3 minutes, each at its own time on the clock.
  for (let i = 0; i < 170; i++) {
    const at = random() * 180_000;
    const kind = random();
    done.push(
      clock.sleep(at).then(() => {
        if (kind < 0.12) {
          const scope = random() < 0.5 ? 'a' : 'b';
          const now = clock.monotonic();
          const ms = aligned ? Math.ceil(now / 1000) * 1000 + 1000 * Math.floor(1 + random() * 20) - now : 1 + random() * 20_000;
          budget.holdOff(ms, scope);
          return;
        }
        const lane = lanes[Math.floor(random() * 3)]!;
        const scope = random() < 0.5 ? 'a' : 'b';
        const controller = new AbortController();
        const abortAfter = random() < 0.1 ? random() * 5_000 : undefined;
        if (abortAfter !== undefined) void clock.sleep(abortAfter).then(() => controller.abort(new Error('gone')));
        const wanted = random() > 0.05;
        const duration = random() < 0.1 ? 40_000 * random() : 2_000 * random();
        out.asked++;
        return budget
          .run(
            lane,
            async () => {
              out.started++;
              out.starts.push(clock.t);
              await clock.sleep(duration);
            },
            { scope, signal: controller.signal, stillWanted: async () => wanted },
          )
          .catch((err: unknown) => {
            if (err instanceof Error && err.message === 'gone') out.aborted++;
            else out.unwanted++;
          });
      }),
    );
  }
  // Long enough for every hold (≤ 20 s), every wait and every request (≤ 40 s) to end.
  await clock.runUntil(t0 + 600_000);
  out.waitingAtEnd = budget.waiting;
  out.inFlightAtEnd = budget.inFlight;
  expect(clock.fires).toBeLessThan(100_000);
  void t0;
  return out;
}

/** The most requests sent in any 60 s window. */
function busiestMinute(starts: number[]): number {
  const s = [...starts].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while (s[i]! - s[j]! >= 60_000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const SHAPES: Array<[string, [number, number, number]]> = [
  ['a still clock, exact timers', [0, 0, 0]],
  ['creeping 0.4 ms a read, timers up to 0.9 ms early', [0.4, 0.9, 0]],
  ['a still clock, timers up to 0.99 ms early', [0, 0.99, 0]],
  ['timers up to 50 ms late', [0.05, 0, 50]],
  ['timers 1 ms early to 1 s late (a throttled worker)', [0.2, 1, 1_000]],
];

describe('the request budget never leaves a waiter without a wake-up', () => {
  for (const [name, shape] of SHAPES)
    for (const aligned of [false, true])
      it(`${name}; holds ${aligned ? 'ending on a token’s time' : 'of any length'}: every request asked is sent, aborted or refused`, async () => {
        for (let seed = 1; seed <= 6; seed++) {
          const o = await life(seed * 7919 + (aligned ? 1 : 0), shape, aligned);
          expect({ seed, waiting: o.waitingAtEnd, inFlight: o.inFlightAtEnd }).toEqual({ seed, waiting: 0, inFlight: 0 });
          expect(o.started + o.aborted + o.unwanted).toBe(o.asked);
          expect(busiestMinute(o.starts)).toBeLessThanOrEqual(60);
        }
      });
});

describe('the request budget wakes on time', () => {
  for (const [name, shape] of SHAPES)
    it(`${name}: ten background requests asked at once go one a second (the pace), none waits for the window`, async () => {
      for (let seed = 1; seed <= 4; seed++) {
        const clock = new JitterClock(prng(seed), ...shape);
        const budget = new RequestBudget({ clock, perMinute: 60, burst: 1 });
        const starts: number[] = [];
        const all = Array.from({ length: 10 }, () => budget.run('background', async () => void starts.push(clock.t)));
        await clock.runUntil(clock.t + 120_000);
        await Promise.all(all);
        const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
        expect(Math.max(...gaps)).toBeLessThanOrEqual(1_000 + shape[2] + 5);
      }
    });

  for (const [name, shape] of SHAPES)
    it(`${name}: under a busy tracker and user, each background request goes within 60 s of its asking or the lane's last one`, async () => {
      for (let seed = 1; seed <= 4; seed++) {
        const random = prng(seed);
        const clock = new JitterClock(random, ...shape);
        const budget = new RequestBudget({ clock, perMinute: 60, burst: 2 });
        const t0 = clock.t;
        const background: Array<{ asked: number; start: number }> = [];
        const jobs: Promise<unknown>[] = [];
        for (let i = 0; i < 400; i++) {
          const at = random() * 240_000;
          const lane: Lane = i % 5 === 0 ? 'background' : i % 5 === 1 ? 'user' : 'tracker';
          const duration = 1_500 * random();
          jobs.push(
            clock.sleep(at).then(() => {
              const asked = clock.t;
              return budget.run(lane, async () => {
                if (lane === 'background') background.push({ asked, start: clock.t });
                await clock.sleep(duration);
              });
            }),
          );
        }
        await clock.runUntil(t0 + 900_000);
        await Promise.all(jobs);
        background.sort((a, b) => a.start - b.start);
        for (let i = 0; i < background.length; i++) {
          const from = Math.max(background[i]!.asked, i > 0 ? background[i - 1]!.start : Number.NEGATIVE_INFINITY);
          // A wait begins from the later of the two; late timers add their lateness (twice: the pace's and a slot's).
          expect(background[i]!.start - from).toBeLessThanOrEqual(60_000 + 2 * shape[2] + 5);
        }
      }
    });
});
