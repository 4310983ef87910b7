/**
 * The campaign: random schedules of the tracker on virtual time against the fake service (every method the engine
 * uses, history included and adversarial), with user operations, settings changes, worker kills at any await, clock
 * jumps and server waits from 0 s to minutes. An oracle checks the README's invariants I1–I6 on every run.
 * `campaign.test.ts` runs it in `npm test`; `scripts/campaign.ts` runs it at length.
 */
import fc from 'fast-check';
import type { IntentStore, TrackedIntent, TrackerState, TrackerStateStore } from '@/lib/store';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import type { Clock } from '@/lib/tracker/clock';
import { Tracker } from '@/lib/tracker/engine';
import { isFinalStatus, NOTIFYING_STATUSES, stalenessBound } from '@/lib/tracker/policy';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { DEFAULT_TUNING, type Notifier } from '@/lib/tracker/types';
import { FakeService, type Fault, type HistoryMode, type Step } from './fake-service';
import { EventClock } from './fakes';

const T0 = 1_800_000_000_000;
const OWNERS = [
  '0x00000000000000000000000000000000000000a1',
  '0x00000000000000000000000000000000000000b2',
  '0x00000000000000000000000000000000000000c3',
];

const intentArb = fc.record({
  owner: fc.integer({ min: 0, max: 2 }),
  addAt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 120_000 })),
  createdBefore: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 600_000 })),
  /** NotFound for this long after creation; -1: never known. */
  notFoundFor: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 500, max: 60_000 }), fc.constant(-1)),
  /** COMMITTED for this long; -1: never executed (it must end expired). */
  committedFor: fc.oneof(fc.integer({ min: 0, max: 60_000 }), fc.integer({ min: 60_000, max: 9 * 60_000 }), fc.constant(-1)),
  executing: fc.array(fc.integer({ min: 0, max: 120_000 }), { maxLength: 3 }),
  end: fc.constantFrom('SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'EXECUTING'),
  /** The last step keeps the leg states: only the status says it ended (REFUNDED during a long-poll). */
  silentEnd: fc.boolean(),
  inHistory: fc.boolean(),
});

const historyArb: fc.Arbitrary<HistoryMode | undefined> = fc.option(
  fc.record({
    others: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 300, max: 3_000 })),
    othersSpanMs: fc.constantFrom(60_000, 3_600_000),
    ignoreOwner: fc.boolean(),
    repeatCursor: fc.boolean(),
    outOfOrder: fc.boolean(),
    staleRows: fc.boolean(),
  }),
  { freq: 5 },
);

const opArb = fc.record({
  at: fc.integer({ min: 0, max: 600_000 }),
  kind: fc.constantFrom('remove', 'refresh', 'retry', 'settings', 'retrack', 'jump', 'kill'),
  target: fc.nat(),
  amount: fc.integer({ min: 1_000, max: 300_000 }),
});

/**
 * How the service and the user's computer misbehave (issue 20): the user's clock off the service's, `done: true` while
 * EXECUTING, every k-th answer about another intent, the first intent's leg states flipping while it executes.
 */
const adversaryArb = fc.record({
  skewMs: fc.constantFrom(0, 2 * 60_000, 6 * 60_000, 10 * 60_000, -10 * 60_000),
  doneEarly: fc.boolean(),
  /** Every k-th WaitIntentReceipt/GetIntentReceipt answer of an intent carries another intent's receipt; 0: none. */
  foreignEvery: fc.constantFrom(0, 2, 3, 7),
  /** The first intent's leg states flip every `everyMs` for `forMs` once it executes; every 0: no flapping. */
  flap: fc.record({ everyMs: fc.constantFrom(0, 100, 1_000, 4_000), forMs: fc.integer({ min: 60_000, max: 480_000 }) }),
});

/** The adversary's behaviours (absent: an honest service and a right clock). */
export type Adversary = typeof adversaryArb extends fc.Arbitrary<infer T> ? T : never;

