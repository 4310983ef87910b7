/**
 * The desktop campaign: random schedules of the notification path — the tracker's delivery (the real `Delivery`
 * over the intent store), the pipeline (decision, outbox, adapter), the calm state and the release alarm — on virtual
 * time, against a fake desktop with Chrome's or Firefox's semantics (`./fake-desktop`). Intents move through legs
 * (progress notifications on or off) and end in each outcome; the user dismisses notifications, mutes and unmutes,
 * snoozes and ends snoozes; quiet hours cross midnight or a DST change (Europe/Madrid); notification calls are
 * rejected, IndexedDB writes fail, and the worker dies at the n-th await of the notification path (inside the call,
 * or just after it took effect), to be restarted by the next event or watchdog wake-up. The oracle checks N1–N5 of
 * the README on what the fake desktop showed.
 *
 * What it does not drive: the tracker's engine against the fake service (its campaign, `test/tracker/campaign.ts`,
 * proves I1–I6 with a recording notifier); here the tracker's part is the records it writes and the delivery it
 * starts, when an intent ends and on every start.
 */
import fc from 'fast-check';
import { AWAY, createNotificationAdapter } from '@/lib/notify/browser';
import { createNotificationPipeline, type NotificationPipeline } from '@/lib/notify/pipeline';
import { type CalmState, type CalmStateStore, DEFAULT_NOTIFY, EMPTY_CALM, type NotifySettings, type TrackedIntent } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import { type NotificationJob, type Outbox, pruneJobs } from '@/lib/store/outbox';
import { Delivery } from '@/lib/tracker/delivery';
import { IntentMirror } from '@/lib/tracker/mirror';
import { CALM_ALARM, createCalmAlarm } from '@/lib/worker/calm-alarm';
import { id, receiptOf } from './desktop-harness';
import { checkClicks, chromeRepeatAllowed, chromeRepeats, firefoxLossPossible, tellings } from './desktop-oracle';
import { FakeDesktop, type Fault, type WorkerBrowser } from './fake-desktop';

const MIN = 60_000;
const OUTCOMES = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'] as const;
const SETTING_OF: Record<string, 'succeeded' | 'failed' | 'refunded'> = {
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  REFUNDED: 'refunded',
  ABORTED: 'refunded',
};

/** Local start of each scenario (Europe/Madrid): before midnight; before the spring DST jump; before the autumn one. */
const STARTS = {
  midnight: () => new Date(2026, 10, 22, 23, 40).getTime(),
  'dst-spring': () => new Date(2026, 2, 29, 1, 40).getTime(),
  'dst-autumn': () => new Date(2026, 9, 25, 1, 40).getTime(),
  day: () => new Date(2026, 10, 23, 12, 0).getTime(),
};

const intentArb = fc.record({
  /** When it ends (ms after the start). */
  finishAt: fc.integer({ min: 0, max: 15 * MIN }),
  end: fc.constantFrom(...OUTCOMES, 'EXECUTING'),
  /** Legs completed before the end, each a progress notification when they are on. */
  steps: fc.integer({ min: 0, max: 3 }),
  /** Muted from the start, or at a time after it ended (then it may be told or not, never twice). */
  muted: fc.constantFrom('no', 'no', 'no', 'before', 'after'),
});

const opArb = fc.record({
  at: fc.integer({ min: 0, max: 18 * MIN }),
  kind: fc.constantFrom('snooze', 'endSnooze', 'dismiss', 'dismissAll'),
  amount: fc.integer({ min: 1, max: 12 }),
  target: fc.nat(),
});

/** Calls of the notification path a fault can aim at (`any`: the n-th of all of them). */
const AIMS = [
  'any',
  'any',
  'any',
  'create',
  'update',
  'clear',
  'getAll',
  'alarms.clear',
  'alarms.create',
  'outbox.update',
  'intents.update',
  'calm.set',
] as const;
const faultArb = fc.record({
  /** The n-th await of the notification path (browser calls, outbox, calm state, the record's write), or of one kind. */
  call: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 250 })),
  on: fc.constantFrom(...AIMS),
  kind: fc.constantFrom<'reject' | 'kill' | 'kill-after' | 'idb'>('reject', 'reject', 'kill', 'kill-after', 'idb'),
});

