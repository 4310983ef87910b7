/**
 * The oracle of the world campaign: I1–I6 of the README's "Invariants of the worker" and N1, N2, N5 of
 * "Notifications on the desktop", checked **per intent** on what the service received and what the desktop showed
 * (test/notify/desktop-oracle.ts reads the desktop). It excuses only stated windows, each about whom it concerns:
 * - a death (kill, idle stop, browser restart): every intent from the death until the next worker started (the worker
 *   is not there); Chrome's repeat and Firefox's loss only for the intents whose job was `showing` as it died, or whose
 *   notification call it died right after;
 * - a faulted request (a transport fault, an error answer other than a 429): the intent it was about, from the
 *   request until the back-off cap after it; an answer that lies (about another intent, a status moved back, a wrong
 *   `Date` or `updatedAt`): the intent it was about, until 10 s after it (integers above 2^53 are data, never
 *   excused); a 429: its hold alone, every intent, for the hold (at most {@link HOLD_EXCUSE_CAP_MS}) and, after a death
 *   inside it, for what a restarted worker holds again (./kept-holds.ts) — the intent it was about gets no back-off
 *   window (the worker asks it again as the hold ends);
 * - IndexedDB refusing (reads, writes, quota): every intent, for the span and the back-off cap after it.
 * A clock jump, drift or skew excuses nothing: durations are monotonic. I5's rate is excused by nothing but a death
 * (and never above twice the idle rate). Every check counts as checked or excused (and
 * why), so a run says how often each invariant was really checked.
 */
import { isFinalStatus, NOTIFYING_STATUSES, stalenessBound } from '@/lib/tracker/policy';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import { checkClicks, tellings } from '../notify/desktop-oracle';
import type { LogEntry, Step } from '../tracker/fake-service';
import { deathExcuses } from './death-excuses';
import { checkFamilies, EXTRA_INVARIANTS, untoldByFamilies } from './families';
import { keptHolds, steppedBackHolds } from './kept-holds';
import { SERVICE_ORIGIN } from './network';
import type { Excuse, Observed } from './run';

/** The invariants the oracle checks. */
export const INVARIANTS = ['I1', 'I2', 'I3', 'I4', 'I5', 'I6', 'N1', 'N2', 'N5', ...EXTRA_INVARIANTS] as const;
export type Invariant = (typeof INVARIANTS)[number];

/** How often each invariant was checked, and excused (by reason). */
export type Tally = Record<Invariant, { checked: number; excused: Record<string, number> }>;

/** The service's commit window: an intent COMMITTED for less (on the service's clock) is not expired. */
const COMMIT_WINDOW_MS = 10 * 60_000;

/** A 429's hold excuses the worker's silence for at most this long (a service may ask for days). */
export const HOLD_EXCUSE_CAP_MS = 60 * 60_000;
/** The IndexedDB refusals (`why` of a window) that can keep a restarted worker from the hold: the settings database's, but for its calm-state key. */
const KEEPS_HOLD = /svc-settings(?!\/calm-state)/;
/** A 429's hold must be honoured for at least this long (the worker may cap a longer one). */
export const HOLD_HONOURED_MS = 60_000;

/** A fresh tally. */
export const emptyTally = (): Tally => Object.fromEntries(INVARIANTS.map((i) => [i, { checked: 0, excused: {} }])) as unknown as Tally;

/** Adds `b` into `a`. */
export function addTally(a: Tally, b: Tally): void {
  for (const i of INVARIANTS) {
    a[i].checked += b[i].checked;
    for (const [why, n] of Object.entries(b[i].excused)) a[i].excused[why] = (a[i].excused[why] ?? 0) + n;
  }
}

/** One line per invariant: checked n, excused m (why: count, ...). */
export function formatTally(t: Tally): string {
  return INVARIANTS.map((i) => {
    const ex = Object.entries(t[i].excused);
    const n = ex.reduce((s, [, k]) => s + k, 0);
    return `${i} ${t[i].checked}${n ? ` (+${n} excused: ${ex.map(([w, k]) => `${w} ${k}`).join(', ')})` : ''}`;
  }).join(' · ');
}

/** The service's methods by the log's op, and the path they are posted to (test/world/network.ts). */
const METHOD_OPS: Record<string, LogEntry['op']> = {
  WaitIntentReceipt: 'wait',
  GetIntentReceipt: 'receipt',
  GetIntentHistory: 'history',
  GetIntent: 'intent',
};
const SERVICE_RPC = `${SERVICE_ORIGIN}/rpc/Svc/`;

