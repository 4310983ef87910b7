/**
 * The `watched` family of the world campaign (symptoms 6 and 23 of issue 27): the user ticks an owner address for
 * auto-tracking — in this browser's options (saved as the options page saves, then `settings-saved`) or on another
 * device (its save reaches this profile's `storage.sync`) — may untick it and tick it again (with no check in between,
 * or minutes later), while the service creates that owner's intents before, between and after. The worker's
 * watched-address check (lib/worker/watched.ts, about once a minute) tracks them.
 *
 * The oracle (W1, per intent of the watched owner; docs/tracking.md "Watched addresses"): an intent created while the
 * address is ticked (from an hour before the first check that read the first tick; after a tick that follows an untick, from when
 * a calm worker has surely read it — a tick is a token, not a time) is tracked by the end; one created while it
 * is unticked — more than the check's 60 s overlap before it is ticked again — is never tracked; no stranger's
 * intent is tracked; no checkpoint is left after the service's time (the next check would skip what comes before it).
 * Margins: 150 s after a change (a check a minute, Chrome's 30 s alarm, the overlap). A death or a refusal that
 * leaves less than that before the end excuses a missing one; deaths or refusals that left less than that calm while
 * the address was ticked excuse one tracked from the gap after it (no checkpoint was kept: the next tick is a first
 * look, an hour back, as the worker cannot tell it from the first tick). A malformed `autoTrackAddresses` from
 * another device (the `sync` family) while ticked excuses a missing one only when no worker could keep the synced
 * tick (deaths or IndexedDB refusals from the tick's arrival in this profile's `storage.sync` — when its save
 * completed, maybe after the browser closed — until the malformed item came): otherwise it reads as the last
 * well-formed synced value kept (lib/store/sync-seen.ts). A service clock that settled on `Date` headers lying behind
 * together (docs/time.md: 4 of 4 backed by a local clock as far off, or 8 of the kept; {@link settledOnLies}) excuses
 * one tracked from where a check on it read: the first look an hour back from a time that far behind.
 */
import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { get } from 'idb-keyval';
import { createSettingsStore, DB_NAMES, type WatchedCheckpoint } from '@/lib/store';
import { storesOn } from '@/lib/store/idb';
import { createSyncedSettingsStore, type SyncArea } from '@/lib/store/sync';
import { FIRST_LOOK_BACK_S } from '@/lib/worker/watched';
import type { CheckContext, FamilyContext, FamilyCount } from './family-types';
import type { DateSample } from './verdict-clock';

const MIN = 60_000;
/** The watched owner. */
export const WATCHED = '0x00000000000000000000000000000000000000c3';
const MARGIN_MS = 150_000;
/** How far back a first look reads (ms). */
const FIRST_LOOK_MS = FIRST_LOOK_BACK_S * 1000;
/** The oracle's windows in which no worker keeps a synced value: deaths, and IndexedDB refusing (reads or writes). */
const keepsNothing = (w: { why: string }) => /^(death|idb |quota )/.test(w.why);
const via = fc.constantFrom<'options' | 'sync'>('options', 'sync');

/** The arbitrary of the family's part of a schedule (undefined: off). */
export const watchedArb = fc.option(
  fc.record({
    tickAt: fc.integer({ min: 0, max: 3 * MIN }),
    tickVia: via,
    untick: fc.option(
      fc.record({
        after: fc.integer({ min: MIN, max: 4 * MIN }),
        via,
        /** Ticked again this long after the untick (0: at once, no check in between); undefined: not again. */
        retickAfter: fc.option(fc.constantFrom(0, 500, 20_000, 90_000, 6 * MIN, 10 * MIN), { nil: undefined }),
        retickVia: via,
      }),
      { nil: undefined },
    ),
    /** The owner's intents: created this long after the world's start (negative: before), running this long. */
    intents: fc.array(
      fc.record({ at: fc.integer({ min: -70 * MIN, max: 12 * MIN }), runsFor: fc.integer({ min: 30_000, max: 4 * MIN }) }),
      {
        minLength: 1,
        maxLength: 6,
      },
    ),
  }),
  { nil: undefined },
);

/** The family's part of a schedule. */
export type WatchedSpec = NonNullable<typeof watchedArb extends fc.Arbitrary<infer T> ? T : never>;