/** One random schedule. */
export const desktopScheduleArb = fc.record({
  browser: fc.constantFrom<'chrome' | 'firefox'>('chrome', 'firefox'),
  scenario: fc.constantFrom<keyof typeof STARTS>('midnight', 'dst-spring', 'dst-autumn', 'day'),
  /** Quiet hours: start and length in minutes from the start's local time (none when undefined). */
  quiet: fc.option(fc.record({ from: fc.integer({ min: 0, max: 20 }), length: fc.integer({ min: 1, max: 90 }) }), { freq: 2 }),
  progress: fc.boolean(),
  off: fc.option(fc.constantFrom('succeeded', 'failed', 'refunded'), { freq: 4 }),
  intents: fc.array(intentArb, { minLength: 1, maxLength: 6 }),
  ops: fc.array(opArb, { maxLength: 5 }),
  faults: fc.array(faultArb, { maxLength: 4 }),
});

export type DesktopSchedule = typeof desktopScheduleArb extends fc.Arbitrary<infer T> ? T : never;

const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

/** Virtual time with its own timers (the pipeline's group and retry timers); microtasks run between steps. */
class Clock {
  timers: Array<{ at: number; fn: () => void }> = [];
  constructor(public t: number) {}
  now = () => this.t;
  timer = (fn: () => void, ms: number) => void this.timers.push({ at: this.t + Math.max(0, ms), fn });
  nextAt() {
    return this.timers.reduce((m, x) => Math.min(m, x.at), Number.POSITIVE_INFINITY);
  }
  fireDue() {
    const due = this.timers.filter((x) => x.at <= this.t);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const x of due) x.fn();
  }
}
const flush = async () => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

