/**
 * The scheduler decides *when* each check runs, over the tracker's in-memory mirror; what an answer means is the
 * engine's business. Pure: {@link planChecks} maps a picture of the tracker to the requests to start now and the
 * time to look again.
 *
 * Slots: `maxConcurrent - 1` long-poll slots (WaitIntentReceipt for the intents ranked first by `longPollRank`; one
 * while history can be read and more than a page's worth are tracked, {@link longPollSlots}) and
 * one sweeper slot, which runs in order of preference: a user's refresh; the first read of a new intent (but a
 * history page, when due, at least once per `busySweepGapMs` meanwhile); an
 * individual check (GetIntentReceipt) of the intent outside the slots heard of longest ago, at most once per
 * `individualEveryMs`, as soon as that answer is `recheckAfterMs` old or a watchdog asks to verify it — or earlier
 * when intents heard of at about the same time would otherwise queue past S(N) (I1: the k-th heard of longest ago
 * must be read within S(N), one check per `individualEveryMs`, so the first starts by the earliest of
 * `lastHeard_k + S(N) - individualEveryMs - k × individualEveryMs`); otherwise one page of GetIntentHistory (see
 * `./sweeper`).
 */
import type { TrackedIntent } from '../store';
import { byLongPollRank, lastHeardAt, stalenessBound } from './policy';
import { HISTORY_PAGE_SIZE } from './sweeper';
import type { TrackerTuning } from './types';

/** The sweeper's next job. */
export type SweepJob = { kind: 'receipt'; intentId: string; reason: 'refresh' | 'first' | 'verify' | 'stale' } | { kind: 'history' };

/** What to start now, and when to plan again (ms; Infinity when nothing is waiting). */
export interface Plan {
  longPolls: string[];
  sweep?: SweepJob;
  wakeAt: number;
}

/** The picture of the tracker the scheduler plans from. */
export interface PlanInput {
  now: number;
  /** Intents in phase `tracking`. */
  tracking: readonly TrackedIntent[];
  /** Kind of the request in flight per intentId. */
  inFlight: ReadonlyMap<string, 'wait' | 'receipt' | 'batch'>;
  /** Long-polls that may start now (see {@link LongPollBudget}), and when the next one may. */
  longPollTokens: number;
  longPollTokenAt: number;
  /** True while the sweeper's request is in flight. */
  sweeping: boolean;
  /** The sweeper may not start a paced job (individual check, history page) before this. */
  nextSweepAt: number;
  /** No individual check before this. */
  nextIndividualAt: number;
  /** When the last history page started (ms; -Infinity before the first). */
  lastPageAt: number;
  /** Intents the user asked to read now, oldest request first. */
  refresh: readonly string[];
  /** Intents a watchdog wants read again before it acts (their last answer is too old). */
  verify: ReadonlySet<string>;
  /** True when the transport can list history and some tracked intent can be looked for in it. */
  history: boolean;
  tuning: Pick<TrackerTuning, 'maxConcurrent' | 'recheckAfterMs' | 'busySweepGapMs' | 'individualEveryMs'>;
}

/**
 * How many long-poll slots the tracker uses: `maxConcurrent - 1`, but one while history can be read and more
 * intents are tracked than one history page holds ({@link HISTORY_PAGE_SIZE}). Every request the tracker sends takes
 * its turn in the worker's pace (54 a minute, I5): a long-poll answers about one intent, a history page about up to
 * a page of them, so past a page's worth each long-poll is a page of finishes not read. Measured with 1,000 intents
 * finishing over 60 s through the worker's budget: three turns in four went to long-polls of intents never asked
 * (each answered at once, so one request was ever in flight), one in four to a page, and the p99 was 34 s.
 * One slot, not none: with every intent outside the slots, the individual checks (one per `individualEveryMs`) come
 * round exactly every S(N) and the least delay breaks I1 (an intent of 150 went S(N) + 1.01 s unread); the intent in
 * the slot leaves them one pace to spare.
 */