/** What the family did and saw. */
export interface WatchedObs {
  /** The owner's intents and when they were created (true time). */
  intents: Array<{ intentId: string; createdAt: number }>;
  /** When the address was ticked and unticked (true time of each save), in order. */
  changes: Array<{ at: number; ticked: boolean }>;
  /** When each intent's record was first written. */
  trackedAt: Map<string, number>;
  /** When another device wrote an `autoTrackAddresses` that is no list (the `sync` family's malformed item). */
  malformedAt: number[];
  /**
   * When a well-formed `autoTrackAddresses` naming the owner reached this profile's `storage.sync` (a save's synced
   * items, from either device): a tick from another device arrives when its save completes, maybe after this browser
   * closed.
   */
  tickArrivedAt: number[];
  /** The watched check's history pages of the owner, as the service answered them (see {@link WatchedPage}). */
  pages: WatchedPage[];
}

/**
 * One history page the service gave the watched check (a `fromTime` read of the watched owner): when it was answered
 * (true time), what it asked (`fromTime` s, the cursor `after`: rows created before it, as the fake service pages),
 * the rows the service listed (`listed`), and its answer as it left the world (`answer`: the `adversarialHistory`
 * family may leave rows out of it afterwards, in place).
 */
export interface WatchedPage {
  at: number;
  fromTime: number;
  after: number | undefined;
  listed: string[];
  answer: { intents: Array<{ intentId: string }>; nextPage?: { after?: number | null; more?: boolean | null } | null };
}

/** Notes every history page the service answers the watched check (the background lane's reads of {@link WATCHED}). */
function recordPages(ctx: FamilyContext, pages: WatchedPage[]): void {
  const service = ctx.service;
  const client = service.client.bind(service);
  service.client = (lane, ...rest) => {
    const c = client(lane, ...rest);
    if (lane !== 'background') return c;
    const history = c.getIntentHistory;
    return {
      ...c,
      getIntentHistory: async (req, options) => {
        const answer = await history(req, options);
        if (req.byOwnerAddress?.toLowerCase() === WATCHED && req.fromTime !== undefined)
          pages.push({
            at: ctx.now(),
            fromTime: req.fromTime,
            after: req.page?.after ?? undefined,
            listed: answer.intents.map((r) => r.intentId),
            answer,
          });
        return answer;
      },
    };
  };
}

/** `Date` offsets closer than this (ms) are one source's (a truthful header is up to 1 s + its round trip early). */
const AGREE_MS = 5_000;
/**
 * What settles the service clock as docs/time.md "The service clock" promises it — written here, not imported from
 * lib/tracker/service-clock.ts, so that a looser rule there is no looser excuse here: of the last 12 samples kept (an
 * hour at most), 3/4 agreeing within 30 s either side, and 8 of them, or 4 that are 6/7 of those kept when the local
 * wall clock lies within 2 min of them.
 */
const SETTLE = {
  kept: 12,
  maxAgeMs: 60 * MIN,
  share: 3 / 4,
  alone: 8,
  withLocal: 4,
  shareWithLocal: 6 / 7,
  localMs: 2 * MIN,
  errorMs: 30_000,
};

/**
 * When a worker's service clock may have settled on `Date` headers that lie together, behind the truth
 * (lib/tracker/service-clock.ts `settled`; docs/time.md "The service clock": 8 agreeing, or 4 of 4 / 6 of 7 when the
 * local wall clock lies within 2 min of them — "a clock an hour slow agrees with headers an hour behind"): from `at`
 * (true ms, the sample that made it possible) until `to` (the life's next sample, or `end`), the service's time read
 * `lieMs` (< 0) off. Built from the `Date`s each live worker received (test/world/network.ts `dates`) and the wall
 * clock's skew (`skewAt`, true ms since the epoch), as if the worker asked after every sample; an agreement apart from
 * the one the life settled on last (within the hour) is refused, as the worker does, unless 12 agree. It leaves out the
 * floor from `updatedAt` (which only refuses more).
 */
