/**
 * The oracle's model of the clock the worker's verdicts read (docs/time.md, "The service clock", "Who decides on it";
 * lib/tracker/service-clock.ts `earliestSure`, `decidable`): a watchdog acts on the earliest time *every one* of the
 * last 12 `Date` samples of the live worker allows, so a `Date` lying behind among them puts a verdict off by its lie
 * (docs/time.md: "one lying behind only puts the verdict off"); while that worker has fewer than 12 samples, or its
 * last 8 agree on nothing by a majority, it decides nothing. Built from what the world delivered to each live worker
 * (test/world/network.ts `dates`), never from the worker's own state.
 */
import { DATE_SAMPLES, SURE_SAMPLES } from '@/lib/tracker/service-clock';
import type { Window } from './family-types';

/** One `Date` header a live worker received (test/world/network.ts `dates`). */
export interface DateSample {
  /** True time of its arrival (ms since the epoch). */
  at: number;
  /** The worker life that received it. */
  life: number;
  /** The header minus the true time (ms): within the second before 0 when truthful. */
  offsetMs: number;
}

/** Offsets closer than this (ms) are one source's (a truthful header is up to 1 s + its round trip early). */
const AGREE_MS = 5_000;

/** The worker lives of a run: when each was born (true ms since the epoch), in order. */
export type Births = readonly number[];

/** What the verdict clock allows at true time `t`: undefined when it decides nothing, else how far (ms) it lags the truth. */
export function verdictLag(samples: readonly DateSample[], births: Births, t: number): number | undefined {
  const life = births.findLastIndex((b) => b <= t);
  return lagAfter(samples.filter((s) => s.at <= t && s.life === life));
}

/** What the verdict clock allows once a worker has received `mine` (its samples, in order): as {@link verdictLag}. */
function lagAfter(mine: readonly DateSample[]): number | undefined {
  if (mine.length < SURE_SAMPLES) return undefined;
  const last = mine.slice(-SURE_SAMPLES);
  const recent = mine.slice(-DATE_SAMPLES);
  const agreeing = Math.max(...recent.map((a) => recent.filter((b) => Math.abs(a.offsetMs - b.offsetMs) <= AGREE_MS).length));
  if (agreeing * 2 <= recent.length) return undefined;
  return Math.max(0, -Math.min(...last.map((s) => s.offsetMs)));
}

/**
 * The spans within [from, to] (true ms) in which the verdict clock could not yet say that `deadline` (true ms, the
 * service's time) has passed: it decided nothing, or it lagged the truth by more than the time since the deadline.
 * Each is a window the stuck warning's lateness is excused over, as a window of docs/simulation.md's table is.
 */
export function verdictClockWindows(samples: readonly DateSample[], births: Births, deadline: number, from: number, to: number): Window[] {
  const inside = (t: number) => t > from && t < to;
  const cuts = [from, ...[...samples.map((s) => s.at), ...births].filter(inside).sort((a, b) => a - b), to];
  const out: Window[] = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    const a = cuts[k]!;
    const b = cuts[k + 1]!;
    const lag = verdictLag(samples, births, a);
    const blockedTo = lag === undefined ? b : Math.min(b, deadline + lag);
    if (blockedTo <= a) continue;
    const why =
      lag === undefined
        ? 'verdict clock: no 12 Date samples agreeing'
        : lag > AGREE_MS
          ? 'verdict clock: a Date lying behind'
          : 'verdict clock: a Date truncated to the second';
    const prev = out.at(-1);
    if (prev && prev.to >= a && prev.why === why) prev.to = blockedTo;
    else out.push({ from: a, to: blockedTo, why });
  }
  return out;
}

/**
 * The most the verdict clock lagged the truth (ms) over [from, to] (true ms); 0 when it never decided. It is read at
 * `from` and after each sample received in (from, to], one at a time: the worker reads the answers that arrive in the
 * same millisecond one after another, and a verdict may be reached between two of them (a `Date` lying behind read
 * while the majority still stood, before the next lying ones took it away).
 */
export function maxVerdictLag(samples: readonly DateSample[], births: Births, from: number, to: number): number {
  let most = verdictLag(samples, births, from) ?? 0;
  samples.forEach((s, i) => {
    if (s.at <= from || s.at > to) return;
    most = Math.max(most, lagAfter(samples.slice(0, i + 1).filter((x) => x.life === s.life)) ?? 0);
  });
  return most;
}