export function longPollSlots(tracked: number, history: boolean, tuning: Pick<TrackerTuning, 'maxConcurrent'>): number {
  return history && tracked > HISTORY_PAGE_SIZE ? Math.min(1, tuning.maxConcurrent - 1) : tuning.maxConcurrent - 1;
}

/** When an intent may be asked again (back-off, or the pause after an unchanged long-poll); 0 = now. */
export function dueAt(t: TrackedIntent): number {
  return Math.max(t.retry?.nextAt ?? 0, t.nextCheckAt ?? 0);
}

/** Plans the requests to start now. */
export function planChecks(input: PlanInput): Plan {
  const { now, tracking, inFlight } = input;
  let wakeAt = Number.POSITIVE_INFINITY;
  const idle = tracking.filter((t) => !inFlight.has(t.intentId));
  const due = idle.filter((t) => {
    const at = dueAt(t);
    if (at > now) wakeAt = Math.min(wakeAt, at);
    return at <= now;
  });

  const longPolls: string[] = [];
  let waits = [...inFlight.values()].filter((k) => k === 'wait').length;
  const slots = longPollSlots(tracking.length, input.history, input.tuning);
  let tokens = input.longPollTokens;
  const refresh = new Set(input.refresh);
  for (const t of [...due].sort(byLongPollRank)) {
    if (waits >= slots) break;
    if (refresh.has(t.intentId)) continue;
    if (tokens < 1) {
      wakeAt = Math.min(wakeAt, input.longPollTokenAt);
      break;
    }
    longPolls.push(t.intentId);
    tokens--;
    waits++;
  }
  const polled = new Set(longPolls);
  const cold = due.filter((t) => !polled.has(t.intentId));

  let sweep: SweepJob | undefined;
  if (!input.sweeping) {
    const refreshId = input.refresh.find((id) => idle.some((t) => t.intentId === id));
    // The intent tracked last is read first: the one the user just added matters now, and a pasted list of hundreds
    // read at the worker's pace (I5) must not hold back the intent tracked after it.
    let first: TrackedIntent | undefined;
    for (const t of cold) if (t.lastCheckedAt === undefined && t.retry === undefined && (!first || t.addedAt > first.addedAt)) first = t;
    // First reads go one at a time (hundreds take seconds in a browser); history keeps its busy pace meanwhile, so
    // that intents finishing then are not left until every first read is done.
    const pageDue = input.history && now >= input.nextSweepAt && now - input.lastPageAt >= input.tuning.busySweepGapMs;
    // The latest start that keeps every cold intent within S(N) (I1); the sweeper's gap after its last job (its pace
    // after a page, after news, while idle) does not put an individual check past it.
    // (An intent never heard of is owed since forever: its failed first read waits for its back-off and the gap.)
    const latest = cold.length > 0 ? latestFirstCheck(cold, input.tuning) : Number.POSITIVE_INFINITY;
    const heard = cold.filter((t) => lastHeardAt(t) > 0);
    const latestHeard = heard.length > 0 ? latestFirstCheck(heard, input.tuning) : Number.POSITIVE_INFINITY;
    const owedNow = now >= input.nextIndividualAt && latestHeard <= now;
    if (refreshId) sweep = { kind: 'receipt', intentId: refreshId, reason: 'refresh' };
    else if (first) sweep = pageDue ? { kind: 'history' } : { kind: 'receipt', intentId: first.intentId, reason: 'first' };
    else if (now < input.nextSweepAt && !owedNow) {
      if (cold.length > 0 || input.history) wakeAt = Math.min(wakeAt, input.nextSweepAt, Math.max(input.nextIndividualAt, latestHeard));
    } else {
      // Without history, individual checks are the sweeper's only means: every paced turn goes to the stalest.
      const threshold = input.history ? input.tuning.recheckAfterMs : 0;
      // A watchdog's verification goes first, unless the latest start that keeps every cold intent within S(N) comes
      // before the next individual turn: then the one owed a check longest (I1). Otherwise verifications that keep
      // coming first (two expired intents brought back by a retry that cut a long-poll; an expiry's five fresh
      // answers in a row) take the turn a few ms before that latest start, and the owed intent's read goes a whole
      // turn past it, its margin spent.
      const byOwed = [...cold].sort((a, b) => owedSince(a) - owedSince(b));
      const tight = byOwed.length > 0 && latest < now + input.tuning.individualEveryMs;
      const stalest = tight
        ? byOwed[0]
        : [...byOwed].sort((a, b) => Number(input.verify.has(b.intentId)) - Number(input.verify.has(a.intentId)))[0];
      const staleAt = stalest
        ? input.verify.has(stalest.intentId)
          ? now
          : Math.min(lastHeardAt(stalest) + threshold, latest)
        : Number.POSITIVE_INFINITY;
      const individualAt = Math.max(input.nextIndividualAt, staleAt);
      if (stalest && (individualAt <= now || !input.history)) {
        sweep = { kind: 'receipt', intentId: stalest.intentId, reason: input.verify.has(stalest.intentId) ? 'verify' : 'stale' };
      } else {
        wakeAt = Math.min(wakeAt, individualAt);
        if (input.history) sweep = { kind: 'history' };
      }
    }
  }
  return { longPolls, ...(sweep ? { sweep } : {}), wakeAt };
}

