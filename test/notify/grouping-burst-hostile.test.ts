/**
 * Hostile tests of the burst-widening grouping (docs/notifications.md "Grouping"): the delivery's grouping
 * (`group-hold.ts` over `decide.ts` `groupFlushAt`) on a virtual timer, and the real pipeline over a fake desktop on a
 * virtual clock (real fake-indexeddb). The promises tried:
 * - a notification never waits more than 2,000 ms for its group (monotonic clock);
 * - every final outcome is told exactly once (Chrome);
 * - a lone finish after a calm spell goes at once (within a widened window still open, after the quiet flush);
 * - at most three notifications per window (so at most three every 2 s while thousands finish).
 * The tests marked "found by a hostile review" failed on the first version of the change (their comments say why);
 * the others are attacks it withstood.
 */
import fc from 'fast-check';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { createNotificationAdapter, intentIdsOfNotification } from '@/lib/notify/browser';
import type { GroupTiming } from '@/lib/notify/decide';
import { GroupHold } from '@/lib/notify/group-hold';
import { createNotificationPipeline } from '@/lib/notify/pipeline';
import { createCalmStateStore, DEFAULT_NOTIFY, type NotifySettings, type TrackedIntent } from '@/lib/store';
import { createOutbox } from '@/lib/store/outbox';
import { settle, VirtualClock } from '../tracker/fakes';
import { finalTitle, freshStart, groupOnClock, id, at as localAt, receiptOf, type Shared, trackedStandIn, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

/** The defaults of `pipeline-core.ts`. */
const T: GroupTiming = { windowMs: 300, quietMs: 100, maxWindowMs: 2_000 };
const HOUR = 3_600_000;
/** Finishes [intent, ms] that widen the window to 2 s: windows of 300 (at 0), 600 (at 310), 1,200 (at 920), then 2,000 ms (at 2,130), each grouping one. */
const WIDENED: ReadonlyArray<[number, number]> = [
  [1, 0],
  [2, 1],
  [3, 310],
  [4, 311],
  [5, 920],
  [6, 921],
  [7, 2_130],
];

// ---------------------------------------------------------------------------------------------------------------
// A model of OutboxDelivery's bookkeeping around the pure rule: one grouping set, one flush timer (a later arm
// replaces it), the early flush spending the window's quiet flush when it fires.
// ---------------------------------------------------------------------------------------------------------------

interface Notif {
  at: number;
  ids: number[];
  how: 'open' | 'stray' | 'flush';
  /** The index of the window it counts against (the one current when it was made). */
  win: number;
}
interface Sim {
  notifs: Notif[];
  windows: Array<{ openAt: number; lengthMs: number; expectedLengthMs: number }>;
  arrivals: number[];
}

/**
 * Runs `arrivals` (ms, non-decreasing) through the delivery's grouping (`GroupHold`, the code itself) on a virtual
 * clock: each arrival is held or goes at once; a flush lets every held one go. The flush timer fires `late` ms after
 * the time asked; `tieArrivalFirst`: an arrival at the very ms of a due flush is handled before it.
 */
function simulate(arrivals: number[], opts: { late?: number; tieArrivalFirst?: boolean } = {}): Sim {
  const late = opts.late ?? 0;
  let now = 0;
  let seq = 0;
  const timers: Array<{ at: number; seq: number; fn: () => void }> = [];
  const notifs: Notif[] = [];
  const windows: Sim['windows'] = [];
  const held: number[] = [];
  const group = new GroupHold(
    { ...T, monotonic: () => now, groupTimer: (fn, ms) => timers.push({ at: now + ms + late, seq: seq++, fn }) },
    () => {
      if (held.length > 0) notifs.push({ at: now, ids: held.splice(0), how: 'flush', win: windows.length - 1 });
    },
  );
  const runTimers = (until: number, inclusive: boolean) => {
    for (;;) {
      timers.sort((x, y) => x.at - y.at || x.seq - y.seq);
      const next = timers[0];
      if (!next || (inclusive ? next.at > until : next.at >= until)) return;
      timers.shift();
      now = Math.max(now, next.at);
      next.fn();
    }
  };
  arrivals.forEach((a, i) => {
    runTimers(a, !opts.tieArrivalFirst);
    now = a;
    const before = group.window;
    const opens = a >= before.endsAt && group.keys.size === 0;
    const f = group.hold(String(i));
    if (opens) {
      const last = before.lengthMs ?? T.windowMs;
      // The documented rule, independently: twice the last (up to 2 s) when it opens less than the last window's
      // length after a window that held something; else 300 ms.
      const expectedLengthMs = before.held === true && a - before.endsAt < last ? Math.min(2 * last, T.maxWindowMs!) : T.windowMs;
      windows.push({ openAt: a, lengthMs: group.window.lengthMs!, expectedLengthMs });
    }
    if (f === undefined) notifs.push({ at: a, ids: [i], how: opens ? 'open' : 'stray', win: windows.length - 1 });
    else {
      held.push(i);
      group.arm(f);
    }
  });
  runTimers(Number.POSITIVE_INFINITY, true);
  return { notifs, windows, arrivals };
}

const perWindow = (s: Sim) => {
  const counts = new Map<number, number>();
  for (const n of s.notifs) counts.set(n.win, (counts.get(n.win) ?? 0) + 1);
  return Math.max(...counts.values());
};
/** The most notifications in any span of `span` ms. */
const perSpan = (times: number[], span: number) => {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[i]! - t[j]! >= span) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
};

