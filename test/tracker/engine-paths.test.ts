/**
 * The engine's less travelled paths, each pinned to what the README's "Tracking policy" promises: the user's
 * operations (track again, retry, remove, stop), the sweeper's pace by regime, error answers of each kind, and a store
 * or settings read that fails. Expected figures come from the policy (DEFAULT_TUNING: 3 long-poll slots + 1 sweeper,
 * individual checks 12/min, sweeper gap 2.5 s / 5 s / busy 1 s, busy for 10 s after news, long-poll budget 18/min).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SvcServiceError, SvcTimeoutError } from '@/lib/api/errors';
import { MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { engineHarness, HONEST, PENDING, sid } from './engine-harness';
import { RecordingNotifier, ScriptedTransport, settle, VirtualClock } from './fakes';

const rateLimited = (seconds: number) =>
  new SvcServiceError('WaitIntentReceipt', {
    errorName: 'RateLimited',
    code: 1007,
    msg: 'slow down',
    httpStatus: 429,
    retryAfterSeconds: seconds,
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('user operations', () => {
  it('track() again restarts an intent given up as not found, from now', async () => {
    const { clock, tracker, store, add } = engineHarness(20_000, null);
    add(1);
    await tracker.track(sid(1));
    await store.update(sid(1), (c) => (c ? { ...c, phase: 'not-found', gaveUpAt: 5 } : undefined));
    await clock.advance(60_000);
    const again = await tracker.track(sid(1));
    expect(again.added).toBe(false);
    expect(again.intent).toMatchObject({ phase: 'tracking', addedAt: clock.now() });
    tracker.stop();
  });

  it('retryNow() leaves finished intents finished, keeps when the others were added, and clears a pause that has ended', async () => {
    const { clock, tracker, store, service, add, states } = engineHarness(20_000, null);
    add(1, [[100, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']]]);
    add(2);
    await tracker.track(sid(1));
    await tracker.track(sid(2));
    const added2 = (await store.get(sid(2)))!.addedAt;
    // The next request is answered 429 (Retry-After 3 s).
    service.faults = [...Array(service.log.length).fill('ok'), '429'];
    await clock.advance(30_000);
    expect((await store.get(sid(1)))?.phase).toBe('final');
    // The 429 paused the tracker (the pause, served whole, is forgotten since).
    expect(states.some((st) => (st as { pausedUntil?: number }).pausedUntil !== undefined)).toBe(true);
    // The 429's pause (3 s) is long over.
    await clock.advance(60_000);
    const before = service.log.filter((e) => e.intentId === sid(1)).length;
    await tracker.retryNow();
    await clock.advance(10_000);
    expect(await store.get(sid(1))).toMatchObject({ phase: 'final', status: 'SUCCEEDED' });
    expect(service.log.filter((e) => e.intentId === sid(1))).toHaveLength(before);
    expect((await store.get(sid(2)))?.addedAt).toBe(added2);
    expect(states.at(-1)).toEqual({});
    tracker.stop();
  });

  it('retryNow(intentId) sends again only that intent’s request in flight; retryNow() sends every one again', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000, null);
    add(1);
    add(2);
    await tracker.track(sid(1));
    await tracker.track(sid(2));
    await clock.advance(5_000);
    const abandoned = () => service.log.filter((e) => e.outcome === 'abandoned').map((e) => e.intentId);
    expect(abandoned()).toEqual([]);
    await tracker.retryNow(sid(1));
    await clock.advance(100);
    expect(abandoned()).toEqual([sid(1)]);
    const t = clock.now();
    await tracker.retryNow();
    await clock.advance(100);
    expect(abandoned().sort()).toEqual([sid(1), sid(1), sid(2)].sort());
    // Each is asked again at once, and no error is recorded for a request the tracker ended itself.
    for (const id of [sid(1), sid(2)]) expect(service.log.some((e) => e.intentId === id && e.start >= t && e.start <= t + 50)).toBe(true);
    tracker.stop();
  });

  it('a long-poll ended by retryNow() records no error and no back-off', async () => {
    const { clock, tracker, store, add } = engineHarness(20_000, null);
    add(1);
    await tracker.track(sid(1));
    await clock.advance(5_000);
    await tracker.retryNow();
    await clock.advance(5);
    const t = (await store.get(sid(1)))!;
    expect(t.lastError).toBeUndefined();
    expect(t.retry).toBeUndefined();
    tracker.stop();
  });

  it('list() gives the intents newest added first', async () => {
    const { clock, tracker, add } = engineHarness(20_000, null);
    for (const n of [1, 2, 3]) {
      add(n);
      await tracker.track(sid(n));
      await clock.advance(1_000);
    }
    expect((await tracker.list()).map((t) => t.intentId)).toEqual([sid(3), sid(2), sid(1)]);
    tracker.stop();
  });

  it('remove() ends a read in flight and stop() a history page in flight, at once', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000, HONEST, {}, 2_000);
    for (let n = 1; n <= 4; n++) add(n);
    for (let n = 1; n <= 3; n++) await tracker.track(sid(n));
    await clock.advance(30_000);
    // The 4th intent's first read goes to the sweeper (the three slots are taken) and takes 2 s.
    await tracker.track(sid(4));
    await clock.advance(500);
    await tracker.remove(sid(4));
    await clock.advance(1);
    const read = service.log.filter((e) => e.intentId === sid(4));
    expect(read.map((e) => [e.op, e.outcome, e.end! - e.start])).toEqual([['receipt', 'abandoned', 500]]);
    const inFlight = () => service.log.find((e) => e.op === 'history' && e.end === undefined);
    for (let i = 0; i < 100 && !inFlight(); i++) await clock.advance(100);
    const page = inFlight()!;
    expect(page).toBeDefined();
    tracker.stop();
    await clock.advance(1);
    expect(page.outcome).toBe('abandoned');
  });

  it('remove() ends the intent’s request in flight at once', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000, null);
    add(1);
    await tracker.track(sid(1));
    await clock.advance(5_000);
    await tracker.remove(sid(1));
    await clock.advance(1);
    const last = service.log.at(-1)!;
    expect([last.intentId, last.outcome, last.end]).toEqual([sid(1), 'abandoned', clock.now() - 1]);
  });
});

describe('a stopped tracker', () => {
  it('sends nothing when stopped while it reads its settings, and shows nothing when resumed after stop()', async () => {
    const { clock, service, store, add } = engineHarness(20_000, null);
    add(1);
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => {
      open = r;
    });
    const notifier = new RecordingNotifier();
    const tracker = new Tracker({
      store,
      clock,
      notifier,
      transport: async () => {
        await gate;
        return service.transport();
      },
    });
    await tracker.track(sid(1));
    await settle();
    tracker.stop();
    open();
    await clock.advance(60_000);
    expect(service.log).toEqual([]);

    await store.put({ intentId: sid(2), addedAt: 1, lastStates: [], phase: 'final', status: 'SUCCEEDED', notification: 'pending' });
    const late = new Tracker({ store, clock, notifier, transport: async () => service.transport() });
    late.stop();
    await late.resume();
    await clock.advance(1_000);
    expect(notifier.shown).toEqual([]);
    expect((await store.get(sid(2)))?.notification).toBe('pending');
  });

  it('a wake-up that fails (settings unreadable) is logged, and the next one works', async () => {
    const { clock, service, store, add } = engineHarness(20_000, null);
    add(1);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const tracker = new Tracker({
      store,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => {
        if (fail) throw new Error('settings unreadable');
        return service.transport();
      },
    });
    await tracker.track(sid(1));
    await clock.advance(1_000);
    expect(service.log).toEqual([]);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('tracker'), 'settings unreadable');
    fail = false;
    await tracker.resume();
    await clock.advance(1_000);
    expect(service.log.some((e) => e.intentId === sid(1))).toBe(true);
    tracker.stop();
  });
});

describe('rate limits and rejected keys', () => {
  /** A tracker over a scripted transport whose settings read can be held open (a pump waits in it). */
  function gated() {
    const clock = new VirtualClock();
    const transport = new ScriptedTransport();
    let gate: Promise<void> | undefined;
    let open: () => void = () => {};
    const tracker = new Tracker({
      store: new MemoryStore(),
      clock,
      notifier: new RecordingNotifier(),
      random: () => 0,
      transport: async () => {
        await gate;
        return transport;
      },
    });
    const hold = () => {
      gate = new Promise<void>((r) => {
        open = r;
      });
    };
    const release = () => {
      gate = undefined;
      open();
    };
    return { clock, transport, tracker, hold, release };
  }
  const A = `0x${'a'.repeat(64)}`;
  const B = `0x${'b'.repeat(64)}`;

  it('a pause that begins while a wake-up reads the settings holds that wake-up’s requests', async () => {
    const { clock, transport, tracker, hold, release } = gated();
    let fail: (e: Error) => void = () => {};
    transport.script(A, () => new Promise((_, reject) => (fail = reject)));
    await tracker.track(A);
    await settle();
    hold();
    await tracker.track(B);
    await settle();
    fail(rateLimited(20));
    await settle();
    release();
    await settle();
    expect(transport.callsFor(B)).toHaveLength(0);
    await clock.advance(19_000);
    expect(transport.callsFor(B)).toHaveLength(0);
    await clock.advance(1_500);
    expect(transport.callsFor(B).length).toBeGreaterThan(0);
    tracker.stop();
  });

  it('a long-poll held past the cap during a pause is not followed by a read before the pause ends', async () => {
    const { clock, transport, tracker } = gated();
    let timeOut: (e: Error) => void = () => {};
    let fail: (e: Error) => void = () => {};
    transport.script(A, () => new Promise((_, reject) => (timeOut = reject)));
    transport.script(B, () => new Promise((_, reject) => (fail = reject)));
    await tracker.track(A);
    await tracker.track(B);
    await settle();
    fail(rateLimited(20));
    await settle();
    timeOut(new SvcTimeoutError('WaitIntentReceipt', 48_000));
    await settle();
    expect(transport.callsFor(A)).toHaveLength(1);
    await clock.advance(19_000);
    expect(transport.callsFor(A)).toHaveLength(1);
    tracker.stop();
  });

  it('a second, shorter Retry-After does not shorten the pause of the first', async () => {
    const { clock, transport, tracker } = gated();
    const failers: Array<(e: Error) => void> = [];
    for (const id of [A, B]) transport.script(id, () => new Promise((_, reject) => failers.push(reject)));
    await tracker.track(A);
    await tracker.track(B);
    await settle();
    failers[0]!(rateLimited(30));
    await settle();
    const until = tracker.state.pausedUntil;
    expect(until).toBe(clock.now() + 30_000);
    failers[1]!(rateLimited(3));
    await settle();
    expect(tracker.state.pausedUntil).toBe(until);
    tracker.stop();
  });

  it('a rejected key ends the other long-polls in flight at once', async () => {
    const { transport, tracker } = gated();
    let ended = false;
    let reject: (e: Error) => void = () => {};
    transport.script(
      A,
      (_req, signal) =>
        new Promise((_, no) =>
          signal?.addEventListener('abort', () => {
            ended = true;
            no(new Error('aborted'));
          }),
        ),
    );
    transport.script(B, () => new Promise((_, no) => (reject = no)));
    await tracker.track(A);
    await tracker.track(B);
    await settle();
    expect(ended).toBe(false);
    reject(new SvcServiceError('WaitIntentReceipt', { errorName: 'AccessKeyNotFound', code: 1101, msg: 'no', httpStatus: 401 }));
    await settle();
    expect(tracker.state.keyRejected?.kind).toBe('key-rejected');
    expect(ended).toBe(true);
    tracker.stop();
  });

  it('an error answer with a Retry-After (503) is not asked again before it', async () => {
    const clock = new VirtualClock();
    const transport = new ScriptedTransport();
    const store = new MemoryStore();
    const tracker = new Tracker({ store, clock, notifier: new RecordingNotifier(), random: () => 0, transport: async () => transport });
    transport.script(
      sid(1),
      new SvcServiceError('WaitIntentReceipt', { errorName: 'Unavailable', code: -1, msg: 'busy', httpStatus: 503, retryAfterSeconds: 30 }),
    );
    await tracker.track(sid(1));
    await vi.waitFor(async () => expect((await store.get(sid(1)))?.retry?.attempt).toBe(1));
    expect((await store.get(sid(1)))!.retry!.nextAt - clock.now()).toBe(30_000);
    tracker.stop();
  });
});

