/**
 * One run of the world campaign: builds the fake service's intents and the world from a {@link Schedule}, starts the
 * worker by the production wiring, plays the user's actions and the faults on virtual time, and returns what was
 * observed — what the service received, what the desktop showed, what the worker wrote — for the oracle.
 */
import { DEFAULT_NOTIFY, type TrackedIntent } from '@/lib/store';
import { FakeService, type Step } from '../tracker/fake-service';
import { type FamilyObs, playFamilies, shapeIntents, trackedByFamilies } from './families';
import { historyMode } from './history';
import { ACCESS_KEY, type NetFaults, OTHER_ORIGIN, SERVICE_ORIGIN } from './network';
import type { Schedule } from './schedule';
import { type Death, World } from './world';

/** The world's start on the true clock (ms since the epoch). */
export const T0 = 1_800_000_000_000;
const MIN = 60_000;
const OWNER = '0x00000000000000000000000000000000000000a1';

/** A window the oracle may excuse, with why and whom (undefined: every intent). */
export interface Excuse {
  from: number;
  to: number;
  why: string;
  intentId?: string;
}

/** What one run observed (times are the true time, ms since the epoch: the service's clock). */
export interface Observed {
  world: World;
  service: FakeService;
  ids: string[];
  /**
   * When each intent was tracked — `from`: the track message that was answered was sent; `answeredAt`: its answer came
   * (later when the worker died or its storage refused meanwhile) — and removed (the remove message answered).
   */
  tracked: Map<string, { from: number; answeredAt?: number; removedAt?: number }>;
  removeAsked: Set<string>;
  /** Per intent: when each phase was first written. */
  phaseAt: Map<string, Map<string, number>>;
  stuckAt: Map<string, number>;
  deaths: Death[];
  /** Windows the schedule's faults open (the oracle decides which invariant each may excuse). */
  windows: Excuse[];
  end: number;
  finalList: TrackedIntent[];
  /** What the families of test/world/families.ts played and saw. */
  families?: FamilyObs;
}