/** Arrival times: gaps mostly short (a burst), sometimes long (calm), sometimes nil (the same ms). */
const arrivalsArb = fc
  .array(
    fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 120 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 4_000 }) }),
    {
      minLength: 1,
      maxLength: 300,
    },
  )
  .map((gaps) => {
    let t = 10_000;
    return gaps.map((g) => (t += g));
  });

describe('the pure rule under the delivery bookkeeping, the flush timer on time', () => {
  it('holds: told once, none waits more than 2,000 ms, at most three per window, the windows as documented', () => {
    fc.assert(
      fc.property(arrivalsArb, (arrivals) => {
        const s = simulate(arrivals);
        const told = s.notifs.flatMap((n) => n.ids).sort((a, b) => a - b);
        expect(told).toEqual(arrivals.map((_, i) => i));
        for (const n of s.notifs) for (const i of n.ids) expect(n.at - arrivals[i]!).toBeLessThanOrEqual(2_000);
        expect(perWindow(s)).toBeLessThanOrEqual(3);
        for (const w of s.windows) expect(w.lengthMs).toBe(w.expectedLengthMs);
        // A lone finish after a calm spell as long as the widest window goes at once.
        arrivals.forEach((a, i) => {
          if (i > 0 && a - arrivals[i - 1]! >= 2_000 + 2_000) {
            const n = s.notifs.find((x) => x.ids.includes(i))!;
            expect(n.at).toBe(a);
          }
        });
        // No stray (a notification that neither opens a window nor flushes one) when the timer is on time.
        expect(s.notifs.filter((n) => n.how === 'stray')).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('holds: a sustained burst (one finish every 10 ms for a minute) makes at most three notifications every 2 s once widened', () => {
    const arrivals = Array.from({ length: 6_000 }, (_, i) => 10_000 + 10 * i);
    const s = simulate(arrivals);
    expect(s.windows.slice(0, 5).map((w) => w.lengthMs)).toEqual([300, 600, 1_200, 2_000, 2_000]);
    const afterWidening = s.notifs.filter((n) => n.at >= 10_000 + 300 + 600 + 1_200 + 100).map((n) => n.at);
    expect(perSpan(afterWidening, 2_000)).toBeLessThanOrEqual(3);
    expect(Math.max(...s.notifs.flatMap((n) => n.ids.map((i) => n.at - arrivals[i]!)))).toBeLessThanOrEqual(2_000);
  });

  it('holds: arrivals exactly at window ends and at end + last length (the boundaries of the widening rule)', () => {
    // Opens 300 at 0; one held at 1; the next opens exactly at the end (300): within the last length, 600 long.
    let s = simulate([0, 1, 300, 301, 900, 901]);
    expect(s.windows.map((w) => w.lengthMs)).toEqual([300, 600, 1_200]);
    // A pause of exactly the last window's length after its end: back to 300.
    s = simulate([0, 1, 600]);
    expect(s.windows.map((w) => w.lengthMs)).toEqual([300, 300]);
    s = simulate([0, 1, 599]);
    expect(s.windows.map((w) => w.lengthMs)).toEqual([300, 600]);
    // A window that held nothing: back to 300 however close.
    s = simulate([0, 1, 300, 900, 901]);
    expect(s.windows.map((w) => w.lengthMs)).toEqual([300, 600, 300]);
  });
});

describe('the pure rule when the flush timer fires late (a busy worker: setTimeout is never early, often late)', () => {
  it('at most three notifications per window: holds when the window-end flush fires 30 ms late in a burst (a finish that comes while a flush is due joins it)', () => {
    // Found by a hostile review (failed before the fix): an arrival after the window's end while the held ones are
    // still held (their flush not fired yet) gets `at = max(now, endsAt) = now` from groupFlushAt: it goes at once,
    // alone, and opens no window. Each such stray is a notification of its own on top of the window's three (the held
    // ones then go in the late flush), and a burst makes one at every arrival in the flush's lateness.
    const arrivals = Array.from({ length: 1_000 }, (_, i) => 10_000 + 10 * i);
    const s = simulate(arrivals, { late: 30 });
    const strays = s.notifs.filter((n) => n.how === 'stray').length;
    expect(strays).toBe(0);
    expect(perWindow(s)).toBeLessThanOrEqual(3);
    // The finishes that keep coming while the flush is due join it without putting it off: none waits longer than the
    // widest window plus the timer's lateness.
    expect(Math.max(...s.notifs.flatMap((n) => n.ids.map((i) => n.at - arrivals[i]!)))).toBeLessThanOrEqual(2_000 + 30);
  });

  it('at most three notifications every 2 s while a burst lasts: holds when the flush fires 30 ms late', () => {
    // Found by a hostile review (failed before the fix): as above; after widening to 2 s, a 2 s span holds the window's
    // opening and end flush plus the strays that came during the flush's lateness.
    const arrivals = Array.from({ length: 1_000 }, (_, i) => 10_000 + 10 * i);
    const s = simulate(arrivals, { late: 30 });
    const afterWidening = s.notifs.filter((n) => n.at >= 10_000 + 2_200).map((n) => n.at);
    expect(perSpan(afterWidening, 2_000)).toBeLessThanOrEqual(3);
  });

  it('at most three notifications per window: holds when an arrival lands on the very ms of the window end before its flush runs', () => {
    // Found by a hostile review (failed before the fix): two events due at the same ms (a finish and the window-end
    // flush) run in either order; when the finish runs first, `groupFlushAt(w, held > 0, endsAt)` answers "now" without
    // opening a window: a fourth notification counted against the window (the strays' path above with a lateness of 0
    // ms).
    const s = simulate([0, 1, 150, 300], { tieArrivalFirst: true });
    expect(s.notifs.filter((n) => n.how === 'stray')).toEqual([]);
    expect(perWindow(s)).toBeLessThanOrEqual(3);
  });

  it('holds: even with a late flush, every finish is told once and waits no more than 2,000 ms plus the lateness', () => {
    fc.assert(
      fc.property(arrivalsArb, fc.integer({ min: 0, max: 200 }), (arrivals, late) => {
        const s = simulate(arrivals, { late });
        expect(s.notifs.flatMap((n) => n.ids).sort((a, b) => a - b)).toEqual(arrivals.map((_, i) => i));
        for (const n of s.notifs) for (const i of n.ids) expect(n.at - arrivals[i]!).toBeLessThanOrEqual(2_000 + late);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The real pipeline (defaults: 300 / 100 / 2,000 ms) on a virtual clock, over a fake desktop and fake-indexeddb.
// ---------------------------------------------------------------------------------------------------------------

let dbs = 0;
interface RigOptions {
  kind?: 'chrome' | 'firefox';
  settings?: NotifySettings;
  /** The flush timer fires this much after the time asked (ms). */
  late?: number;
  /** The outbox write of the final job of intent `n` (its `show`) takes this long (ms of the virtual clock). */
  showWriteMs?: (n: number) => number;
  /** The outbox write of the final job of intent `n` is refused (after its `showWriteMs`). */
  showWriteFails?: (n: number) => boolean;
  /** The intents the pipeline asks for (progress notifications). */
  intents?: Map<string, TrackedIntent>;
  /** No monotonic clock given (the pipeline's default: the wall clock). */
  noMonotonic?: boolean;
}

function rig(clock: VirtualClock, o: RigOptions = {}) {
  dbs++;
  const desktop = new FakeDesktop(o.kind ?? 'chrome', () => clock.now());
  const browser = desktop.worker();
  const real = createOutbox(createStore(`burst-outbox-${dbs}`, 'jobs'));
  const outbox = {
    all: () => real.all(),
    update: async (fn: Parameters<typeof real.update>[0]) => {
      // Which final job this write adds, if any (a dry run of the change on the table as it is).
      const before = await real.all();
      const added = Object.keys(fn({ ...before })).find((k) => k.startsWith('final:') && !before[k]);
      const n = added ? Number.parseInt(added.slice('final:0x'.length), 10) : undefined;
      if (n !== undefined) {
        const ms = o.showWriteMs?.(n) ?? 0;
        if (ms > 0) await clock.sleep(ms);
        if (o.showWriteFails?.(n)) throw new DOMException('outbox write refused', 'QuotaExceededError');
      }
      return real.update(fn);
    },
  };
  const pipeline = createNotificationPipeline({
    adapter: createNotificationAdapter(browser as never, { iconUrl: '/icon/128.png', firefox: o.kind === 'firefox' }),
    outbox,
    state: createCalmStateStore(createStore(`burst-calm-${dbs}`, 'calm')),
    settings: async () => o.settings ?? DEFAULT_NOTIFY,
    // Without its own intents: the stand-in's (every intent tracked).
    intent: async (intentId) => (o.intents ? o.intents.get(intentId) : trackedStandIn(intentId)),
    scheduleRelease: async () => {},
    now: () => clock.now(),
    ...(o.noMonotonic ? {} : { monotonic: () => clock.monotonic() }),
    groupTimer: (fn, ms) => void clock.sleep(ms + (o.late ?? 0)).then(fn),
    retryTimer: (fn, ms) => void clock.sleep(ms).then(fn),
  });
  /** Who was told, when (ms of the monotonic clock), in which notification. */
  const told = () =>
    desktop.log.map((a, i) => ({
      i,
      at: a.at - clock.wallOffset,
      how: a.how,
      intents: intentIdsOfNotification(a.id).map((x) => Number.parseInt(x.slice(2), 10)),
    }));
  return { desktop, browser, pipeline, told };
}

const final = (clock: VirtualClock, n: number): TrackedIntent => ({
  intentId: id(n),
  addedAt: clock.now(),
  lastStates: [],
  phase: 'final',
  notification: 'pending',
  status: 'SUCCEEDED',
  receipt: receiptOf(n, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']),
});

/**
 * Finishes intent `n` at each time of `plan` (ms after the clock's time now, the virtual clock firing them in
 * order with the flush timers), then runs the clock `tail` ms past the last. Returns when each came (monotonic).
 */
async function drive(clock: VirtualClock, r: ReturnType<typeof rig>, plan: Array<[n: number, atMs: number]>, tail = 3_000) {
  const t0 = clock.monotonic();
  const cameAt = new Map<number, number>();
  const shows: Promise<unknown>[] = [];
  for (const [n, ms] of plan)
    void clock.sleep(ms).then(() => {
      cameAt.set(n, clock.monotonic());
      shows.push(r.pipeline.show(final(clock, n)).catch(() => undefined));
    });
  const end = Math.max(...plan.map(([, ms]) => ms)) + tail;
  // In small steps: fake-indexeddb gets its macrotasks between them.
  for (let t = 0; t < end; t += 50) await clock.advance(50);
  await Promise.all(shows);
  await settle();
  return { t0, cameAt };
}

let clock: VirtualClock;
beforeEach(() => {
  clock = new VirtualClock();
  clock.t = localAt(22, 12);
});

describe('the pipeline under a busy worker or slow IndexedDB', () => {
  it('a notification never waits more than 2,000 ms for its group: holds when the writes of a 2 s window are slow (the flush is armed for a monotonic time, not relative to the write)', async () => {
    // Found by a hostile review (failed before the fix): holdForGroup returns the flush as "ms from now" at the hold;
    // showFinal arms it only after the outbox write (and each arm replaces the last timer). Writes that take D ms thus
    // put the group's flush D ms after the window's end: the first held one, come 1 ms after the window opened, waits
    // 1,999 + D ms (timers on time, monotonic clock; the delivery's own writes instant).
    // Widen to 2 s: windows of 300 (opened at 0), 600 (at 310), 1,200 (at 920), 2,000 (at 2,130), each grouping one.
    const plan: Array<[number, number]> = [...WIDENED];
    // In the 2 s window [2,130, 4,130): one finish every 50 ms from 2,131 to 4,081 (the quiet flush re-armed each
    // time, never firing), each one's outbox write taking 40 ms.
    let n = 8;
    for (let t = 2_131; t <= 4_081; t += 50) plan.push([n++, t]);
    const r = rig(clock, { showWriteMs: (k) => (k >= 8 ? 40 : 0) });
    const { cameAt } = await drive(clock, r, plan);
    const told = r.told();
    expect(told.flatMap((x) => x.intents).sort((a, b) => a - b)).toEqual(plan.map(([k]) => k).sort((a, b) => a - b));
    const first = told.find((x) => x.intents.includes(8))!;
    expect(first.at - cameAt.get(8)!).toBeLessThanOrEqual(2_000);
  }, 60_000);

  it('at most three notifications per window: holds when the early flush fires during a held final’s slow write (no second early flush)', async () => {
    // Found by a hostile review (failed before the fix): C is held at 100 with an early flush at 200, computed while
    // the window's quiet flush is still unspent. B's early flush fires at 110, during C's write (not yet in the outbox:
    // B goes alone, and the quiet flush is spent). C's write ends at 130; showFinal then arms C's flush as "early, 100
    // ms from now": a second quiet flush in the same window (C alone at 230). D, at 260, waits for the window's end: 4
    // notifications in the 300 ms window (A at 0, B at 110, C at 230, D at 300).
    const r = rig(clock, { showWriteMs: (k) => (k === 3 ? 30 : 0) });
    await drive(clock, r, [
      [1, 0],
      [2, 10],
      [3, 100],
      [4, 260],
    ]);
    const told = r.told();
    expect(told.flatMap((x) => x.intents).sort()).toEqual([1, 2, 3, 4]);
    const t0 = told[0]!.at;
    const inWindow = told.filter((x) => x.at - t0 <= 300).map((x) => [x.at - t0, x.intents]);
    expect(inWindow.length, `in the window [ms after the first, intents]: ${JSON.stringify(inWindow)}`).toBeLessThanOrEqual(3);
  }, 60_000);

  it('at most three notifications per window: holds when a refused write’s unhold comes after the early flush fired (its spent quiet flush stands)', async () => {
    // Found by a hostile review (failed before the fix): unhold(key, before) puts back the window as it was before C's
    // hold. B's early flush fired during C's (failing) write and spent the window's quiet flush; restoring `before` un-
    // spends it. D at 150 then gets a second quiet flush (250) and E at 260 the window's end flush: A, B, D, E = 4
    // notifications in one window.
    const r = rig(clock, { showWriteMs: (k) => (k === 3 ? 30 : 0), showWriteFails: (k) => k === 3 });
    await drive(clock, r, [
      [1, 0],
      [2, 10],
      [3, 100],
      [4, 150],
      [5, 260],
    ]);
    const told = r.told();
    expect(told.flatMap((x) => x.intents).sort()).toEqual([1, 2, 4, 5]); // C's show rejected: its caller retries
    const t0 = told[0]!.at;
    const inWindow = told.filter((x) => x.at - t0 <= 300).map((x) => [x.at - t0, x.intents]);
    expect(inWindow.length, `in the window [ms after the first, intents]: ${JSON.stringify(inWindow)}`).toBeLessThanOrEqual(3);
  }, 60_000);
});

describe('clocks, restarts and calm', () => {
  it('holds: the wall clock steps back an hour mid-window (monotonic given): the held one goes with the window, not an hour later', async () => {
    const r = rig(clock);
    void r.pipeline.show(final(clock, 1));
    await clock.advance(10);
    const held = r.pipeline.show(final(clock, 2));
    await clock.advance(10);
    clock.jumpWall(-HOUR);
    await clock.advance(300);
    await held;
    const told = r.told();
    expect(told.map((x) => x.intents)).toEqual([[1], [2]]);
    expect(told[1]!.at - told[0]!.at).toBeLessThanOrEqual(300);
    clock.jumpWall(2 * HOUR);
    await clock.advance(5_000);
    // Calm after: a lone finish goes at once.
    const t = clock.monotonic();
    await r.pipeline.show(final(clock, 3));
    expect(r.told().at(-1)).toMatchObject({ at: t, intents: [3] });
  }, 60_000);

  it('a lone finish within a widened window still open waits only for the quiet flush (100 ms)', async () => {
    // The window opened by the last finish of a burst is 2 s long even when that finish came alone; a finish 1.8 s
    // later, after no other, still falls in it and is held for the quiet flush (docs/notifications.md, "Grouping").
    const r = rig(clock);
    // 7 (at 2,130) opens a 2 s window, alone; 8 comes alone, 1.8 s after the last finish and the last notification.
    const plan: Array<[number, number]> = [...WIDENED, [8, 2_130 + 1_800]];
    const { cameAt } = await drive(clock, r, plan, 1_000);
    const t8 = r.told().find((x) => x.intents.includes(8))!;
    expect(t8.at - cameAt.get(8)!).toBeLessThanOrEqual(100);
  }, 60_000);

  /** Widens to a 2 s window opened at 2,130 by 7; 8 at 2,131 spends its quiet flush (2,231); 9 at 2,300 waits for 4,130. */
  const widenedThenHeld: Array<[number, number]> = [...WIDENED, [8, 2_131], [9, 2_300]];

  it('holds: an intent muted while held for a widened group is not shown (the flush finds its job done)', async () => {
    const r = rig(clock);
    void clock.sleep(2_400).then(() => r.pipeline.mute(id(9), true));
    await drive(clock, r, widenedThenHeld, 2_500);
    const told = r.told();
    expect(told.flatMap((x) => x.intents).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }, 60_000);

  describe('a worker restart mid-window (the harness worker: tracker delivery + pipeline)', () => {
    let settings: NotifySettings;
    let shared: Shared;
    beforeEach(() => {
      ({ clock, settings, shared } = freshStart());
    });
    it('holds: the held ones of the dead life go at the next start, each intent told once; a lone finish after goes at once', async () => {
      const desktop = new FakeDesktop('chrome', () => clock.now());
      const first = worker(shared, desktop, clock, () => settings, { groupWindowMs: 300, groupTimer: groupOnClock(clock) });
      await first.finish(1);
      void first.finish(2);
      await clock.advance(5);
      void first.finish(3);
      await clock.advance(5);
      first.browser.dead = true;
      await clock.advance(40);
      const second = worker(shared, desktop, clock, () => settings, { groupWindowMs: 300, groupTimer: groupOnClock(clock) });
      await second.wake();
      await clock.advance(1_000);
      const toldOf = (n: number) => desktop.log.filter((a) => intentIdsOfNotification(a.id).includes(id(n)));
      for (const n of [1, 2, 3]) expect(toldOf(n)).toHaveLength(1);
      await clock.advance(5_000);
      const t = clock.now();
      await second.finish(4);
      await settle();
      expect(desktop.seen(finalTitle(4))).toHaveLength(1);
      expect(desktop.log.at(-1)!.at).toBe(t);
      await clock.advance(5_000);
      for (const n of [1, 2, 3, 4]) expect(toldOf(n)).toHaveLength(1);
    }, 60_000);
  });

  it('Firefox with progress notifications: a burst of finals is grouped as without them, each intent told once', async () => {
    const intents = new Map<string, TrackedIntent>();
    for (let n = 1; n <= 10; n++)
      intents.set(id(n), {
        ...final(clock, n),
        phase: 'tracking',
        status: 'EXECUTING',
        notification: 'none',
        receipt: receiptOf(n, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'PENDING']),
      });
    const r = rig(clock, { kind: 'firefox', settings: { ...DEFAULT_NOTIFY, progress: true }, intents });
    for (let n = 1; n <= 10; n++) await r.pipeline.progress(id(n));
    await clock.advance(1_000);
    const progressShown = r.told().length;
    expect(progressShown).toBe(10);
    await drive(
      clock,
      r,
      Array.from({ length: 10 }, (_, i) => [i + 1, i * 20] as [number, number]),
    );
    const finals = r.told().slice(progressShown);
    // One at once, the rest together at the window's flush: not ten toasts.
    expect(finals.length).toBeLessThanOrEqual(3);
    for (let n = 1; n <= 10; n++) expect(finals.filter((x) => x.intents.includes(n))).toHaveLength(1);
  }, 60_000);

  it('a snooze takes back the finals waiting for their group: none shows during it, the summary names them after', async () => {
    const r = rig(clock);
    // A steady burst (one finish every 20 ms) widens the window; the snooze comes right after the last finish.
    for (let n = 1; n <= 12; n++) {
      void r.pipeline.show(final(clock, n));
      await clock.advance(20);
    }
    const atSnooze = r.told().length;
    const toldBefore = new Set(r.told().flatMap((x) => x.intents));
    expect(toldBefore.size).toBeLessThan(12);
    await r.pipeline.snooze(60_000);
    await clock.advance(10_000);
    expect(r.told()).toHaveLength(atSnooze);
    await r.pipeline.endSnooze();
    await clock.advance(1_000);
    // One "while you were away" summary (its id names no intent) that counts those not told before the snooze.
    expect(
      r
        .told()
        .slice(atSnooze)
        .map((x) => x.intents),
    ).toEqual([[]]);
    expect(r.desktop.log.at(-1)!.message).toContain(`${12 - toldBefore.size} succeeded`);
  }, 60_000);

  it('holds: a snooze through a burst, then its end: what was held goes once, and a lone finish after goes at once', async () => {
    const r = rig(clock);
    await r.pipeline.show(final(clock, 1));
    await r.pipeline.snooze(60_000);
    for (let n = 2; n <= 6; n++) {
      await r.pipeline.show(final(clock, n));
      await clock.advance(20);
    }
    await clock.advance(5_000);
    await r.pipeline.endSnooze();
    await clock.advance(1_000);
    await clock.advance(5_000);
    const t = clock.monotonic();
    await r.pipeline.show(final(clock, 7));
    const told = r.told();
    // 1 and 7 on their own; 2–6 as one "while you were away" summary naming each.
    expect(told.map((x) => x.intents)).toEqual([[1], [], [7]]);
    expect(r.desktop.log[1]!.message).toContain('5 succeeded');
    expect(told.at(-1)).toMatchObject({ at: t, intents: [7] });
  }, 60_000);
});