/** One random schedule. */
export const scheduleArb = fc.record({
  adversary: fc.option(adversaryArb, { nil: undefined, freq: 2 }),
  intents: fc.array(intentArb, { minLength: 1, maxLength: 8 }),
  serverWaitMs: fc.constantFrom(0, 1_000, 20_000, 90_000, 300_000),
  history: historyArb,
  historySeed: fc.nat(),
  faults: fc.array(fc.constantFrom<Fault>('ok', 'ok', 'ok', '500', 'reset', 'malformed', 'timeout', '429'), { maxLength: 30 }),
  ops: fc.array(opArb, { maxLength: 6 }),
  /** Kill the worker right after its n-th store, transport or notifier call resolves. */
  killAtCalls: fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 3 }),
});

export type Schedule = Omit<typeof scheduleArb extends fc.Arbitrary<infer T> ? T : never, 'adversary'> & { adversary?: Adversary };

/** What the last run saw (for debugging a failing seed). */
export let lastRun:
  | {
      service: FakeService;
      phaseAt: Map<string, Map<string, number>>;
      tracked: Map<string, { from: number; removedAt?: number }>;
      finalList: TrackedIntent[];
    }
  | undefined;

/** Runs one schedule and returns the oracle's violations (empty when I1–I6 held). */
export async function runSchedule(s: Schedule): Promise<string[]> {
  const clock = new EventClock();
  const service = new FakeService(clock, s.serverWaitMs, s.history ?? undefined);
  service.faults = [...s.faults];
  const ids = s.intents.map((_, i) => `0x${String(i + 1).padStart(64, '0')}`);
  const adversary = s.adversary;
  /** Steps of flapping: not news, so not "something happening" for the idle-rate check. */
  const flapSteps = new Set<Step>();
  if (adversary?.doneEarly) service.doneWhile = ['EXECUTING'];
  if (adversary && adversary.foreignEvery > 0) {
    const k = adversary.foreignEvery;
    // Another tracked intent's receipt, or a stranger's (FAILED) one.
    service.answerAbout = (_op, id, n) =>
      n % k === k - 1 ? (n % 2 ? ids[(ids.indexOf(id) + 1) % ids.length] : `0x${'f'.repeat(64)}`) : undefined;
  }
  s.intents.forEach((spec, i) => {
    const added = T0 + spec.addAt;
    const created = added - spec.createdBefore;
    const steps: Step[] = [{ at: created, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] }];
    if (spec.committedFor >= 0) {
      let t = created + spec.committedFor;
      steps.push({ at: t, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] });
      if (i === 0 && adversary && adversary.flap.everyMs > 0) {
        const { everyMs, forMs } = adversary.flap;
        for (let k = 1; k * everyMs < forMs; k++) {
          const step = { at: t + k * everyMs, status: 'EXECUTING', states: ['PENDING', k % 2 ? 'FLAP' : 'UNKNOWN', 'UNKNOWN'] };
          steps.push(step);
          flapSteps.add(step);
        }
        t += forMs;
      }
      spec.executing.forEach((d, k) => {
        t += d;
        steps.push({ at: t, status: 'EXECUTING', states: ['SUCCEEDED', `S${k}`, 'UNKNOWN'] });
      });
      if (spec.end !== 'EXECUTING') {
        t += 1_000;
        const last = steps[steps.length - 1]!.states;
        steps.push({
          at: t,
          status: spec.end,
          states: spec.silentEnd ? last : ['SUCCEEDED', 'SUCCEEDED', spec.end === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED'],
        });
      }
    }
    service.add({
      intentId: ids[i]!,
      ownerAddress: OWNERS[spec.owner]!,
      createdAt: created,
      ...(spec.notFoundFor !== 0 ? { visibleAt: spec.notFoundFor < 0 ? Number.POSITIVE_INFINITY : created + spec.notFoundFor } : {}),
      steps,
      inHistory: spec.inHistory,
    });
  });
  service.seedOthers(s.historySeed, OWNERS);

  const store = new SerialStore(clock);
  const state = new MemoryStateStore();
  const violations: string[] = [];
  const shown = new Map<string, number[]>();
  const onScreen = new Set<string>();
  const phaseAt = new Map<string, Map<string, number>>();
  const stuckAt = new Map<string, number>();
  const tracked = new Map<string, { from: number; removedAt?: number }>();
  /** Removals asked for; one whose worker died before it answered may or may not have happened. */
  const removeAsked = new Set<string>();
  const disturbances: Array<{ from: number; to: number }> = [];
  let configured = true;
  let calls = 0;
  const killCalls = new Set(s.killAtCalls);
  const events: Array<{ at: number; run: () => Promise<void> }> = [];
  const schedule = (at: number, run: () => Promise<void>) => {
    events.push({ at, run });
    events.sort((a, b) => a.at - b.at);
  };

  store.onWrite = (id, before, after) => {
    // A deletion is phase "removed": it counts even when the worker died before remove() answered.
    const next = after ? after.phase : before ? 'removed' : undefined;
    if (next !== undefined && next !== before?.phase) {
      const m = phaseAt.get(id) ?? new Map<string, number>();
      if (!m.has(next)) m.set(next, clock.now());
      phaseAt.set(id, m);
    }
  };

  /** One engine instance; `kill` makes it inert, as a stopped worker is. */
  const generation = () => {
    let dead = false;
    const hang = <T>(): Promise<T> => new Promise<T>(() => {});
    const after = <R>(p: Promise<R>): Promise<R> =>
      p.then(
        (r) => {
          if (dead) return hang<R>();
          if (killCalls.has(++calls)) {
            kill();
            return hang<R>();
          }
          return r;
        },
        (err: unknown) => (dead ? hang<R>() : Promise.reject(err)),
      );
    const guard =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
      (...a: A): Promise<R> =>
        dead ? hang<R>() : after(f(...a));
    const transport = service.transport();
    const guarded = {
      waitIntentReceipt: guard(transport.waitIntentReceipt.bind(transport)),
      getIntentReceipt: guard(transport.getIntentReceipt.bind(transport)),
      ...(transport.getIntentHistoryLite ? { getIntentHistoryLite: guard(transport.getIntentHistoryLite.bind(transport)) } : {}),
    };
    const notifier: Notifier = {
      show: guard(async (intent: TrackedIntent) => {
        const truth = service.stepAt(intent.intentId, clock.now()).status;
        if (!isFinalStatus(truth)) violations.push(`I3 ${intent.intentId} notified while ${truth}`);
        if (tracked.get(intent.intentId)?.removedAt !== undefined) violations.push(`I4 ${intent.intentId} notified after removal`);
        const times = shown.get(intent.intentId) ?? [];
        times.push(clock.now());
        shown.set(intent.intentId, times);
        onScreen.add(intent.intentId);
        return { title: 't', message: 'm' };
      }),
      exists: guard(async (id: string) => onScreen.has(id)),
      showStuck: guard(async (intent: TrackedIntent) => {
        stuckAt.set(intent.intentId, clock.now());
      }),
    };
    const intentStore: IntentStore = {
      get: guard((id: string) => store.get(id)),
      list: guard(() => store.list()),
      put: guard((t: TrackedIntent) => store.put(t)),
      update: guard((id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) => store.update(id, fn)),
      remove: guard((id: string) => store.remove(id)),
    };
    const stateStore: TrackerStateStore = { get: guard(() => state.get()), set: guard((st: TrackerState) => state.set(st)) };
    // The user's clock, off the service's by the adversary's skew; the worker's service clock is fed by Date headers.
    const skew = adversary?.skewMs ?? 0;
    const userClock: Clock = { now: () => clock.now() + skew, sleep: (ms, signal) => clock.sleep(ms, signal) };
    const serviceClock = new ServiceClock(() => userClock.now());
    service.onServerTime = (ms) => {
      if (!dead) serviceClock.observeDate(ms);
    };
    const tracker = new Tracker({
      store: intentStore,
      stateStore,
      serviceClock,
      clock: userClock,
      notifier,
      transport: async () => (configured ? guarded : undefined),
      random: () => 0.5,
    });
    const kill = () => {
      if (dead) return;
      dead = true;
      tracker.stop();
      const restartAt = clock.now() + 2_000;
      disturbances.push({ from: clock.now(), to: restartAt });
      schedule(restartAt, async () => {
        current = generation();
        void current.tracker.resume();
        for (const id of unanswered) track(id);
      });
    };
    return { tracker, kill, isDead: () => dead };
  };

  let current = generation();
  // A track whose worker died before it answered is tried again on the next worker, as the user would.
  const unanswered = new Set<string>();
  const track = (id: string) => {
    const from = clock.now();
    unanswered.add(id);
    void current.tracker.track(id).then(() => {
      unanswered.delete(id);
      if (!tracked.has(id)) tracked.set(id, { from });
    });
  };
  s.intents.forEach((spec, i) => {
    schedule(T0 + spec.addAt, async () => track(ids[i]!));
  });
  for (const op of s.ops) {
    const id = ids[op.target % ids.length]!;
    schedule(T0 + op.at, async () => {
      const t = current.tracker;
      if (op.kind === 'remove' && tracked.has(id) && tracked.get(id)!.removedAt === undefined) {
        // Not awaited: the store's work needs the clock this loop drives.
        const gen = current;
        removeAsked.add(id);
        void t.remove(id).then(() => {
          if (!gen.isDead()) tracked.get(id)!.removedAt = clock.now();
        });
      } else if (op.kind === 'refresh') void t.refresh(id);
      else if (op.kind === 'retry') void t.retryNow(op.target % 2 ? id : undefined);
      else if (op.kind === 'retrack' && tracked.has(id) && !removeAsked.has(id)) void t.track(id);
      else if (op.kind === 'settings') {
        configured = false;
        disturbances.push({ from: clock.now(), to: clock.now() + op.amount + 1_000 });
        schedule(clock.now() + op.amount, async () => {
          configured = true;
          void current.tracker.retryNow();
        });
      } else if (op.kind === 'jump') {
        disturbances.push({ from: clock.now(), to: clock.now() + op.amount + 1 });
        clock.t += op.amount;
      } else if (op.kind === 'kill') current.kill();
    });
  }
  const lastStep = Math.max(...[...service.intents.values()].flatMap((x) => x.steps.map((st) => st.at)));
  const lastOp = Math.max(T0, ...s.ops.map((o) => T0 + o.at + o.amount));
  const end = Math.max(lastStep, lastOp, T0 + 120_000) + 13 * 60_000;
  await clock.runUntil(end, events);
  const finalList = await current.tracker.list().catch(() => [] as TrackedIntent[]);
  current.kill();
  events.length = 0;

  lastRun = { service, phaseAt, tracked, finalList };
  check(s, { service, ids, shown, phaseAt, stuckAt, tracked, removeAsked, disturbances, end, finalList, store, violations, flapSteps });
  return violations;
}

