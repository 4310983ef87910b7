/**
 * The `lookups` family of the world campaign: the user looks intents up in the popup's History (the `lookup` message,
 * GetIntentHistory of an owner) at any time, during every other fault — while the tracker long-polls, pages history
 * and checks, and while the watched check and ETA look-ups wait. The user's look-ups go first in line
 * (docs/tracking.md I5): at most 59 places of any minute are the user's and the tracker's, and the user's go first.
 *
 * The oracle (L1, per look-up): sent within 2 s of being asked, and no request of the tracker's or the background's
 * starts between the asking and its sending; a reply comes (its data, or a failure the popup shows). Excused: only
 * the windows about every intent (a death, a 429's hold and the part of it a restarted worker serves again,
 * IndexedDB refusing, the minute spent) over those 2 s, and only until 2 s after they end (chained), and what the
 * world's one-after-another added to calls made side by side (slowCalls, slowDisk make true time pass at each call,
 * so calls a browser runs at once take their time one after another there: all but the longest of each burst, see
 * test/world/time.ts `stalls`; calls awaited one after another are the worker's own time). A request of the worker's
 * sent first is excused only by a window open by then, or when its fetch and the look-up's were side by side (one
 * burst). One never sent only when a death over that wait lost it (one at the very instant of the asking too: the
 * worker it woke died in its wiring), or the run ended first; one answered without a request only by an IndexedDB
 * refusal open by its answer. Which user request is whose is not known: L1 takes the best way of giving them to the
 * look-ups, and a user request none can take fails.
 */
import fc from 'fast-check';
import type { CheckContext, FamilyContext, FamilyCount } from './family-types';

const MIN = 60_000;
/** The owner the user looks up: no intent of the schedule and no other part of the worker asks about it. */
export const LOOKED_UP = '0x00000000000000000000000000000000000000e7';
/** A look-up is sent within this long of being asked (docs/tracking.md I5: the user first). */
const SENT_WITHIN_MS = 2_000;

/** The arbitrary of the family's part of a schedule (undefined: off): when the user looks up (ms from the start). */
export const lookupsArb = fc.option(fc.array(fc.integer({ min: 0, max: 12 * MIN }), { minLength: 1, maxLength: 4 }), {
  nil: undefined,
});

/** The family's part of a schedule. */
export type LookupsSpec = NonNullable<typeof lookupsArb extends fc.Arbitrary<infer T> ? T : never>;

/** What the family saw: each look-up, when asked (true time), whether a reply came and when (`repliedAt`, true time). */
export type LookupsObs = Array<{ at: number; replied: boolean; repliedAt?: number }>;

/** Plays the look-ups: the popup's History of {@link LOOKED_UP}, 20 a page. */
export function playLookups(ctx: FamilyContext, spec: LookupsSpec | undefined): LookupsObs | undefined {
  if (!spec) return undefined;
  const obs: LookupsObs = [];
  ctx.world.net.isUser = (body) => body.byOwnerAddress === LOOKED_UP;
  for (const t of spec)
    ctx.at(t, () => {
      if (ctx.world.closed) return;
      const asked: LookupsObs[number] = { at: ctx.now(), replied: false };
      obs.push(asked);
      void ctx.world
        .send({ type: 'lookup', operation: 'getIntentHistory', request: { byOwnerAddress: LOOKED_UP, page: { pageSize: 20 } } })
        .then((reply) => {
          if (reply === undefined) return;
          asked.replied = true;
          asked.repliedAt = ctx.now();
        });
    });
  return obs;
}