/** Runs one schedule; returns what broke (empty when N1–N5 hold). */
export async function runDesktopSchedule(s: DesktopSchedule): Promise<string[]> {
  const t0 = STARTS[s.scenario]();
  const clock = new Clock(t0);
  const desktop = new FakeDesktop(s.browser, clock.now);
  const settings: NotifySettings = {
    ...DEFAULT_NOTIFY,
    progress: s.progress,
    ...(s.off ? { [s.off]: false } : {}),
    ...(s.quiet ? { quietHours: { start: hhmm(t0 + s.quiet.from * MIN), end: hhmm(t0 + (s.quiet.from + s.quiet.length) * MIN) } } : {}),
  };

  // What outlives a worker: the intent store, the outbox, the calm state, the desktop and its alarms.
  const records = new MemoryStore();
  let jobs: Record<string, NotificationJob> = {};
  // Intents muted before the run (the user did it earlier; a mute that fails is the popup's error to show).
  let calmState: CalmState = {
    ...structuredClone(EMPTY_CALM),
    muted: s.intents.flatMap((it, n) => (it.muted === 'before' ? [id(n + 1)] : [])),
  };

  // The n-th await of the notification path gets the fault planned for it.
  const counts = new Map<string, number>();
  const plan = new Map(s.faults.map((f) => [`${f.on}:${f.call}`, f.kind]));
  const faultsUntil = { on: true };
  const nextFault = (method: string, store: boolean): Fault | 'idb' | undefined => {
    if (!faultsUntil.on) return undefined;
    const n = (counts.get(method) ?? 0) + 1;
    counts.set(method, n);
    const all = (counts.get('any') ?? 0) + 1;
    counts.set('any', all);
    const f = plan.get(`${method}:${n}`) ?? plan.get(`any:${all}`);
    if (f === 'idb') return store ? 'idb' : 'reject';
    return f;
  };

  type Life = { browser: WorkerBrowser; pipeline: NotificationPipeline; mirror: IntentMirror; delivery: Delivery; dead: () => boolean };
  const hang = <T>() => new Promise<T>(() => {});
  const startLife = (): Life => {
    const browser = desktop.worker();
    browser.hook = (method) => {
      const f = nextFault(method, false);
      return f === 'idb' ? 'reject' : f;
    };
    const dead = () => browser.dead;
    const kill = () => {
      browser.dead = true;
    };
    /** A store call under the plan: fails (IndexedDB refuses), or the worker dies in it (before or after it took effect). */
    const storeCall = async <T>(what: string, run: () => T): Promise<T> => {
      if (dead()) return hang();
      const f = nextFault(what, true);
      if (f === 'idb' || f === 'reject') throw new DOMException(`${what} refused`, 'QuotaExceededError');
      if (f === 'kill') {
        kill();
        desktop.kills.push({ method: what, detail: '', after: false });
        return hang();
      }
      const result = run();
      if (f === 'kill-after') {
        kill();
        desktop.kills.push({ method: what, detail: '', after: true });
        return hang();
      }
      return result;
    };
    const outbox: Outbox = {
      all: () => storeCall('outbox.all', () => structuredClone(jobs)),
      update: (fn) =>
        storeCall('outbox.update', () => {
          jobs = pruneJobs(fn(structuredClone(jobs)));
          return structuredClone(jobs);
        }),
    };
    const state: CalmStateStore = {
      get: () => storeCall('calm.get', () => structuredClone(calmState)),
      set: (next) =>
        storeCall('calm.set', () => {
          calmState = structuredClone(next);
        }),
    };
    const intents = {
      get: (k: string) => records.get(k),
      list: () => records.list(),
      put: (t: TrackedIntent) => storeCall('intents.put', () => records.map.set(t.intentId, t)).then(() => {}),
      update: (k: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) =>
        storeCall('intents.update', () => {
          const next = fn(records.map.get(k));
          if (next) records.map.set(k, next);
          return next ?? records.map.get(k);
        }),
      updateMany: (ks: readonly string[], fn: (k: string, c: TrackedIntent | undefined) => TrackedIntent | undefined) =>
        storeCall('intents.updateMany', () => {
          const next = ks.map((k) => fn(k, records.map.get(k)));
          for (const [i, k] of ks.entries()) if (next[i]) records.map.set(k, next[i]!);
          return ks.map((k, i) => next[i] ?? records.map.get(k));
        }),
      remove: (k: string) => records.remove(k),
    };
    const mirror = new IntentMirror(intents);
    const pipeline = createNotificationPipeline({
      adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: s.browser === 'firefox' }),
      outbox,
      state,
      settings: async () => settings,
      intent: async (intentId) => mirror.get(intentId),
      scheduleRelease: createCalmAlarm(browser as never),
      now: clock.now,
      groupTimer: (fn, ms) => clock.timer(() => dead() || fn(), ms),
      retryTimer: (fn, ms) => clock.timer(() => dead() || fn(), ms),
    });
    const delivery = new Delivery(mirror, pipeline, { now: clock.now, monotonic: clock.now, sleep: () => hang() });
    return { browser, pipeline, mirror, delivery, dead };
  };

  let life = startLife();
  /** The worker as an event finds it: a dead one is started again (Chrome and Firefox start it for the event). */
  const alive = async () => {
    if (life.dead()) {
      life = startLife();
      await wake();
    }
    return life;
  };
  /** Every start and watchdog wake-up: the tracker resumes pending deliveries; the pipeline resumes its jobs. */
  const wake = async () => {
    const l = life;
    await l.mirror.load().catch(() => {});
    void l.pipeline.resume().catch(() => {});
    for (const t of l.mirror.values()) if (t.notification === 'pending') void l.delivery.deliver(t.intentId);
    s.intents.forEach((it, n) => {
      if (it.end !== 'EXECUTING' && t0 + it.finishAt <= clock.t && l.mirror.get(id(n + 1))?.phase !== 'final') writeFinal(l, n + 1);
    });
    await flush();
  };

  /**
   * The tracker learns that intent `k` ended: the final status with `pending` in one record, then the delivery. A
   * write that failed is made again at the next wake-up (the tracker asks again and learns it again).
   */
  const writeFinal = (l: Life, k: number) => {
    const end = s.intents[k - 1]!.end;
    void l.mirror
      .write(id(k), (t) => ({
        intentId: id(k),
        addedAt: t?.addedAt ?? t0,
        lastStates: [],
        phase: 'final',
        notification: t?.notification === 'shown' ? 'shown' : 'pending',
        status: end,
        receipt: receiptOf(k, end, ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']),
      }))
      .then((written) => {
        if (written?.notification === 'pending') void l.delivery.deliver(id(k));
      })
      .catch(() => undefined);
  };

  // The timeline: each intent's legs and end, the user's operations, the watchdog every 30 s, the release alarm.
  type Ev = { at: number; run: () => Promise<void> };
  const events: Ev[] = [];
  s.intents.forEach((it, n) => {
    const k = n + 1;
    for (let step = 0; step <= it.steps; step++) {
      const at = t0 + Math.floor((it.finishAt * step) / (it.steps + 1));
      const legs = (['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'] as string[]).slice(0, step);
      events.push({
        at,
        run: async () => {
          const l = await alive();
          // Never awaited: a worker that dies inside leaves it hanging, as a dead worker does.
          void l.mirror
            .write(id(k), (t) => ({
              intentId: id(k),
              addedAt: t?.addedAt ?? t0,
              lastStates: [],
              phase: 'tracking',
              notification: 'none',
              status: 'EXECUTING',
              receipt: receiptOf(k, 'EXECUTING', [...legs, 'PENDING'] as never),
            }))
            .then(() => l.pipeline.progress(id(k)))
            .catch(() => {});
        },
      });
    }
    if (it.end !== 'EXECUTING') {
      events.push({ at: t0 + it.finishAt, run: async () => writeFinal(await alive(), k) });
      if (it.muted === 'after') {
        const at = t0 + it.finishAt + 1 + ((it.steps * 7919) % (10 * MIN));
        events.push({ at, run: async () => void (await alive()).pipeline.mute(id(k), true).catch(() => {}) });
      }
    }
  });
  /** The snoozes as the user asked for them (for N3). */
  const snoozes: Array<{ from: number; until: number }> = [];
  for (const op of s.ops) {
    events.push({
      at: t0 + op.at,
      run: async () => {
        if (op.kind === 'dismiss') {
          const ids = [...desktop.screen.keys()];
          if (ids.length > 0) desktop.dismiss(ids[op.target % ids.length]!);
          return;
        }
        if (op.kind === 'dismissAll') return desktop.dismissAll();
        const l = await alive();
        if (op.kind === 'snooze') {
          snoozes.push({ from: clock.t, until: clock.t + op.amount * MIN });
          void l.pipeline.snooze(op.amount * MIN).catch(() => {});
        } else {
          for (const z of snoozes) z.until = Math.min(z.until, clock.t);
          void l.pipeline.endSnooze().catch(() => {});
        }
      },
    });
  }
  const lastEvent = Math.max(...events.map((e) => e.at));
  // Faults stop here; the run goes on until everything held was due for 3 minutes.
  const faultsEnd = lastEvent + 2 * MIN;
  const quietEnd = s.quiet ? t0 + (s.quiet.from + s.quiet.length) * MIN + 2 * 60 * MIN : 0;
  const snoozeEnd = t0 + 18 * MIN + 12 * MIN;
  const end = Math.max(faultsEnd, snoozeEnd, quietEnd) + 3 * MIN;
  events.sort((a, b) => a.at - b.at);

  let nextWatchdog = t0 + 30_000;
  let guard = 0;
  while (clock.t < end) {
    if (++guard > 100_000) return ['the run did not end (100,000 steps)'];
    const alarm = desktop.alarms.get(CALM_ALARM)?.scheduledTime ?? Number.POSITIVE_INFINITY;
    const next = Math.min(events[0]?.at ?? Number.POSITIVE_INFINITY, nextWatchdog, alarm, clock.nextAt(), end);
    clock.t = Math.max(clock.t, next);
    if (clock.t >= faultsEnd) faultsUntil.on = false;
    clock.fireDue();
    await flush();
    while (events[0] && events[0].at <= clock.t) {
      await events.shift()!.run();
      await flush();
    }
    if (alarm <= clock.t) {
      desktop.alarms.delete(CALM_ALARM);
      const l = await alive();
      void l.pipeline.release().catch(() => {});
      await flush();
    }
    if (nextWatchdog <= clock.t) {
      nextWatchdog += 30_000;
      await alive();
      await wake();
    }
  }
  // The schedule's quiet hours may last beyond it on some days: if anything is still held, that is only N3's business.
  const v = await check(s, desktop, jobs, settings);
  if (s.faults.length === 0) v.push(...checkN3(desktop, jobs, settings, snoozes, clock.t));
  return v;
}