interface Observed {
  service: FakeService;
  ids: string[];
  shown: Map<string, number[]>;
  phaseAt: Map<string, Map<string, number>>;
  stuckAt: Map<string, number>;
  tracked: Map<string, { from: number; removedAt?: number }>;
  removeAsked: Set<string>;
  disturbances: Array<{ from: number; to: number }>;
  end: number;
  finalList: TrackedIntent[];
  store: SerialStore;
  violations: string[];
  flapSteps: Set<Step>;
}

/** The oracle: checks I1–I6 on what was observed. */
function check(s: Schedule, o: Observed): void {
  const { service, ids, violations } = o;
  const log = service.log;
  // Faults hit the first calls; the back-off they cause may last up to its cap after the last one.
  const faulted = log.filter((_e, i) => i < s.faults.length && s.faults[i] !== 'ok');
  const lastFaultEnd = Math.max(0, ...faulted.map((e) => e.end ?? o.end));
  const faultsUntil = faulted.length > 0 ? lastFaultEnd + DEFAULT_TUNING.backoffCapMs + 5_000 : 0;
  // An answer about another intent is a fault of the service too: it wastes the slot it took, for every intent, for
  // the retry and the next individual check. From its end, I1 holds again.
  for (const e of log) if (e.foreign !== undefined && e.end !== undefined) o.disturbances.push({ from: e.start, to: e.end + 10_000 });
  const disturbed = (from: number, to: number) => from < faultsUntil || o.disturbances.some((d) => d.from < to && d.to > from);
  /** When the last disturbance overlapping [from, to) ended (ms), or undefined when none did. */
  const disturbedUntil = (from: number, to: number): number | undefined => {
    if (!disturbed(from, to)) return undefined;
    const ends = o.disturbances.filter((d) => d.from < to && d.to > from).map((d) => d.to);
    return Math.max(from < faultsUntil ? faultsUntil : from, ...ends);
  };
  const phase = (id: string, at: number): string | undefined => {
    let current: string | undefined;
    let when = -1;
    for (const [p, t] of o.phaseAt.get(id) ?? []) if (t <= at && t >= when) [current, when] = [p, t];
    return current;
  };
  const leftAt = (id: string): number => {
    const m = o.phaseAt.get(id);
    const times = [m?.get('final'), m?.get('expired'), m?.get('not-found'), m?.get('removed'), o.tracked.get(id)?.removedAt].filter(
      (x): x is number => x !== undefined,
    );
    return times.length > 0 ? Math.min(...times) : o.end;
  };
  const trackingAt = (at: number) =>
    ids.filter((id) => (o.tracked.get(id)?.from ?? Number.POSITIVE_INFINITY) <= at && leftAt(id) > at).length;

  // I5: never more than 4 requests in flight; Retry-After honoured.
  if (service.maxInFlight > 4) violations.push(`I5 ${service.maxInFlight} requests in flight`);
  for (const e of log) {
    if (e.retryAfterMs === undefined || e.end === undefined) continue;
    const early = log.find((x) => x.start > e.end! && x.start < e.end! + e.retryAfterMs!);
    if (early) violations.push(`I5 request at +${early.start - e.end} ms into a ${e.retryAfterMs} ms Retry-After`);
  }
  // I5: idle (nothing changes, nothing happens) ≤ 60 requests a minute.
  // Flapping (a state coming back within a minute) is not news: the idle rate holds through it.
  const happenings = [
    ...[...service.intents.values()].flatMap((x) => [...x.steps.filter((st) => !o.flapSteps.has(st)).map((st) => st.at), x.visibleAt ?? 0]),
    ...[...o.tracked.values()].flatMap((t) => [t.from, t.removedAt ?? 0]),
    ...s.ops.map((op) => T0 + op.at),
  ];
  const firstIdle = Math.max(faultsUntil, ...[...o.tracked.values()].map((t) => t.from));
  // A change is learnt up to S(N) after it happens, and keeps the tracker busy for a while after that.
  const quietBefore = stalenessBound(ids.length, DEFAULT_TUNING) + DEFAULT_TUNING.busyForMs + 5_000;
  for (let w = firstIdle; w + 60_000 <= o.end; w += 10_000) {
    if (disturbed(w - quietBefore, w + 60_000) || happenings.some((h) => h >= w - quietBefore && h < w + 60_000)) continue;
    const n = log.filter((e) => e.start >= w && e.start < w + 60_000).length;
    if (n > 60) violations.push(`I5 ${n} requests in an idle minute from +${w - T0} ms`);
  }

  for (const id of ids) {
    const t = o.tracked.get(id);
    if (!t) continue;
    // An answer about another intent (the adversary's) is no check of this one; it still counts as a request (I4).
    const asked = log.filter((e) => e.intentId === id);
    const mine = asked.filter((e) => e.foreign === undefined);
    // An answer about another intent told nothing about this one: it is no check.
    const checks = mine.filter((e) => e.op !== 'history' && (e.outcome === 'answer' || e.outcome === 'error')).map((e) => e.end!);
    const left = leftAt(id);
    // I1: an individual check at least every S(N), whatever the history returns.
    let prev = t.from;
    for (const at of [...checks.filter((c) => c > t.from && c <= left), left]) {
      const n = Math.max(trackingAt(prev), trackingAt(at));
      const limit = stalenessBound(n, DEFAULT_TUNING) + 1_000;
      if (at - prev > limit && !disturbed(prev, at) && at !== o.end)
        violations.push(`I1 ${id} went ${at - prev} ms without a check (limit ${limit}, N=${n})`);
      if (at === left && left === o.end && at - prev > limit + 1_000 && !disturbed(prev, at)) {
        violations.push(`I1 ${id} went ${at - prev} ms without a check before the end (limit ${limit})`);
      }
      // A disturbance excuses the gap only up to its end: from there S(N) holds again.
      const calmFrom = disturbedUntil(prev, at);
      if (calmFrom !== undefined && at - calmFrom > limit + (at === o.end ? 1_000 : 0))
        violations.push(`I1 ${id} went ${at - calmFrom} ms without a check after a disturbance ended (limit ${limit})`);
      prev = at;
    }
    // I2: expiry, not found and stuck only on an answer at most 30 s old that said so.
    const lastAnswer = (at: number, outcome: 'answer' | 'error') =>
      [...mine].reverse().find((e) => e.op !== 'history' && e.end !== undefined && e.end <= at && e.outcome === outcome);
    const expiredAt = o.phaseAt.get(id)?.get('expired');
    if (expiredAt !== undefined) {
      const a = lastAnswer(expiredAt, 'answer');
      if ((a?.status !== 'COMMITTED' || expiredAt - a.end! > 30_000) && !(a && disturbed(a.end!, expiredAt)))
        violations.push(`I2 ${id} expired on ${a?.status ?? 'no answer'} ${a ? expiredAt - a.end! : '-'} ms old`);
    }
    const notFoundAt = o.phaseAt.get(id)?.get('not-found');
    if (notFoundAt !== undefined) {
      const a = lastAnswer(notFoundAt, 'error');
      if ((!a?.error?.includes('NotFound') || notFoundAt - a.end! > 30_000) && !(a && disturbed(a.end!, notFoundAt)))
        violations.push(`I2 ${id} marked not found on ${a?.error ?? a?.status}`);
    }
    const stuck = o.stuckAt.get(id);
    if (stuck !== undefined) {
      const a = lastAnswer(stuck, 'answer');
      if ((a?.status !== 'EXECUTING' || stuck - a.end! > 30_000) && !(a && disturbed(a.end!, stuck)))
        violations.push(`I2 ${id} stuck warning on ${a?.status}`);
    }
    // I3: exactly one notification per intent that reached a notifying status while tracked.
    const times = o.shown.get(id) ?? [];
    const visible = service.intents.get(id)!.visibleAt !== Number.POSITIVE_INFINITY;
    const truthEnd = visible ? service.stepAt(id, o.end).status : 'NotFound';
    const finalAt = service.intents.get(id)!.steps.at(-1)!.at;
    if (times.length > 1) violations.push(`I3 ${id} notified ${times.length} times`);
    if (!o.removeAsked.has(id) && NOTIFYING_STATUSES.includes(truthEnd)) {
      if (times.length !== 1) violations.push(`I3 ${id} ended ${truthEnd} and was notified ${times.length} times`);
      else {
        const visibleAt = service.intents.get(id)!.visibleAt ?? 0;
        const from = Math.max(finalAt, t.from, visibleAt);
        const limit = stalenessBound(ids.length, DEFAULT_TUNING) + 1_000;
        if (times[0]! - from > limit && !disturbed(from - limit, times[0]!))
          violations.push(`I3 ${id} notified ${times[0]! - from} ms after it ended (limit ${limit})`);
      }
    }
    if (!NOTIFYING_STATUSES.includes(truthEnd) && times.length > 0) violations.push(`I3 ${id} notified but ended ${truthEnd}`);
    // I4: a removed intent gets no further request and is never listed again.
    if (t.removedAt !== undefined) {
      const late = asked.find((e) => e.start > t.removedAt!);
      if (late) violations.push(`I4 ${id} asked (${late.op}) ${late.start - t.removedAt} ms after removal`);
      if (o.finalList.some((x) => x.intentId === id) || o.store.map.has(id)) violations.push(`I4 ${id} listed after removal`);
    }
    // I6: the first answer that showed the intent final is acted on at once.
    const finalWritten = o.phaseAt.get(id)?.get('final');
    const finalAnswers = [
      ...mine.filter((e) => e.outcome === 'answer' && isFinalStatus(e.status)).map((e) => e.end!),
      ...log
        .filter(
          (e) => e.op === 'history' && e.outcome === 'answer' && e.finalRows?.some((r) => r.intentId === id && isFinalStatus(r.status)),
        )
        .map((e) => e.end!),
    ].filter((at) => at >= t.from && phase(id, at) === 'tracking' && (t.removedAt === undefined || at < t.removedAt));
    const first = Math.min(...finalAnswers);
    if (Number.isFinite(first) && !disturbed(first - 1, first + 1_000)) {
      if (finalWritten === undefined || finalWritten > first + 1_000)
        violations.push(
          `I6 ${id} final answer at +${first - T0} acted on at ${finalWritten === undefined ? 'never' : `+${finalWritten - T0}`}`,
        );
      else if (
        NOTIFYING_STATUSES.includes(service.stepAt(id, first).status) &&
        t.removedAt === undefined &&
        !(times[0]! <= first + 1_000)
      ) {
        violations.push(`I6 ${id} final answer at +${first - T0} notified at ${times[0] === undefined ? 'never' : `+${times[0] - T0}`}`);
      }
    }
  }
}