/** L1: see the module's docstring. */
export function checkLookups(ctx: CheckContext, obs: LookupsObs | undefined, count: FamilyCount): string[] {
  if (!obs) return [];
  const v: string[] = [];
  const log = ctx.service.log;
  const userSent = log.filter((e) => e.lane === 'user').map((e) => e.start);
  // A look-up is owed 2 s after its asking; a window about every intent over that wait (a hold, a death, a refusal,
  // the minute spent) pushes it to 2 s after the window's end, windows chained — never further.
  // The 2 s are the worker's own: what the world's one-after-another added in that wait to calls made side by side
  // (slowCalls, slowDisk: all but the longest call of each burst) is added to them. Calls awaited one after another
  // (each its own burst) are the worker's time: a look-up held by them is late.
  const stalls = ctx.world?.time.stalls ?? [];
  const stalledIn = (from: number, to: number): number => serializedIn(stalls, from, to);
  /** The burst of the call that ended at `t` (a request reaches the service as its fetch's time ends), if one did. */
  const burstEnding = (t: number): number | undefined => stalls.find((x) => x.at + x.ms === t)?.burst;
  const sideBySide = (a: number, b: number): boolean => {
    const burst = burstEnding(a);
    return burst !== undefined && burst === burstEnding(b);
  };
  const dueOf = (at: number): number => {
    let due = at + SENT_WITHIN_MS;
    for (;;) {
      const later = Math.max(
        due,
        at + SENT_WITHIN_MS + stalledIn(at, due),
        ...ctx.over(undefined, at, due).map((w) => w.to + SENT_WITHIN_MS),
      );
      if (later <= due) return due;
      due = later;
    }
  };
  const dues = new Map(obs.map((o) => [o, dueOf(o.at)]));
  type Verdict = { violation?: string; excuse?: string };
  /** L1 for look-up `o` sent at `sent` (undefined: no user request is its). */
  const judge = (o: LookupsObs[number], sent: number | undefined): Verdict => {
    const { at, replied } = o;
    const due = dues.get(o)!;
    const ws = ctx.over(undefined, at, due);
    if (sent === undefined) {
      // Answered without a request: only while IndexedDB refused, open by the answer (the worker could not read its
      // settings and said so). Never answered: lost with a dying worker (the popup's message gets no answer; the user
      // asks again), or the run ended first.
      const lost = replied
        ? ws.find((w) => /^(idb|quota) /.test(w.why) && w.from <= Math.min(at + SENT_WITHIN_MS, o.repliedAt ?? at))
        : (ws.find((w) => w.why.startsWith('death')) ??
          diedInWait(ctx.deaths, at, due) ??
          (due > ctx.end ? { why: 'the run ended' } : undefined));
      if (lost) return { excuse: lost.why };
      return {
        violation: `L1 a look-up asked at ${at - ctx.end} ms (before the end) not sent within ${due - at} ms (2 s after the windows over it)`,
      };
    }
    // A request of the worker's that reached the service before the look-up only because the world ran two calls
    // made side by side (one burst: both fetches in one synchronous run) one after another did not go first.
    const before = log.find((e) => e.lane !== 'user' && e.start > at && e.start < sent && !sideBySide(e.start, sent));
    // A request of the worker's sent first is excused only by a window open by then (one opening later did not let it go first).
    if (before && !ws.some((w) => w.from <= before.start))
      return {
        violation: `L1 a ${before.lane} ${before.op} went ${sent - before.start} ms before the look-up asked at ${at - ctx.end} ms`,
      };
    if (!replied && ctx.over(undefined, at, ctx.end).every((w) => !w.why.startsWith('death')))
      return { violation: `L1 a look-up asked at ${at - ctx.end} ms (before the end) never replied` };
    if (before || sent > at + SENT_WITHIN_MS) {
      // Late only by the time the world stood still (no window needed), or by a window.
      const stood = !before && sent <= at + SENT_WITHIN_MS + stalledIn(at, due);
      return { excuse: stood || ws.length === 0 ? 'the world stood still (slow calls)' : ws[0]!.why };
    }
    return {};
  };
  // The requests' bodies are alike, so which request is whose is not known: L1 tries every way of giving each look-up
  // one user request of its wait (sent from its asking to its due, not after its answer) or none, and keeps the one
  // with the fewest violations (fewest excuses next). The worker sends each look-up at most once and nothing else in
  // the user's lane, so a user request no look-up takes is a violation: one sent outside its look-up's wait. A run
  // has at most 4 look-ups, so the ways are few. (Seed 20261227 run 44040: a greedy matching gave the request of the
  // first of three look-ups to the second, because a 429's hold had moved the first's due, and failed a correct
  // worker; test/world/lookups-matching-hostile.test.ts has the attacks on the greedy ways.)
  const fits = (o: LookupsObs[number], k: number): boolean => {
    const due = dues.get(o)!;
    return userSent[k]! >= o.at && userSent[k]! <= Math.min(due, o.repliedAt ?? due);
  };
  const verdicts = obs.map(() => new Map<number | undefined, Verdict>());
  const verdictOf = (i: number, k: number | undefined): Verdict => {
    const m = verdicts[i]!;
    if (!m.has(k)) m.set(k, judge(obs[i]!, k === undefined ? undefined : userSent[k]));
    return m.get(k)!;
  };
  let best: { cost: [number, number]; ways: Array<number | undefined> } | undefined;
  const ways: Array<number | undefined> = [];
  const taken = new Set<number>();
  const walk = (i: number): void => {
    if (i === obs.length) {
      const vs = ways.map((k, j) => verdictOf(j, k));
      const cost: [number, number] = [
        vs.filter((x) => x.violation).length + (userSent.length - taken.size),
        vs.filter((x) => x.excuse).length,
      ];
      if (!best || cost[0] < best.cost[0] || (cost[0] === best.cost[0] && cost[1] < best.cost[1])) best = { cost, ways: [...ways] };
      return;
    }
    for (let k = 0; k < userSent.length; k++) {
      if (taken.has(k) || !fits(obs[i]!, k)) continue;
      taken.add(k);
      ways.push(k);
      walk(i + 1);
      ways.pop();
      taken.delete(k);
    }
    ways.push(undefined);
    walk(i + 1);
    ways.pop();
  };
  walk(0);
  const chosen = best!.ways;
  for (const [i, k] of chosen.entries()) {
    const { violation, excuse } = verdictOf(i, k);
    if (violation) v.push(violation);
    else if (excuse) count.excused('L1', excuse);
    else count.ok('L1');
  }
  // A request left to nobody is a look-up's sent outside its wait: named on its own when no look-up failed already.
  if (v.length === 0)
    for (const [k, start] of userSent.entries())
      if (!chosen.includes(k)) v.push(`L1 a look-up sent at ${start - ctx.end} ms (before the end) outside the wait of every look-up`);
  return v;
}