/** The longest a final waits for its group's flush (ms): the grouping's widest window (docs/notifications.md). */
const GROUP_WAIT_MS = 2_000;

/**
 * N3 (in runs without faults): what was held is shown within 60 s of the first moment neither a snooze nor the quiet
 * hours hold it — computed here minute by minute in local time, apart from the code under test. A final is held from
 * its decision, or from a calm that began while it waited for its group ({@link GROUP_WAIT_MS}).
 */
function checkN3(
  desktop: FakeDesktop,
  jobs: Record<string, NotificationJob>,
  settings: NotifySettings,
  snoozes: ReadonlyArray<{ from: number; until: number }>,
  end: number,
): string[] {
  const v: string[] = [];
  const minute = (hm: string) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3));
  const q = settings.quietHours;
  const quiet = (t: number) => {
    if (!q) return false;
    const d = new Date(t);
    const m = d.getHours() * 60 + d.getMinutes();
    const [a, b] = [minute(q.start), minute(q.end)];
    return a === b ? false : a < b ? m >= a && m < b : m >= a || m < b;
  };
  const calmAt = (t: number) => snoozes.some((x) => x.from <= t && t < x.until) || quiet(t);
  // A final decided outside a calm waits at most 2 s for its group's flush: a snooze or quiet hours that begin before
  // it went take it back (held from then on). Held from its decision otherwise.
  const heldFrom = (at: number) => {
    if (calmAt(at)) return at;
    const starts = [...snoozes.map((x) => x.from), at - (at % MIN) + MIN].filter((f) => f > at && f - at <= GROUP_WAIT_MS && calmAt(f));
    return starts.length > 0 ? Math.min(...starts) : at;
  };
  const due = (from: number) => {
    let t = from;
    for (let i = 0; i < 5_000; i++) {
      const z = snoozes.find((x) => x.from <= t && t < x.until);
      if (z) t = z.until;
      else if (quiet(t)) t = t - (t % MIN) + MIN;
      else break;
    }
    return t;
  };
  for (const j of Object.values(jobs)) {
    if (j.kind !== 'final') continue;
    const summarised = j.reason?.startsWith('summarised:');
    if (!summarised && j.state !== 'held') continue;
    const by = due(heldFrom(j.at)) + MIN;
    const shown = desktop.log.find((a) => a.id.startsWith(AWAY) && a.how === 'create' && a.at >= j.at);
    if (summarised ? !shown || shown.at > by : by < end) {
      v.push(
        `N3 ${j.key} held at ${new Date(j.at).toISOString()}, due by ${new Date(by).toISOString()}, summary ${shown ? new Date(shown.at).toISOString() : 'never'}`,
      );
    }
  }
  return v;
}