/**
 * An in-memory store whose operations complete in call order after a short virtual delay, as IndexedDB
 * transactions on one object store do: writes of one engine can be in flight while others start.
 */
export class SerialStore extends MemoryStore {
  onWrite?: (id: string, before: TrackedIntent | undefined, after: TrackedIntent | undefined) => void;
  #tail: Promise<unknown> = Promise.resolve();
  constructor(readonly clock: Clock) {
    super();
  }
  #queue<T>(f: () => T): Promise<T> {
    const run = this.#tail.then(() => this.clock.sleep(1)).then(f);
    this.#tail = run.catch(() => {});
    return run;
  }
  override get(id: string) {
    return this.#queue(() => this.map.get(id));
  }
  override list() {
    return this.#queue(() => [...this.map.values()].sort((a, b) => b.addedAt - a.addedAt));
  }
  override put(t: TrackedIntent) {
    return this.#queue(() => {
      this.map.set(t.intentId, t);
    });
  }
  override update(id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) {
    return this.#queue(() => {
      const before = this.map.get(id);
      const next = fn(before);
      if (next) {
        this.map.set(id, next);
        this.onWrite?.(id, before, next);
      }
      return next ?? this.map.get(id);
    });
  }
  override remove(id: string) {
    return this.#queue(() => {
      const before = this.map.get(id);
      this.map.delete(id);
      if (before) this.onWrite?.(id, before, undefined);
    });
  }
}