describe('answers and their records', () => {
  it('lastChangeAt moves only when the status or a leg state changes', async () => {
    const { clock, tracker, store, add } = engineHarness(0, null);
    add(1, [
      [1_000, 'EXECUTING', PENDING],
      [30_000, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'UNKNOWN']],
    ]);
    const t0 = clock.now();
    await tracker.track(sid(1));
    await clock.advance(20_000);
    // EXECUTING since 1 s; answers since then said the same.
    const a = (await store.get(sid(1)))!;
    expect(a.lastCheckedAt).toBeGreaterThan(t0 + 15_000);
    expect(a.lastChangeAt).toBeGreaterThanOrEqual(t0 + 1_000);
    expect(a.lastChangeAt).toBeLessThan(t0 + 7_000);
    await clock.advance(20_000);
    const b = (await store.get(sid(1)))!;
    expect(b.lastChangeAt).toBeGreaterThanOrEqual(t0 + 31_000);
    expect(b.lastChangeAt).toBeLessThan(t0 + 37_000);
    tracker.stop();
  });

  it('an INVALID intent is final without a notification', async () => {
    const { clock, tracker, store, notifier, add } = engineHarness(20_000, null);
    add(1, [[500, 'INVALID', ['UNKNOWN', 'UNKNOWN', 'UNKNOWN']]]);
    await tracker.track(sid(1));
    await clock.advance(60_000);
    expect(await store.get(sid(1))).toMatchObject({ phase: 'final', status: 'INVALID', notification: 'none' });
    expect(notifier.shown).toEqual([]);
    tracker.stop();
  });

  it('leg changes one after another in a long-poll slot are each seen when they happen', async () => {
    // 30 changes 2 s apart: more than the long-poll budget (3 + 18/min) if news spent it, and each must be seen at once.
    const steps: Array<[number, string, string[]]> = [];
    for (let i = 0; i < 30; i++) steps.push([2_000, 'EXECUTING', [`S${i}`, 'PENDING', 'UNKNOWN']]);
    steps.push([2_000, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']]);
    const { clock, tracker, service, store, add } = engineHarness(20_000, null);
    add(1, steps);
    const t0 = clock.now();
    await tracker.track(sid(1));
    await clock.advance(120_000);
    const answers = service.log.filter((e) => e.op === 'wait' && e.outcome === 'answer' && e.end! > t0 + 1_000);
    // Every answer after the first comes within one request latency of its change (a multiple of 2 s).
    for (const e of answers) expect((e.end! - t0) % 2_000).toBeLessThanOrEqual(20);
    expect(answers.length).toBeGreaterThanOrEqual(30);
    expect((await store.get(sid(1)))?.notifiedAt).toBeLessThanOrEqual(t0 + 62_000 + 50);
    tracker.stop();
  });

  it('refresh() reads with GetIntentReceipt even when the intent was heard of a moment ago', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000, null);
    add(1);
    await tracker.track(sid(1));
    await clock.advance(3_000);
    const before = service.log.length;
    const refreshed = tracker.refresh(sid(1));
    await clock.advance(100);
    await refreshed;
    expect(service.log.slice(before).map((e) => [e.op, e.outcome])).toEqual([
      ['receipt', 'answer'],
      ['wait', undefined],
    ]);
    tracker.stop();
  });

  it('not found: "not yet" while the grace lasts, then "does not know"', async () => {
    const { clock, tracker, store, add } = engineHarness(20_000, null, { notFoundGraceMs: 30_000 });
    add(1, undefined, { visibleAt: Number.POSITIVE_INFINITY });
    await tracker.track(sid(1));
    await clock.advance(1_000);
    expect((await store.get(sid(1)))?.lastError?.message).toMatch(/not know this intent yet/);
    await clock.advance(40_000);
    expect(await store.get(sid(1))).toMatchObject({ phase: 'not-found', lastError: { kind: 'not-found' } });
    expect((await store.get(sid(1)))?.lastError?.message).toMatch(/does not know this intent ID/);
    tracker.stop();
  });

  it('not configured: each intent says so once, naming the settings', async () => {
    const changed: string[] = [];
    const { clock, tracker, add } = engineHarness(20_000, null, { transport: async () => undefined, onChange: (id) => changed.push(id) });
    add(1);
    await tracker.track(sid(1));
    await clock.advance(1_000);
    await tracker.resume();
    await tracker.resume();
    await clock.advance(1_000);
    const t = (await tracker.list())[0]!;
    expect(t.lastError?.message).toMatch(/settings/);
    // One change for the track, one for the message; the later wake-ups write nothing.
    expect(changed).toEqual([sid(1), sid(1)]);
    tracker.stop();
  });

  it('a store that fails a write loses that answer only: the intent is asked again and nothing is thrown', async () => {
    const { clock, service, add } = engineHarness(20_000, null);
    add(1, [[5_000, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']]]);
    const store = new MemoryStore();
    const update = store.update.bind(store);
    let failures = 0;
    store.update = (id, fn) => {
      if (failures < 2 && store.map.has(id)) {
        failures++;
        return Promise.reject(new Error('QuotaExceededError'));
      }
      return update(id, fn);
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const tracker = new Tracker({
      store,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => service.transport(),
      random: () => 1,
    });
    await tracker.track(sid(1));
    await clock.advance(60_000);
    expect(failures).toBe(2);
    // The failed write of the error record is logged, not thrown out of the long-poll.
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('could not record'), expect.anything());
    expect(await store.get(sid(1))).toMatchObject({ phase: 'final', status: 'SUCCEEDED', notification: 'shown' });
    tracker.stop();
  });
});

describe('the sweeper’s pace', () => {
  it('a first read between history pages does not move them when every intent holds a slot', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000);
    add(1);
    add(2);
    await tracker.track(sid(1));
    await tracker.track(sid(2));
    await clock.advance(60_000);
    const last = service.log.filter((e) => e.op === 'history').at(-1)!.start;
    await clock.advance(last + 1_000 - clock.now());
    add(3);
    await tracker.track(sid(3));
    await clock.advance(20_000);
    const pages = service.log.filter((e) => e.op === 'history' && e.start >= last).map((e) => e.start);
    expect(pages.slice(0, 2)).toEqual([last, last + 5_000]);
    tracker.stop();
  });

  it('individual checks of intents outside the slots: one every 5 s, not moved by a new intent’s first read', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000);
    for (let n = 1; n <= 15; n++) add(n, undefined, { inHistory: false });
    for (let n = 1; n <= 15; n++) await tracker.track(sid(n));
    // Past the first minutes, in which every intent's EXECUTING and leg states are learnt (news: a busy pace).
    await clock.advance(300_000);
    // The sweeper's reads: not those a long-poll slot makes before its long-poll (followed by it at once).
    const reads = () =>
      service.log
        .filter((e) => e.op === 'receipt' && e.intentId !== sid(99))
        .filter((e) => !service.log.some((w) => w.op === 'wait' && w.intentId === e.intentId && w.start === e.end))
        .map((e) => e.start);
    // Midway between two individual checks (5 s apart; their phase depends on the first minutes' pace).
    const since = clock.now() - reads().at(-1)!;
    if (since > 3_000) await clock.advance(5_000 - since + 1_200);
    const last = reads().at(-1)!;
    // Between two individual checks, a new intent's first read.
    expect(clock.now() - last).toBeLessThan(4_900);
    const trackedAt = clock.now();
    add(99, undefined, { inHistory: false });
    await tracker.track(sid(99));
    await clock.advance(60_000);
    expect(service.log.find((e) => e.intentId === sid(99))).toMatchObject({ op: 'receipt', start: trackedAt });
    const steady = reads().filter((at) => at >= last - 30_000);
    const gaps = steady.slice(1).map((at, i) => at - steady[i]!);
    // Never closer than 5 s (12 a minute)...
    expect(gaps.length).toBeGreaterThan(10);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(5_000);
    // ...and the one after the new intent's first read is not put off by it: due 5 s after the last, taken at the
    // sweeper's first turn after that (busy after the new intent's first answer: turns 0.5 s apart).
    const next = reads().find((at) => at > trackedAt)!;
    expect(next - last).toBeLessThanOrEqual(6_000);
    tracker.stop();
  });

  it('without GetIntentHistory every sweeper turn (2.5 s apart) is an individual check', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000, null);
    for (let n = 1; n <= 6; n++) add(n);
    for (let n = 1; n <= 6; n++) await tracker.track(sid(n));
    await clock.advance(60_000);
    const from = clock.now();
    await clock.advance(60_000);
    const reads = service.log.filter((e) => e.op === 'receipt' && e.start >= from).map((e) => e.start);
    expect(reads.slice(1).map((at, i) => at - reads[i]!)).toEqual(Array(reads.length - 1).fill(2_500));
    expect(reads.length).toBeGreaterThanOrEqual(23);
    tracker.stop();
  });

  it('busy for 10 s after news: the pages of a cycle follow at once, cycles start 0.5 s apart; then 2.5 s again', async () => {
    const busy = { ...HONEST, others: 450, othersSpanMs: 90_000, ignoreOwner: true };
    const { clock, tracker, service, add } = engineHarness(20_000, busy);
    for (let n = 1; n <= 6; n++) add(n, n === 6 ? [[200_000, 'EXECUTING', ['SUCCEEDED', 'PENDING', 'UNKNOWN']]] : undefined);
    for (let n = 1; n <= 6; n++) await tracker.track(sid(n));
    await clock.advance(100_000);
    service.seedOthers(7, ['0xa1']);
    await clock.advance(100_000);
    // The change of sid(6) at 200 s is news, however it was learnt.
    const news = service.log.find(
      (e) => e.intentId === sid(6) && e.outcome === 'answer' && e.start >= clock.now() - 100_000 && e.end! >= clock.now() - 1,
    )?.end;
    await clock.advance(30_000);
    const changeAt = clock.now() - 30_000;
    const learnt = news ?? service.log.filter((e) => e.intentId === sid(6) && e.end! >= changeAt).map((e) => e.end!)[0]!;
    const sweeps = service.log.filter((e) => e.op !== 'wait');
    const during = sweeps.filter((e) => e.start > learnt && e.start < learnt + 10_000);
    const gaps = during.slice(1).map((e, i) => e.start - during[i]!.start);
    const atOnce = during.slice(1).filter((e, i) => e.start === during[i]!.end).length;
    expect(atOnce).toBeGreaterThan(3);
    expect(gaps).toContain(500);
    for (let i = 1; i < during.length; i++) expect([during[i - 1]!.end, during[i - 1]!.start + 500]).toContain(during[i]!.start);
    const after = sweeps.filter((e) => e.start > learnt + 12_000 && e.start < learnt + 28_000);
    for (let i = 1; i < after.length; i++) expect(after[i]!.start - after[i - 1]!.start).toBe(2_500);
    tracker.stop();
  });

  it('busy, with intents out of long-polls for want of tokens: an intent that ends is told within 0.6 s, however few are tracked', async () => {
    // Found by the 500-intent Chromium bench (2026-11-25): the last three, none in a long-poll, were counted as
    // "each in a slot", so the next page was 5 s away after the news that made the tracker busy (one was told 4.9 s
    // after it ended).
    const late: number[] = [];
    for (let k = 0; k < 10; k++) {
      const { clock, tracker, notifier, service, add } = engineHarness(0);
      // What the user sees: when the notifier is asked to show each intent.
      const shownAt = new Map<string, number>();
      const show = notifier.show.bind(notifier);
      notifier.show = async (intent) => {
        shownAt.set(intent.intentId, clock.now());
        return show(intent);
      };
      // A server that answers long-polls at once: the slots' tokens are soon spent (18 a minute for all three).
      add(1, [
        [1_000, 'EXECUTING', PENDING],
        [29_000, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']],
      ]);
      add(2, [[1_000, 'EXECUTING', PENDING]]);
      add(3, [[1_000, 'EXECUTING', PENDING]]);
      for (let n = 1; n <= 3; n++) await tracker.track(sid(n));
      while (!shownAt.has(sid(1))) await clock.advance(100);
      // News (sid(1) told): busy. sid(2) ends a moment later, at a different point of the pace each time.
      const endAt = clock.now() + 100 + k * 230;
      service.intents.get(sid(2))!.steps.push({ at: endAt, status: 'SUCCEEDED', states: ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'] });
      await clock.advance(30_000);
      late.push(shownAt.get(sid(2))! - endAt);
      tracker.stop();
    }
    // The busy pace (a page every 0.5 s) and one request's time (10 ms here); the old pace gave 1.1–3.1 s.
    for (const ms of late) expect(ms).toBeLessThanOrEqual(600);
  });

  it('busy: an individual check between two history pages does not put the second off', async () => {
    // Seen in the 500-intent Chromium bench (2026-11-25): a page due 0.5 s after the last waited 0.5 s more behind an
    // individual check that took the sweeper's turn.
    const { clock, tracker, service, add } = engineHarness(20_000);
    // Thirty intents, one ending every 2 s from 60 s on (news all along: busy); the others, outside the slots, owe
    // individual checks (one every 5 s), whose answers are no news.
    for (let n = 1; n <= 30; n++)
      add(n, [
        [0, 'EXECUTING', PENDING],
        [60_000 + n * 2_000, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']],
      ]);
    for (let n = 1; n <= 30; n++) await tracker.track(sid(n));
    const t0 = clock.now();
    await clock.advance(90_000);
    const from = t0 + 61_000;
    const to = t0 + 78_000;
    const sweeps = service.log.filter((e) => e.op !== 'wait' && e.start >= from && e.start <= to);
    let between = 0;
    for (let i = 1; i < sweeps.length; i++) {
      const page = sweeps[i]!;
      if (page.op !== 'history') continue;
      const previous = sweeps.slice(0, i).findLast((e) => e.op === 'history');
      if (!previous || previous.end === undefined) continue;
      // Each page starts at most the busy gap (and one request's 10 ms) after the previous page started.
      if (sweeps.slice(sweeps.indexOf(previous) + 1, i).some((e) => e.op === 'receipt')) between++;
      expect(page.start - previous.start, `page at ${page.start - t0}`).toBeLessThanOrEqual(500 + 10);
    }
    expect(between).toBeGreaterThan(0);
    tracker.stop();
  });

  it('a history page that fails is not asked again before the gap; a 429 on it pauses everything; a 401 rejects the key', async () => {
    for (const [fault, check] of [
      ['500', 'gap'],
      ['429', 'paused'],
      ['401', 'key'],
    ] as const) {
      const { clock, tracker, service, add, states } = engineHarness(20_000);
      for (let n = 1; n <= 5; n++) add(n);
      for (let n = 1; n <= 5; n++) await tracker.track(sid(n));
      await clock.advance(30_000);
      const calls = service.log.length;
      service.faults = [...Array(calls).fill('ok'), fault, fault, fault, fault, fault, fault];
      // The faults hit whatever comes next; find the first history page among them.
      await clock.advance(30_000);
      const failed = service.log.slice(calls).find((e) => e.op === 'history' && e.outcome === 'error')!;
      expect(failed, fault).toBeDefined();
      const next = service.log.find((e) => e.op !== 'wait' && e.start > failed.start)!;
      if (check === 'gap') {
        expect(next.start - failed.start).toBeGreaterThanOrEqual(1_000);
        expect(tracker.state).toEqual({});
      } else if (check === 'paused') {
        // The 429 paused everything (the pause, served whole, is forgotten since).
        expect(states.some((st) => ((st as { pausedUntil?: number }).pausedUntil ?? 0) > 0)).toBe(true);
        expect(tracker.state.keyRejected).toBeUndefined();
      } else {
        expect(tracker.state.keyRejected?.kind).toBe('key-rejected');
        expect(tracker.state.pausedUntil).toBeUndefined();
      }
      tracker.stop();
    }
  });

  it('after a history page nothing is left counted in flight', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000);
    add(1, [[1_000, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']]]);
    await tracker.track(sid(1));
    await clock.advance(30_000);
    expect(service.log.some((e) => e.op === 'history')).toBe(true);
    expect(tracker.inFlight).toBe(0);
    expect(tracker.busy).toBe(false);
    tracker.stop();
  });

  it('long-polls that learn nothing: at most the 3 slots’ tokens plus 18 in a minute, whatever the server’s wait', async () => {
    const { clock, tracker, service, add } = engineHarness(0, null);
    for (let n = 1; n <= 3; n++) add(n, []);
    const t0 = clock.now();
    for (let n = 1; n <= 3; n++) await tracker.track(sid(n));
    await clock.advance(60_000);
    const waits = service.log.filter((e) => e.op === 'wait' && e.start < t0 + 60_000);
    // Three first long-polls learn the status (news: their tokens come back); then 3 + 18 that learn nothing.
    expect(waits.length).toBeLessThanOrEqual(3 + 3 + 18);
    expect(waits.length).toBeGreaterThanOrEqual(3 + 3 + 17);
    tracker.stop();
  });
});

describe('history rows', () => {
  it('reads history as soon as one tracked intent has a creation time, even if another is still unknown', async () => {
    const { clock, tracker, service, add } = engineHarness(20_000);
    add(1);
    add(2, undefined, { visibleAt: Number.POSITIVE_INFINITY });
    await tracker.track(sid(1));
    await tracker.track(sid(2));
    await clock.advance(30_000);
    expect(service.log.some((e) => e.op === 'history')).toBe(true);
    tracker.stop();
  });
});

describe('setBaseline', () => {
  it('records the first ETA baseline found for a tracked intent, keeps it, and creates nothing for an unknown one', async () => {
    const { tracker, store, add } = engineHarness(20_000, null);
    add(1);
    await tracker.track(sid(1));
    await tracker.setBaseline(sid(1), { routeDuration: 120 });
    expect(await store.get(sid(1))).toMatchObject({ routeDuration: 120 });
    await tracker.setBaseline(sid(1), { estimatedDuration: 60 });
    expect((await store.get(sid(1)))?.estimatedDuration).toBeUndefined();
    await tracker.track(sid(2), { estimatedDuration: 90 });
    await tracker.setBaseline(sid(2), { routeDuration: 30 });
    expect(await store.get(sid(2))).toMatchObject({ estimatedDuration: 90 });
    expect((await store.get(sid(2)))?.routeDuration).toBeUndefined();
    await tracker.setBaseline(sid(3), { routeDuration: 30 });
    expect(await store.get(sid(3))).toBeUndefined();
    expect((await tracker.list()).map((t) => t.intentId).sort()).toEqual([sid(1), sid(2)]);
    tracker.stop();
  });
});