export function settledOnLies(
  dates: readonly DateSample[],
  skewAt: (t: number) => number,
  end: number,
): Array<{ at: number; to: number; lieMs: number }> {
  const out: Array<{ at: number; to: number; lieMs: number }> = [];
  for (const life of new Set(dates.map((d) => d.life))) {
    const mine = dates.filter((d) => d.life === life);
    let last: { at: number; offsetMs: number } | undefined;
    mine.forEach((d, i) => {
      const kept = mine
        .slice(0, i + 1)
        .filter((s) => d.at - s.at <= SETTLE.maxAgeMs)
        .slice(-SETTLE.kept);
      const n = kept.length;
      const agreeing = (o: number) => kept.filter((s) => Math.abs(s.offsetMs - o) <= AGREE_MS).length;
      const best = kept.map((s) => s.offsetMs).reduce((x, y) => (agreeing(y) > agreeing(x) ? y : x));
      const c = agreeing(best);
      const local = Math.abs(skewAt(d.at) - best) <= SETTLE.localMs + AGREE_MS;
      const backed = local && c >= SETTLE.withLocal && c >= n * SETTLE.shareWithLocal;
      if (c < n * SETTLE.share || (c < SETTLE.alone && !backed)) return;
      const apart = last !== undefined && d.at - last.at <= SETTLE.maxAgeMs && Math.abs(best - last.offsetMs) > SETTLE.errorMs + AGREE_MS;
      if (apart && c < SETTLE.kept) return;
      last = { at: d.at, offsetMs: best };
      if (best < -SETTLE.errorMs) out.push({ at: d.at, to: mine[i + 1]?.at ?? end, lieMs: best });
    });
  }
  return out;
}

/**
 * Whether, and by what, the walk of page `from` was cut: following the pages that asked with the cursor the previous
 * one answered, `'history'` when the last one answered the cursor it was asked (repeated) or more to come less than
 * the margin before `tickEnd(its time)` — the untick that ended the tick it was read under, or the run's end;
 * `'death'` when the worker died after that last page, before the check asked its next page (any later one, or the
 * run's end): the walk was lost with it (a later walk reads from the top again); `'refusal'` when a store refused
 * (`refusals`: the windows of IndexedDB refusing the intents or the settings, {@link walkRefusals}) within a minute of
 * that last page, before the next was asked: the check stops where a track or its checkpoint cannot be written, and
 * the next reads that page again (lib/worker/watched.ts `createWatchedCheck`). False when the check left a walk with
 * more to come while still ticked, alive and able to write (a defect).
 */
export function walkCut(
  pages: WatchedPage[],
  from: WatchedPage,
  tickEnd: (at: number) => number,
  deaths: ReadonlyArray<{ at: number; kind: string }> = [],
  refusals: ReadonlyArray<{ from: number; to: number }> = [],
): 'history' | 'death' | 'refusal' | false {
  let p = from;
  for (let k = pages.indexOf(from) + 1; ; k++) {
    const next = p.answer.nextPage;
    if (next?.more === false || typeof next?.after !== 'number') return false;
    if (next.after === p.after) return 'history';
    while (k < pages.length && pages[k]!.after !== next.after) k++;
    if (k < pages.length) {
      p = pages[k]!;
      continue;
    }
    if (p.at > tickEnd(p.at) - MARGIN_MS) return 'history';
    const last = p;
    const nextAsked = pages.find((q) => q.at > last.at)?.at ?? Number.POSITIVE_INFINITY;
    if (deaths.some((d) => d.kind !== 'end' && d.at >= last.at && d.at < nextAsked)) return 'death';
    // The refusal met the check while it handled that page (tracking its rows, storing the checkpoint): within a
    // check's minute of it.
    return refusals.some((w) => w.from < Math.min(nextAsked, last.at + MIN) && w.to >= last.at) ? 'refusal' : false;
  }
}

/**
 * The windows in which a store the watched check writes refused (IndexedDB reads or writes, or its quota, of the intents
 * database — a track — or of the settings — the checkpoint): a walk cut there is read again from its page.
 */
export function walkRefusals(windows: ReadonlyArray<{ from: number; to: number; why: string }>): Array<{ from: number; to: number }> {
  return windows.filter((w) => /^(idb (read|write)|quota) svc-(intents|settings)/.test(w.why));
}

/** `tickEnd` of {@link walkCut}: the end of the last tick span begun at or before `at` (its untick, or `end`). */
function tickEndOf(spans: Array<{ from: number; to: number }>, end: number): (at: number) => number {
  return (at) => Math.min(end, spans.filter((s) => s.from <= at).at(-1)?.to ?? end);
}