/** The oracle: N1–N5 on what the desktop showed. */
async function check(
  s: DesktopSchedule,
  desktop: FakeDesktop,
  jobs: Record<string, NotificationJob>,
  settings: NotifySettings,
): Promise<string[]> {
  const v: string[] = [];
  const { own, awayLines: away } = tellings(desktop);
  const firefoxWindow = firefoxLossPossible(desktop);
  let mustTell = 0;
  let mayTell = 0;
  s.intents.forEach((it, n) => {
    const i = id(n + 1);
    const o = own.get(i) ?? 0;
    const notifies = it.end !== 'EXECUTING' && settings[SETTING_OF[it.end]!] !== false;
    if (!notifies || it.muted === 'before') {
      if (o > 0) v.push(`N2 ${i} (${it.end}, muted ${it.muted}) told ${o} times`);
      return;
    }
    // Chrome's window (README): a death after the create resolved and before `shown` was written, the notification
    // closed before the restart.
    const repeatAllowed = chromeRepeatAllowed(desktop, i);
    if (o > (repeatAllowed ? 2 : 1)) v.push(`N1 ${i} told ${o} times on its own`);
    if (it.muted === 'after' || firefoxWindow) mayTell++;
    else mustTell++;
  });
  const ownTotal = [...own.values()].reduce((a, b) => a + b, 0);
  const total = ownTotal + away;
  const repeats = chromeRepeats(desktop);
  if (total < mustTell) v.push(`N1 told ${total} (own ${ownTotal} + summary lines ${away}); at least ${mustTell} expected`);
  if (total > mustTell + mayTell + repeats)
    v.push(`N1/N2 told ${total} (own ${ownTotal} + summary lines ${away}); at most ${mustTell + mayTell} expected`);
  // Nothing left unfinished at the end but what quiet hours still hold.
  for (const j of Object.values(jobs)) {
    if (j.state === 'queued' || j.state === 'clearing' || (j.state === 'showing' && j.kind !== 'progress'))
      v.push(`N4 job ${j.key} still ${j.state} at the end`);
  }
  // N5: every button and the body of every notification shown does what it says.
  v.push(...(await checkClicks(desktop)));
  return v;
}