/** The service's intents of a schedule. */
function buildService(s: Schedule, ids: string[], service: FakeService): Set<Step> {
  const flapSteps = new Set<Step>();
  s.intents.forEach((spec, i) => {
    const created = T0 + spec.addAt - spec.createdBefore;
    const steps: Step[] = [{ at: created, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] }];
    if (spec.committedFor >= 0) {
      let t = created + spec.committedFor;
      steps.push({ at: t, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] });
      if (s.flap40) {
        for (let k = 1; k * spec.flapEveryMs < spec.flapForMs; k++) {
          const step = { at: t + k * spec.flapEveryMs, status: 'EXECUTING', states: ['PENDING', `F${k % spec.flapStates}`, 'UNKNOWN'] };
          steps.push(step);
          flapSteps.add(step);
        }
        t += spec.flapForMs;
      }
      spec.executing.forEach((d, k) => {
        t += d;
        steps.push({ at: t, status: 'EXECUTING', states: ['SUCCEEDED', `S${k}`, 'UNKNOWN'] });
      });
      if (spec.end !== 'EXECUTING') {
        t += 1_000;
        steps.push({ at: t, status: spec.end, states: ['SUCCEEDED', 'SUCCEEDED', spec.end === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED'] });
      }
    }
    service.add({ intentId: ids[i]!, ownerAddress: OWNER, createdAt: created, steps, inHistory: spec.inHistory });
  });
  return flapSteps;
}

/** Runs schedule `s` (seeded `seed`) and returns what was observed. */
export async function runWorld(drawn: Schedule, seed: number): Promise<Observed & { flapSteps: Set<Step> }> {
  const s = shapeIntents(drawn);
  const ids = s.intents.map((_, i) => `0x${String(i + 1).padStart(64, '0')}`);
  // The fake service runs on the world's true time (ms since the epoch); its clock is bound once the world exists.
  const clock = { now: () => 0, monotonic: () => 0, sleep: (_ms: number, _signal?: AbortSignal) => Promise.resolve() };
  const service = new FakeService(clock, s.serverWaitMs, historyMode(s.history, s.extra?.history));
  const net: NetFaults = {
    ...(s.burst.length > 0 ? { burst: s.burst } : {}),
    ...(s.retryAfter ? { retryAfter: s.retryAfter } : {}),
    ...(s.lyingDate ? { lyingDate: s.lyingDate } : {}),
    ...(s.updatedAhead ? { updatedAhead: s.updatedAhead } : {}),
    ...(s.backwards ? { backwards: s.backwards } : {}),
    ...(s.bigInt ? { bigInt: s.bigInt } : {}),
    ...(s.foreign ? { foreign: s.foreign } : {}),
  };
  const world = new World({
    seed,
    kind: s.kind,
    T0,
    service,
    net,
    killAt: new Map(s.kill.map((k) => [k.n, k.after ? 'kill-after' : 'kill'])),
    rejectNotificationAt: new Set(s.rejectNotificationAt),
    settings: { baseUrl: SERVICE_ORIGIN, accessKey: ACCESS_KEY, notify: { ...DEFAULT_NOTIFY } },
    slowCalls: (s.slowCalls ?? []).map((x) => ({ from: x.from, to: x.from + x.forMs, ms: x.ms })),
  });
  const time = world.time;
  Object.assign(clock, {
    now: () => time.trueNow(),
    monotonic: () => time.t,
    sleep: (ms: number, signal?: AbortSignal) => time.clockFor({ n: -1, bornAt: 0, dead: false }).sleep(ms, signal),
  });
  const flapSteps = buildService(s, ids, service);
  service.seedOthers(seed, [OWNER]);
  if (s.skewMs) time.jump(s.skewMs);

  const now = () => time.trueNow();
  const tracked = new Map<string, { from: number; answeredAt?: number; removedAt?: number }>();
  const removeAsked = new Set<string>();
  const phaseAt = new Map<string, Map<string, number>>();
  const stuckAt = new Map<string, number>();
  const windows: Excuse[] = [];
  world.idb.onIntentWrite = (id, value) => {
    const v = value as Partial<TrackedIntent> | undefined;
    const phase = v === undefined ? 'removed' : v.phase;
    if (phase) {
      const m = phaseAt.get(id) ?? new Map<string, number>();
      if (!m.has(phase)) m.set(phase, now());
      phaseAt.set(id, m);
    }
    if (v?.stuckNotifiedAt !== undefined && !stuckAt.has(id)) stuckAt.set(id, now());
  };
  await world.configure();
  world.start('install');

  const at = (t: number, fn: () => void) => time.at(t, fn);
  // The user tracks each intent (again on the next worker when one died before it answered).
  const track = (id: string) => {
    const from = now();
    let answered = false;
    void world.send({ type: 'track', intentId: id }).then((reply) => {
      answered = true;
      const r = reply as { ok?: boolean } | undefined;
      if (r?.ok && !tracked.has(id)) tracked.set(id, { from, answeredAt: now() });
      else if (!r?.ok && !removeAsked.has(id)) at(time.t + 5_000, () => track(id));
    });
    // The popup gives up on a worker that died before it answered; the user tries again.
    at(time.t + 10_000, () => {
      if (!answered && !tracked.has(id)) track(id);
    });
  };
  const byFamilies = trackedByFamilies(s.extra, ids.length);
  s.intents.forEach((spec, i) => {
    if (!byFamilies.has(i)) at(spec.addAt, () => track(ids[i]!));
  });
  const families = playFamilies({ T0, world, time, service, ids, tracked, removeAsked, at, now }, s.extra, seed);
  for (const op of s.user) {
    const id = ids[op.target % ids.length]!;
    at(op.at, () => {
      if (op.kind === 'remove' && tracked.has(id) && !removeAsked.has(id)) {
        removeAsked.add(id);
        void world.send({ type: 'remove', intentId: id }).then((reply) => {
          if ((reply as { ok?: boolean } | undefined)?.ok) tracked.get(id)!.removedAt = now();
        });
      } else if (op.kind === 'refresh') void world.send({ type: 'refresh', intentId: id });
      else if (op.kind === 'retry') void world.send({ type: 'retry' });
    });
  }
  for (const t of s.idle) at(t, () => world.idleStop());
  for (const r of s.restart) at(r.at, () => world.browserRestart(r.closedMs));
  for (const j of s.jumps) at(j.at, () => time.jump(j.ms));
  if (s.drift) {
    const { rate, correctAfter } = s.drift;
    at(s.drift.at, () => time.setDrift(rate));
    at(s.drift.at + correctAfter, () => time.correct());
  }
  for (const r of s.idb) {
    const key = r.db === 'svc-settings' ? r.key : undefined;
    world.idb.refusals.push({ db: r.db, mode: r.mode, from: r.from, to: r.from + r.forMs, error: 'UnknownError', ...(key ? { key } : {}) });
    windows.push({ from: T0 + r.from, to: T0 + r.from + r.forMs, why: `idb ${r.mode} ${r.db}${key ? `/${key}` : ''}` });
  }
  for (const d of s.slowDisk ?? []) world.idb.slow.push({ from: d.from, to: d.from + d.forMs, ms: d.ms });
  for (const r of s.quota) {
    world.idb.refusals.push({ db: r.db, mode: 'write', from: r.from, to: r.from + r.forMs, error: 'QuotaExceededError' });
    windows.push({ from: T0 + r.from, to: T0 + r.from + r.forMs, why: `quota ${r.db}` });
  }
  for (const y of s.sync) {
    at(y.at, () => {
      const rev = time.wall() + (y.what === 'slow-clock' ? -10 * MIN : y.what === 'fast-clock' ? 10 * MIN : 0);
      const items: Record<string, unknown> =
        y.what === 'malformed'
          ? { 'settings.autoTrackAddresses': { parts: 2 ** 32 }, 'settings.notify': 'loud', 'settings.$revision': rev }
          : y.what === 'huge'
            ? {
                'settings.watchedAddresses': Array.from({ length: 2_000 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`),
                'settings.$revision': rev,
              }
            : { 'settings.notify': { ...DEFAULT_NOTIFY }, 'settings.$revision': rev };
      world.profile.syncFromAnotherDevice(items, (changes) => world.current?.lb.events.storageChanged.fire(changes, 'sync'));
    });
  }
  // The user tries another service with Test connection, without saving it.
  for (const c of s.testConnection)
    at(c.at, () => {
      world.net.otherService = {
        clockAheadMs: c.clockAheadMs,
        ...(c.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: c.retryAfterSeconds }),
      };
      void world.send({ type: 'test-connection', baseUrl: OTHER_ORIGIN, accessKey: 'another-key' });
    });
  for (const c of s.closes)
    at(c.at, () => {
      const d = world.profile.desktop;
      if (c.all) d.dismissAll();
      else {
        const shown = [...d.screen.keys()];
        if (shown.length > 0) d.dismiss(shown[c.target % shown.length]!);
      }
    });

  const lastStep = Math.max(...[...service.intents.values()].flatMap((x) => x.steps.map((st) => st.at))) - T0;
  const end = Math.max(lastStep, 5 * MIN, ...s.restart.map((r) => r.at + r.closedMs)) + 13 * MIN;
  world.pumpAlarms(1_000, end);
  await time.runUntil(end);
  if (world.current) world.kill(world.current.life, 'end');
  await time.settle();
  const finalList = await world.records();
  const deaths = world.deaths.map((d) => ({ ...d, at: T0 + d.at, ...(d.restartAt === undefined ? {} : { restartAt: T0 + d.restartAt }) }));
  return { world, service, ids, tracked, removeAsked, phaseAt, stuckAt, deaths, windows, end: T0 + end, finalList, flapSteps, families };
}