/**
 * A death inside a look-up's wait [`at`, `due`) (true time, ms), as the excuse that it was lost with that worker —
 * those the oracle's windows miss too: a worker that died at the very instant it was asked, the next one started at
 * that same instant (a window of no length, which overlaps nothing). Undefined: no worker died in that wait.
 */
export function diedInWait(deaths: ReadonlyArray<{ at: number; kind: string }>, at: number, due: number): { why: string } | undefined {
  const d = deaths.find((x) => x.kind !== 'end' && x.at >= at && x.at < due);
  return d ? { why: `death (${d.kind})` } : undefined;
}

/**
 * What the world's one-after-another added to calls made side by side in [from, to) (ms): per burst
 * (test/world/time.ts `stalls`), every call's time but the longest's — in a browser they take their time at once.
 */
export function serializedIn(stalls: ReadonlyArray<{ at: number; ms: number; burst?: number }>, from: number, to: number): number {
  const bursts = new Map<number, { sum: number; max: number }>();
  for (const s of stalls) {
    if (s.at < from || s.at >= to || s.burst === undefined) continue;
    const b = bursts.get(s.burst) ?? { sum: 0, max: 0 };
    b.sum += s.ms;
    b.max = Math.max(b.max, s.ms);
    bursts.set(s.burst, b);
  }
  let extra = 0;
  for (const b of bursts.values()) extra += b.sum - b.max;
  return extra;
}