/**
 * Why the history kept an intent of the watched owner, created at `createdAt`, from the watched check by the end,
 * when it did (undefined: it did not, the worker is to blame). The docs promise the check reads what the history
 * lists, 5 pages of 50 a check, going on from where it stopped, and moves the checkpoint to the newest own row read
 * less 60 s (docs/features.md "Watched addresses"); they do not promise what the history never lists:
 * - a row left out of the last page that listed it (the `omit` of `adversarialHistory`): the checkpoint moved over it
 *   with the newer rows of that page (a row the last listing gave the check is the check's to track);
 * - a row further down a listing than the check read: a read that covered it (`fromTime` at or before its creation,
 *   the cursor before it) answered more to come each time — the walk was cut by a repeated cursor, or had not got
 *   there, other owners' rows before it (a history that ignores the owner filter), when the tick it was read under
 *   ended (the address unticked: the check reads only ticked addresses, and a tick again starts from that moment;
 *   or the run's end); an earlier walk lost with a dying worker, or stopped by a store's refusal (read again from
 *   its page), counts when the last covering walk was so cut;
 * - a row created while a walk begun before it was still under way (every page since, but those of the margin before
 *   the end, answered more to come, none with the cursor it was asked: the walk was moving), so that no read covered
 *   it yet.
 */
export function hiddenByHistory(
  pages: WatchedPage[],
  intentId: string,
  createdAt: number,
  end: number,
  tickEnd: (at: number) => number,
  deaths: ReadonlyArray<{ at: number; kind: string }> = [],
  refusals: ReadonlyArray<{ from: number; to: number }> = [],
): string | undefined {
  const since = pages.filter((p) => p.at >= createdAt);
  const last = since.filter((p) => p.listed.includes(intentId)).at(-1);
  if (last)
    return last.answer.intents.some((r) => r.intentId === intentId) ? undefined : 'the history left it out of the last page that listed it';
  const more = (p: WatchedPage) => p.answer.nextPage?.more !== false && typeof p.answer.nextPage?.after === 'number';
  const covering = since.filter((p) => p.fromTime * 1000 <= createdAt && (p.after === undefined || createdAt < p.after));
  const cut = (p: WatchedPage) => more(p) && walkCut(pages, p, tickEnd, deaths, refusals);
  if (covering.length > 0 && covering.every(cut) && cut(covering.at(-1)!) === 'history')
    return 'the history listed more rows before it than the check read while it was ticked';
  // A walk that ended less than the margin before the end: the next one (a check a minute) may not have begun.
  const walking = since.filter((p) => p.at <= end - MARGIN_MS);
  const moving = walking.every((p) => more(p) && p.answer.nextPage?.after !== p.after);
  if (covering.length === 0 && walking.length > 0 && moving) return 'a walk of the history begun before it had not ended';
  return undefined;
}

/** The `storage.sync` of the profile as a page sees it: its writes reach the worker's `storage.onChanged`. */
function syncArea(ctx: FamilyContext): SyncArea {
  const map = ctx.world.profile.sync;
  const fire = (changes: Record<string, { newValue?: unknown }>) => ctx.world.current?.lb.events.storageChanged.fire(changes, 'sync');
  return {
    get: async (keys) =>
      Object.fromEntries([...map].filter(([k]) => keys === null || keys.includes(k)).map(([k, v]) => [k, structuredClone(v)])),
    set: async (items) => ctx.world.profile.syncFromAnotherDevice(items, fire),
    remove: async (keys) => {
      for (const k of keys) map.delete(k);
      fire(Object.fromEntries(keys.map((k) => [k, {}])));
    },
  };
}