const isCheck = (e: LogEntry) => e.op === 'wait' || e.op === 'receipt';

/** Checks one run; returns the violations and the tally. */
export async function check(o: Observed & { flapSteps: Set<Step> }): Promise<{ violations: string[]; tally: Tally }> {
  const v: string[] = [];
  const tally = emptyTally();
  const ok = (i: Invariant) => void tally[i].checked++;
  const excused = (i: Invariant, why: string) => {
    tally[i].excused[why] = (tally[i].excused[why] ?? 0) + 1;
  };
  const { service, ids, world } = o;
  const log = service.log;
  const cap = DEFAULT_TUNING.backoffCapMs + 5_000;

  // The windows: deaths (every intent), refusals (every intent), faulted requests (their intent), 429 holds (every intent).
  const windows: Excuse[] = [...o.windows.map((w) => ({ ...w, to: w.to + cap }))];
  for (const d of o.deaths) if (d.kind !== 'end') windows.push({ from: d.at, to: d.restartAt ?? o.end, why: `death (${d.kind})` });
  for (const w of world.net.wire) {
    const e = w.entry;
    const end = e.end ?? o.end;
    if (w.holdMs !== undefined) windows.push({ from: e.start, to: end + Math.min(w.holdMs, HOLD_EXCUSE_CAP_MS), why: 'a 429 hold' });
    // NotFound is the service's answer, no fault: it counts as a check (I1) and excuses nothing.
    else if ((e.outcome === 'error' && !e.error?.includes('NotFound')) || e.outcome === 'abandoned')
      windows.push({ from: e.start, to: end + cap, why: `a faulted ${e.op}`, ...(e.intentId ? { intentId: e.intentId } : {}) });
    // A lie of the service (another intent, a stale status, a wrong date) is the one call: the worker asks again at once.
    // Integers above 2^53 are no fault (the spec's "no deadline"): nothing is excused for them.
    else if (w.fault && w.fault !== 'bigInt')
      windows.push({
        from: e.start,
        to: end + 10_000,
        why: `an answer with ${w.fault.replace('bigInt', '').trim()}`,
        ...(e.intentId ? { intentId: e.intentId } : {}),
      });
  }
  // A 429's hold as a restarted worker keeps it (docs/tracking.md "Faults": until min(its length, 60 s) is served by
  // running workers (as written down in the tracker state, which IndexedDB may refuse to write): nothing is sent
  // meanwhile, for any intent.
  const stateRefused = o.windows.filter((w) => /^(idb write svc-settings(\/tracker-state)?|quota svc-settings)$/.test(w.why));
  windows.push(
    ...keptHolds(world.net.wire, o.deaths, stateRefused),
    ...steppedBackHolds(world.net.wire, o.deaths, {
      maxSkew: (from, to) => world.time.maxSkew(from - world.time.T0, to - world.time.T0),
      refused: stateRefused,
    }),
  );
  // The worker's minute spent (I5: the tracker and the user have 59 places in any 60 s window, lib/api/rate-window.ts):
  // no check can go out until the window slides, from the first of those 59 to 60 s after it; then I1 holds again.
  // Every request of the worker takes a place, Test connection of another, unsaved service too (lib/api/budget.ts).
  const starts = [...log.map((e) => e.start), ...world.net.other.map((r) => r.at)].sort((a, b) => a - b);
  for (let i = 58; i < starts.length; i++) {
    if (starts[i]! - starts[i - 58]! < 60_000)
      windows.push({ from: starts[i - 58]!, to: starts[i - 58]! + 60_000, why: 'the minute spent (I5)' });
  }
  /** The windows about `id` overlapping [from, to]. */
  const over = (id: string | undefined, from: number, to: number) =>
    windows.filter((w) => (w.intentId === undefined || w.intentId === id) && w.from < to && w.to > from);

  const leftAt = (id: string): number => {
    const m = o.phaseAt.get(id);
    const times = [m?.get('final'), m?.get('expired'), m?.get('not-found'), m?.get('removed'), o.tracked.get(id)?.removedAt].filter(
      (x): x is number => x !== undefined,
    );
    return times.length > 0 ? Math.min(...times) : o.end;
  };
  const trackingAt = (at: number) =>
    ids.filter((id) => (o.tracked.get(id)?.from ?? Number.POSITIVE_INFINITY) <= at && leftAt(id) > at).length;
  const { own, at: toldAt } = tellings(world.profile.desktop);
  const deaths = deathExcuses(world, o.deaths);

  for (const id of ids) {
    const t = o.tracked.get(id);
    if (!t) continue;
    const asked = log.filter((e) => e.intentId === id);
    const mine = asked.filter((e) => e.foreign === undefined);
    const checks = mine.filter((e) => isCheck(e) && (e.outcome === 'answer' || e.outcome === 'error')).map((e) => e.end!);
    const left = leftAt(id);
    // I1: an individual check at least every S(N); a window excuses a gap only up to its end.
    let prev = t.from;
    for (const at of [...checks.filter((c) => c > t.from && c <= left), left]) {
      const n = Math.max(trackingAt(prev), trackingAt(at), 1);
      const limit = stalenessBound(n, DEFAULT_TUNING) + 1_000 + (at === o.end ? 1_000 : 0);
      if (at - prev <= limit) ok('I1');
      else {
        const ws = over(id, prev, at);
        const calmFrom = Math.max(prev, ...ws.map((w) => w.to));
        if (ws.length > 0 && at - calmFrom <= limit) excused('I1', ws[0]!.why);
        else
          v.push(
            `I1 ${id} went ${at - prev} ms without a check (limit ${limit}, N=${n}, from +${prev - o.end} ms before the end${ws.length ? `; ${at - calmFrom} ms after ${ws.map((w) => w.why).join(', ')}` : ''})`,
          );
      }
      prev = at;
    }
    // I2: expired, not found and stuck only on an answer at most 30 s old that said so — and said the truth.
    const lastAnswer = (at: number, outcome: 'answer' | 'error') =>
      [...mine].reverse().find((e) => isCheck(e) && e.end !== undefined && e.end <= at && e.outcome === outcome);
    const phases = o.phaseAt.get(id);
    const expiredAt = phases?.get('expired');
    if (expiredAt !== undefined) {
      const a = lastAnswer(expiredAt, 'answer');
      const truth = a ? service.stepAt(id, a.end!).status : undefined;
      const age = expiredAt - service.intents.get(id)!.createdAt;
      if (age < COMMIT_WINDOW_MS)
        v.push(`I2 ${id} expired ${age} ms after its creation (the service's commit window is ${COMMIT_WINDOW_MS} ms)`);
      else if (a?.status === 'COMMITTED' && truth === 'COMMITTED' && expiredAt - a.end! <= 30_000) ok('I2');
      else v.push(`I2 ${id} expired on ${a?.status ?? 'no answer'} (truth ${truth}) ${a ? expiredAt - a.end! : '-'} ms old`);
    }
    const notFoundAt = phases?.get('not-found');
    if (notFoundAt !== undefined) {
      const a = lastAnswer(notFoundAt, 'error');
      if (a?.error?.includes('NotFound') && notFoundAt - a.end! <= 30_000) ok('I2');
      else v.push(`I2 ${id} marked not found on ${a?.error ?? 'no answer'}`);
    }
    const stuck = o.stuckAt.get(id);
    if (stuck !== undefined) {
      const a = lastAnswer(stuck, 'answer');
      if (a?.status === 'EXECUTING' && stuck - a.end! <= 30_000) ok('I2');
      else v.push(`I2 ${id} stuck warning on ${a?.status ?? 'no answer'}`);
    }
    // I3, N1, N2: what the desktop told of this intent.
    const times = toldAt.get(id) ?? [];
    const truthEnd = service.stepAt(id, o.end).status;
    // The service tells of an outcome once it knows the intent (notFoundFirst: NotFound until `visibleAt`).
    const truth = service.intents.get(id)!;
    const finalAt = Math.max(truth.steps.at(-1)!.at, truth.visibleAt ?? 0);
    // Stopped (not found, expired: I2 checks the verdict) before it ended, the intent was not tracked when it ended
    // (I3: "while tracked"): it is owed its telling from when the worker asked about it again (the user's Retry,
    // track again), or not at all (null).
    const stoppedAt = Math.min(phases?.get('not-found') ?? Infinity, phases?.get('expired') ?? Infinity);
    const resumedAt =
      stoppedAt < finalAt ? (mine.find((e) => e.lane === 'tracker' && e.start > stoppedAt)?.start ?? null) : Number.NEGATIVE_INFINITY;
    for (const at of times) {
      if (isFinalStatus(service.stepAt(id, at).status)) ok('I3');
      else v.push(`I3 ${id} told at ${at - o.end} ms (before the end) while ${service.stepAt(id, at).status}`);
      if (t.removedAt !== undefined && at > t.removedAt) v.push(`N2 ${id} told ${at - t.removedAt} ms after its removal`);
      else ok('N2');
    }
    // The stated windows of a death, for this intent only.
    const repeatAllowed = deaths.repeatAllowed(id);
    const lossAllowed = deaths.lossAllowed(id);
    if (times.length > 1) {
      if (times.length === 2 && repeatAllowed) excused('N1', 'Chrome: died while its notification was showing');
      else v.push(`N1 ${id} told ${times.length} times`);
    } else ok('N1');
    if (!NOTIFYING_STATUSES.includes(truthEnd)) {
      if (times.length > 0) v.push(`I3 ${id} told but ended ${truthEnd}`);
    } else if (o.removeAsked.has(id)) excused('I3', 'removed by the user');
    else if (times.length === 0 && untoldByFamilies(o.families, id, o.phaseAt)) excused('I3', untoldByFamilies(o.families, id, o.phaseAt)!);
    else if (resumedAt === null) excused('I3', 'stopped (not found, expired) before it ended, not tracked since');
    else if (times.length === 0) {
      const from = Math.max(finalAt, t.from, resumedAt);
      const limit = stalenessBound(ids.length, DEFAULT_TUNING) + 1_000;
      const ws = over(id, from, o.end);
      const calmFrom = Math.max(from, ...ws.map((w) => w.to));
      if (lossAllowed) excused('I3', 'Firefox: died while its notification was showing');
      // A window that leaves less than S(N) before the run's end: the telling may still come.
      else if (ws.length > 0 && o.end - calmFrom <= limit) excused('I3', ws[0]!.why);
      else v.push(`I3 ${id} ended ${truthEnd} at ${finalAt - o.end} ms (before the end) and was never told`);
    } else {
      const from = Math.max(finalAt, t.from, resumedAt);
      const limit = stalenessBound(ids.length, DEFAULT_TUNING) + 1_000;
      if (times[0]! - from <= limit) ok('I3');
      else {
        const ws = over(id, from, times[0]!);
        const calmFrom = Math.max(from, ...ws.map((w) => w.to));
        if (ws.length > 0 && times[0]! - calmFrom <= limit) excused('I3', ws[0]!.why);
        else v.push(`I3 ${id} told ${times[0]! - from} ms after it ended (limit ${limit})`);
      }
    }
    // I4: a removed intent gets no further request and is never listed again.
    if (t.removedAt !== undefined) {
      const late = asked.find((e) => e.start > t.removedAt!);
      if (late) v.push(`I4 ${id} asked (${late.op}) ${late.start - t.removedAt} ms after removal`);
      else if (o.finalList.some((x) => x.intentId === id)) v.push(`I4 ${id} listed after removal`);
      else ok('I4');
    }
    // I6: the first answer that showed it final is acted on at once.
    const firstFinal = mine.find(
      (e) =>
        isCheck(e) &&
        e.outcome === 'answer' &&
        isFinalStatus(e.status) &&
        e.end! >= t.from &&
        (t.removedAt === undefined || e.end! < t.removedAt),
    );
    if (firstFinal) {
      const at = firstFinal.end!;
      const written = phases?.get('final');
      if (written !== undefined && written <= at + 1_000) ok('I6');
      else {
        const ws = over(id, at - 1, at + 1_000);
        if (ws.length > 0) excused('I6', ws[0]!.why);
        else
          v.push(
            `I6 ${id} final answer at ${at - o.end} ms (before the end) acted on at ${written === undefined ? 'never' : `${written - at} ms after`}`,
          );
      }
    }
  }
  for (const [id, n] of own) if (!o.tracked.has(id)) v.push(`N2 ${id}, never tracked, told ${n} times`);

  // I5: at most 4 in flight, one more for the user's own (lib/api/budget-limits.ts USER_PLACES); Retry-After honoured;
  // idle ≤ 60 requests a minute.
  if (world.net.maxInFlight > 5) v.push(`I5 ${world.net.maxInFlight} requests in flight`);
  if (world.net.maxOthersInFlight > 4) v.push(`I5 ${world.net.maxOthersInFlight} requests in flight besides the user's`);
  else ok('I5');
  for (const w of world.net.wire) {
    if (w.holdMs === undefined) continue;
    const end = w.entry.end!;
    const honour = Math.min(w.holdMs, HOLD_HONOURED_MS);
    // A request the worker issued (called `fetch` for) before it read the 429's Retry-After was sent before it could
    // know of the hold, though it reached the service after the answer when the call took time (slowCalls, slowDisk).
    const known = Math.max(end, w.readAt ?? end);
    const early = log.find(
      (x) => x.start > end && x.start < end + honour && x !== w.entry && (world.net.issuedAt.get(x) ?? x.start) > known,
    );
    // The worker died in that very fetch, after the service answered and before the answer reached it: no hold was
    // ever given to it. Or it died at the same instant, before the hold could be written where the next worker finds
    // it. Either way the next worker knows nothing of it.
    const method = Object.entries(METHOD_OPS).find(([, op]) => op === w.entry.op)?.[0];
    const unread = o.deaths.some((d) => d.kind === 'kill' && d.at === end && d.what === `kill-after fetch ${SERVICE_RPC}${method}`);
    // Or it died after reading it and before any write of the tracker state since (time passes while it keeps a hold —
    // it reads the settings that name the service, then writes — under the slowDisk and slowCalls families).
    const stateWrites = world.idb.trackerStateWrites.map((t) => t + world.time.T0);
    const unkept = o.deaths.some(
      (d) =>
        (d.kind === 'kill' && d.at === end) ||
        (early !== undefined && d.kind !== 'end' && d.at >= end && d.at <= early.start && !stateWrites.some((t) => t >= end && t <= d.at)),
    );
    if (!early) ok('I5');
    else if (unread) excused('I5', 'the worker died before it read the 429');
    else if (unkept) excused('I5', 'the worker died as the 429 came, before it could keep the hold');
    // A restart in the hold while IndexedDB refused what keeps it (the tracker state, the settings that name the
    // service; not the notifier's calm state): its window, the span + 65 s, between the 429 and that request.
    else if (
      o.deaths.some((d) => d.at >= end && d.at <= early.start) &&
      windows.some((x) => KEEPS_HOLD.test(x.why) && x.from < early.start && x.to >= end)
    )
      excused('I5', 'a restart while IndexedDB refused to keep the hold');
    else v.push(`I5 request at +${early.start - end} ms into a ${w.holdMs} ms Retry-After (${w.fault})`);
  }
  const happenings = [
    ...[...service.intents.values()].flatMap((x) => x.steps.filter((st) => !o.flapSteps.has(st)).map((st) => st.at)),
    ...[...o.tracked.values()].flatMap((t) => [t.from, t.removedAt ?? 0]),
    ...o.deaths.flatMap((d) => [d.at, d.restartAt ?? 0]),
  ];
  const quietBefore = stalenessBound(ids.length, DEFAULT_TUNING) + DEFAULT_TUNING.busyForMs + 5_000;
  const start = Math.min(...[...o.tracked.values()].map((t) => t.from), o.end);
  for (let w = start; w + 60_000 <= o.end; w += 10_000) {
    if (happenings.some((h) => h >= w - quietBefore && h < w + 60_000)) continue;
    const n = log.filter((e) => e.start >= w && e.start < w + 60_000).length;
    if (n <= 60) ok('I5');
    else {
      // Only a death excuses it (the next worker's first checks); a refused write or a faulted answer does not.
      const ws = over(undefined, w - quietBefore, w + 60_000).filter((x) => x.why.startsWith('death'));
      if (ws.length > 0) excused('I5', ws[0]!.why);
      else v.push(`I5 ${n} requests in an idle minute from ${w - o.end} ms (before the end)`);
    }
  }
  // I5 at any time: the worker's one budget (54 a minute, a burst of 2) holds whatever happens; twice the idle rate
  // leaves room for a start's first checks and the user's look-ups.
  for (let w = o.end - Math.floor((o.end - start) / 10_000) * 10_000; w + 60_000 <= o.end; w += 10_000) {
    const n = log.filter((e) => e.start >= w && e.start < w + 60_000).length;
    if (n <= 2 * 60) ok('I5');
    else {
      v.push(`I5 ${n} requests in the minute from ${w - o.end} ms (before the end)`);
      break;
    }
  }
  const clicks = await checkClicks(world.profile.desktop);
  v.push(...clicks);
  if (clicks.length === 0) ok('N5');
  const refusals = o.windows.filter((w) => w.why.startsWith('idb') || w.why.startsWith('quota')).length;
  v.push(
    ...(await checkFamilies(
      {
        ...o,
        T0: world.config.T0,
        time: world.time,
        now: () => world.time.trueNow(),
        desktop: world.profile.desktop,
        kind: world.config.kind,
        toldAt,
        ...deaths,
        deathsOrRefusals: o.deaths.filter((d) => d.kind !== 'end').length + refusals,
        over,
      },
      o.families,
      { ok, excused },
    )),
  );
  return { violations: v, tally };
}