/**
 * Since when (ms) an intent is owed its next individual check: its last answer, the retry that brought it back to
 * tracking, or its last failed attempt (`retry.at`), whichever came last. An intent unread while expired is owed a
 * check within S(N) of the retry, not at once before every other; one whose check was answered about another intent
 * (no answer for it, not heard) goes behind the others rather than taking every turn while it keeps failing — a
 * failing intent held the first place for 60 s while the next one went 64 s unread.
 */
function owedSince(t: TrackedIntent): number {
  return Math.max(lastHeardAt(t), t.resumedAt ?? 0, t.retry?.at ?? 0);
}

/**
 * The latest time (ms) the first of the next individual checks may start so that, one check per `individualEveryMs`
 * in order of last answer, every one of `cold` is read within S(N) of its last answer, with one pace of margin for
 * a history page or a late turn (I1).
 */
function latestFirstCheck(cold: readonly TrackedIntent[], tuning: Pick<TrackerTuning, 'individualEveryMs'>): number {
  const pace = tuning.individualEveryMs;
  const bound = stalenessBound(cold.length, tuning) - pace;
  const heard = cold.map(owedSince).sort((a, b) => a - b);
  return Math.min(...heard.map((at, k) => at + bound - k * pace));
}

/**
 * Token bucket for the long-poll slots: a long-poll that learns nothing spends a token, one that brings news gives
 * it back. Holds at most `capacity` tokens, refilled at `perMinute`. So however short the server's wait, long-polls
 * that learn nothing start at most `perMinute` times a minute (plus the capacity once).
 */
export class LongPollBudget {
  #tokens: number;
  #at: number;
  constructor(
    readonly capacity: number,
    readonly perMinute: number,
    now: number,
  ) {
    this.#tokens = capacity;
    this.#at = now;
  }
  /** Tokens available at `now`. */
  available(now: number): number {
    this.#refill(now);
    return Math.floor(this.#tokens);
  }
  /** When the next whole token is there (ms). */
  nextAt(now: number): number {
    this.#refill(now);
    return now + Math.max(0, Math.ceil(((1 - this.#tokens) * 60_000) / this.perMinute));
  }
  /** Spends one token. */
  take(now: number): void {
    this.#refill(now);
    this.#tokens -= 1;
  }
  /** Gives one back (the long-poll brought news). */
  refund(): void {
    this.#tokens = Math.min(this.capacity, this.#tokens + 1);
  }
  #refill(now: number) {
    // A clock that goes back neither refills nor drains the bucket.
    const elapsed = Math.max(0, now - this.#at);
    this.#tokens = Math.min(this.capacity, this.#tokens + (elapsed * this.perMinute) / 60_000);
    this.#at = Math.max(this.#at, now);
  }
}