/** Plays the family: the owner's intents at the service, the ticks and unticks where the schedule says. */
export function playWatched(ctx: FamilyContext, spec: WatchedSpec | undefined): WatchedObs | undefined {
  if (!spec) return undefined;
  const obs: WatchedObs = { intents: [], changes: [], trackedAt: new Map(), malformedAt: [], tickArrivedAt: [], pages: [] };
  recordPages(ctx, obs.pages);
  const profile = ctx.world.profile;
  const arrive = profile.syncFromAnotherDevice.bind(profile);
  profile.syncFromAnotherDevice = (items, fire) => {
    const list = items['settings.autoTrackAddresses'];
    if (list !== undefined && !Array.isArray(list) && (list as { parts?: unknown }).parts === 2 ** 32) obs.malformedAt.push(ctx.now());
    if (Array.isArray(list) && list.some((a) => typeof a === 'string' && a.toLowerCase() === WATCHED)) obs.tickArrivedAt.push(ctx.now());
    arrive(items, fire);
  };
  spec.intents.forEach((x, k) => {
    const intentId = `0xc${String(k + 1).padStart(63, '0')}`;
    const createdAt = ctx.T0 + x.at;
    obs.intents.push({ intentId, createdAt });
    ctx.service.add({
      intentId,
      ownerAddress: WATCHED,
      createdAt,
      visibleAt: createdAt,
      inHistory: true,
      steps: [
        { at: createdAt, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
        { at: createdAt + 5_000, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] },
        { at: createdAt + x.runsFor, status: 'SUCCEEDED', states: ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'] },
      ],
    });
  });
  const ids = new Set(obs.intents.map((i) => i.intentId));
  const before = ctx.world.idb.onIntentWrite;
  ctx.world.idb.onIntentWrite = (id, value) => {
    before?.(id, value);
    if (value === undefined || obs.trackedAt.has(id)) return;
    obs.trackedAt.set(id, ctx.now());
    // Tracked by the worker itself: what it tells of it is no stranger's notification.
    if (ids.has(id) && !ctx.tracked.has(id)) ctx.tracked.set(id, { from: ctx.now() });
  };
  const page = createSyncedSettingsStore(
    createSettingsStore(storesOn(ctx.world.idb.real)(DB_NAMES.settings, 'settings')),
    syncArea(ctx),
    ctx.now,
    ctx.random,
  );
  const other = createSyncedSettingsStore(
    createSettingsStore(storesOn(new IDBFactory())(DB_NAMES.settings, 'settings')),
    syncArea(ctx),
    ctx.now,
    ctx.random,
  );
  const save = (ticked: boolean, where: 'options' | 'sync') => {
    obs.changes.push({ at: ctx.now(), ticked });
    const store = where === 'options' ? page : other;
    void (async () => {
      const now = (await store.get()) ?? { baseUrl: '', accessKey: '' };
      const list = ticked ? [WATCHED] : [];
      await store.set({ ...now, watchedAddresses: [WATCHED], autoTrackAddresses: list }).catch(() => {});
      if (where === 'options') await ctx.world.send({ type: 'settings-saved' });
    })();
  };
  ctx.at(spec.tickAt, () => save(true, spec.tickVia));
  const u = spec.untick;
  if (u) {
    ctx.at(spec.tickAt + u.after, () => save(false, u.via));
    if (u.retickAfter !== undefined) ctx.at(spec.tickAt + u.after + u.retickAfter, () => save(true, u.retickVia));
  }
  return obs;
}

/** W1: what the watched-address check tracked (see the module's docstring). */
export async function checkWatched(ctx: CheckContext, obs: WatchedObs | undefined, count: FamilyCount): Promise<string[]> {
  if (!obs) return [];
  const v: string[] = [];
  const spans: Array<{ from: number; to: number }> = [];
  for (const c of obs.changes) {
    if (c.ticked) spans.push({ from: c.at, to: ctx.end });
    else if (spans.length > 0) spans.at(-1)!.to = c.at;
  }
  const first = spans[0];
  const lies = settledOnLies(ctx.world.net.dates, (t) => ctx.time.maxSkew(t - ctx.T0, t - ctx.T0), ctx.end);
  /**
   * By when a worker has read a tick made at `at`: a check a minute (Chrome's alarm: 30 s more) once a worker runs
   * calm (no death or refusal). A tick is a token, not a time (lib/store/ticks.ts): a tick after an untick counts from
   * when a check first reads it, less the 60 s overlap — what is created between the tick and that read is not
   * tracked, and this oracle does not ask it.
   */
  const noticed = (at: number) => {
    let t = at;
    for (let ws = ctx.over(undefined, t, t + MARGIN_MS); ws.length > 0; ws = ctx.over(undefined, t, t + MARGIN_MS))
      t = Math.max(t + 1, ...ws.map((w) => w.to));
    return t + 90_000;
  };
  /** True when deaths or IndexedDB refusals cover [from, to]: no worker ran calm to keep what was synced then. */
  const unkept = (from: number, to: number) => {
    let t = from;
    for (
      let ws = ctx.over(undefined, t, t + 1).filter(keepsNothing);
      ws.length > 0 && t < to;
      ws = ctx.over(undefined, t, t + 1).filter(keepsNothing)
    )
      t = Math.max(t + 1, ...ws.map((w) => w.to));
    return t >= to;
  };
  for (const { intentId, createdAt } of obs.intents) {
    const tracked = obs.trackedAt.has(intentId);
    const inSpan = spans.find(
      (s, k) => createdAt >= (k === 0 ? noticed(s.from) - 58 * MIN : noticed(s.from)) && createdAt <= s.to - MARGIN_MS,
    );
    // In a gap between two ticks; the span before it, for the excuse below.
    const gapAfter = spans.find((s, k) => {
      const next = spans[k + 1];
      return s.to < ctx.end && createdAt >= s.to + MARGIN_MS && createdAt < (next ? next.from - 2 * MIN : ctx.end);
    });
    const unticked = (first !== undefined && createdAt < first.from - 62 * MIN) || gapAfter !== undefined;
    if (inSpan) {
      if (tracked) count.ok('W1');
      else {
        const ws = ctx.over(undefined, createdAt, ctx.end);
        const calmFrom = Math.max(createdAt, ...ws.map((w) => w.to));
        // A malformed synced list reads as the last well-formed synced value this device kept (lib/store/sync-seen.ts):
        // only a tick no worker could keep — deaths or IndexedDB refusals from the tick's arrival in this profile's
        // storage.sync until the malformed item came — falls back to this device's own copy.
        const malformed = obs.malformedAt.some((at) => {
          const arrived = obs.tickArrivedAt.find((a) => a >= inSpan.from && a <= at);
          return at >= inSpan.from && at < inSpan.to && arrived !== undefined && unkept(arrived, at);
        });
        const hidden = hiddenByHistory(
          obs.pages,
          intentId,
          createdAt,
          ctx.end,
          tickEndOf(spans, ctx.end),
          ctx.deaths,
          walkRefusals(ctx.over(undefined, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)),
        );
        if (ws.length > 0 && Math.min(inSpan.to, ctx.end) - calmFrom < MARGIN_MS + 60_000) count.excused('W1', ws[0]!.why);
        // The tick's synced list replaced by one that cannot be read: this device's own copy decides.
        else if (malformed) count.excused('W1', 'a malformed synced autoTrackAddresses replaced the tick');
        else if (hidden) count.excused('W1', hidden);
        else v.push(`W1 ${intentId} created ${Math.round((createdAt - inSpan.from) / 1000)} s after the address was ticked, never tracked`);
      }
    } else if (unticked) {
      // No check could complete while it was ticked (deaths, refusals all along): nothing of that tick was kept, and
      // the next tick is a first look (an hour back) — the worker cannot tell it from the first tick.
      const ws = gapAfter ? ctx.over(undefined, gapAfter.from, gapAfter.to) : [];
      const calmIn = gapAfter ? gapAfter.to - Math.max(gapAfter.from, ...ws.map((w) => w.to)) : Number.POSITIVE_INFINITY;
      // A check on a service clock settled on `Date`s lying behind (by `lieMs`) reads from that much before where it
      // means to: an hour back from its time for a first look, the overlap for a tick again (docs/time.md accepts
      // 4 of 4 headers backed by a local clock as far off: one fresh worker's first check in 625 with one answer in
      // five lying, the clock as slow).
      const lied = lies.find((l) => createdAt < l.to && createdAt >= l.at + l.lieMs - FIRST_LOOK_MS - 2 * MIN);
      if (tracked && calmIn < MARGIN_MS)
        count.excused('W1', `no check completed while ticked: ${ws[0]?.why ?? `ticked for only ${Math.round(calmIn / 1000)} s`}`);
      else if (tracked && lied)
        count.excused(
          'W1',
          `the service clock settled on Date headers ${Math.round(-lied.lieMs / 1000)} s behind that agreed (ServiceClock.settled)`,
        );
      else if (tracked)
        v.push(
          `W1 ${intentId} created while the address was unticked (${Math.round((createdAt - ctx.end) / 1000)} s before the end) and tracked`,
        );
      else count.ok('W1');
    }
  }
  for (const r of ctx.finalList) if (r.intentId.startsWith('0xother')) v.push(`W1 a stranger's intent ${r.intentId} tracked`);
  const saved =
    (await get<Record<string, WatchedCheckpoint | number>>(
      'watched-checked-at',
      storesOn(ctx.world.idb.real)(DB_NAMES.settings, 'settings'),
    )) ?? {};
  for (const [address, c] of Object.entries(saved)) {
    const fromTime = typeof c === 'number' ? c : c.fromTime;
    if (fromTime * 1000 > ctx.end + 60_000)
      v.push(`W1 the checkpoint of ${address} is ${Math.round((fromTime * 1000 - ctx.end) / 60_000)} min after the end`);
    else count.ok('W1');
  }
  return v;
}
