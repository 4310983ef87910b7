import { describe, expect, it, vi } from 'vitest';
import { SvcNetworkError, SvcServiceError, SvcTimeoutError } from '@/lib/api/errors';
import type { IntentStore } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import type { TrackerDeps } from '@/lib/tracker/types';
import { engineHarness, HONEST, sid } from './engine-harness';
import { FakeService } from './fake-service';
import { EventClock, freshStore, RecordingNotifier, receipt, ScriptedTransport, settle, VirtualClock } from './fakes';

const ID = `0x${'1'.repeat(64)}`;
const ID2 = `0x${'2'.repeat(64)}`;

function setup(overrides: Partial<TrackerDeps> = {}, store: IntentStore = freshStore()) {
  const clock = new VirtualClock();
  const transport = new ScriptedTransport();
  const notifier = new RecordingNotifier();
  const deps: TrackerDeps = {
    store,
    clock,
    notifier,
    transport: async () => transport,
    random: () => 1,
    ...overrides,
  };
  return { clock, transport, notifier, store, deps, tracker: new Tracker(deps) };
}

const serviceError = (errorName: string, code: number, httpStatus: number, retryAfterSeconds?: number) =>
  new SvcServiceError('WaitIntentReceipt', {
    errorName,
    code,
    msg: errorName,
    httpStatus,
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
  });

describe('Tracker', () => {
  it('passes receiptStates back as lastReceiptStates and persists every answer', async () => {
    const { tracker, transport, store } = setup();
    transport.script(
      ID,
      { intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: ['PENDING', 'UNKNOWN', 'UNKNOWN'], done: false },
      { intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'], done: false },
    );
    await tracker.track(ID);
    await vi.waitFor(() => expect(transport.callsFor(ID)).toHaveLength(3));
    expect(transport.callsFor(ID).map((c) => c.lastReceiptStates)).toEqual([
      [],
      ['PENDING', 'UNKNOWN', 'UNKNOWN'],
      ['SUCCEEDED', 'PENDING', 'UNKNOWN'],
    ]);
    const saved = await store.get(ID);
    expect(saved).toMatchObject({ status: 'EXECUTING', phase: 'tracking', lastStates: ['SUCCEEDED', 'PENDING', 'UNKNOWN'] });
    tracker.stop();
  });

  it('keeps tracking an intent whose removal IndexedDB refused (disk full): still listed, still asked, told when it ends', async () => {
    // Found by the campaign of the whole worker: the intent was gone from the list and never asked again, yet kept in
    // the store, to come back after a restart.
    const store = new MemoryStore();
    const refusing: IntentStore = {
      get: (k) => store.get(k),
      list: () => store.list(),
      put: (t) => store.put(t),
      update: (k, fn) => store.update(k, fn),
      updateMany: (ks, fn) => store.updateMany(ks, fn),
      remove: () => Promise.reject(new DOMException('disk full', 'QuotaExceededError')),
    };
    const { tracker, transport, notifier, clock } = setup({}, refusing);
    transport.script(ID, { intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: ['PENDING', 'UNKNOWN', 'UNKNOWN'], done: false });
    await tracker.track(ID);
    await vi.waitFor(() => expect(transport.callsFor(ID)).toHaveLength(2));
    const asked = transport.callsFor(ID).length;
    // The next request for it is answered SUCCEEDED (the one in flight is cut by the removal).
    transport.script(ID, { intentReceipt: receipt(ID, 'SUCCEEDED'), receiptStates: ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'], done: true });
    await expect(tracker.remove(ID)).rejects.toThrow('disk full');
    expect((await tracker.list()).map((t) => t.intentId)).toEqual([ID]);
    await clock.advance(65_000);
    expect(notifier.shown.map((t) => [t.intentId, t.status])).toEqual([[ID, 'SUCCEEDED']]);
    expect(transport.callsFor(ID).length).toBeGreaterThan(asked);
    tracker.stop();
  });

  it('get() during a removal awaiting the store answers its outcome: the intent when refused, nothing when done', async () => {
    // The notifier's delivery asks get() before it drops the jobs of an intent no longer tracked (N2): a removal not yet
    // answered must not read as done.
    const store = new MemoryStore();
    let answer!: (refused: boolean) => void;
    const slow: IntentStore = {
      get: (k) => store.get(k),
      list: () => store.list(),
      put: (t) => store.put(t),
      update: (k, fn) => store.update(k, fn),
      updateMany: (ks, fn) => store.updateMany(ks, fn),
      remove: (k) =>
        new Promise<void>((resolve, reject) => {
          answer = (refused) => (refused ? reject(new DOMException('disk full', 'QuotaExceededError')) : resolve(store.remove(k)));
        }),
    };
    const { tracker } = setup({}, slow);
    await tracker.track(ID);
    await tracker.track(ID2);
    const refused = tracker.remove(ID);
    const during = tracker.get(ID);
    await new Promise((r) => setTimeout(r, 20));
    answer(true);
    await expect(refused).rejects.toThrow('disk full');
    expect((await during)?.intentId).toBe(ID);
    const removed = tracker.remove(ID2);
    const after = tracker.get(ID2);
    await new Promise((r) => setTimeout(r, 20));
    answer(false);
    await removed;
    expect(await after).toBeUndefined();
    tracker.stop();
  });

  it('notifies exactly once when the intent succeeds, and stops calling', async () => {
    const { tracker, transport, notifier, store } = setup();
    transport.script(
      ID,
      { intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: ['PENDING'], done: false },
      { intentReceipt: receipt(ID, 'SUCCEEDED'), receiptStates: ['SUCCEEDED'], done: true },
    );
    await tracker.track(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.notification).toBe('shown'));
    await tracker.resume();
    await tracker.track(ID);
    await settle();
    expect(notifier.shown.map((i) => [i.intentId, i.status])).toEqual([[ID, 'SUCCEEDED']]);
    expect(transport.callsFor(ID)).toHaveLength(2);
    expect(await store.get(ID)).toMatchObject({ phase: 'final', status: 'SUCCEEDED' });
  });

  it('does not notify again after a worker restart, and delivers a notification left pending by a dead worker', async () => {
    const store = freshStore();
    const first = setup({}, store);
    first.transport.script(ID, { intentReceipt: receipt(ID, 'FAILED', 'slippage'), receiptStates: ['FAILED'], done: true });
    await first.tracker.track(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.notification).toBe('shown'));
    first.tracker.stop();

    // A crash between the write of the final status and the notification leaves it pending.
    await store.put({
      intentId: ID2,
      addedAt: 1,
      lastStates: ['SUCCEEDED'],
      phase: 'final',
      status: 'SUCCEEDED',
      receipt: receipt(ID2, 'SUCCEEDED'),
      notification: 'pending',
    });

    const second = setup({}, store);
    await second.tracker.resume();
    await vi.waitFor(async () => expect((await store.get(ID2))?.notification).toBe('shown'));
    await second.tracker.resume();
    await settle();
    expect(first.notifier.shown.map((i) => i.intentId)).toEqual([ID]);
    expect(second.notifier.shown.map((i) => i.intentId)).toEqual([ID2]);
    expect(second.transport.calls).toHaveLength(0);
  });

  it('does not show a pending notification again when the browser already has it on screen', async () => {
    const { tracker, notifier, store } = setup();
    await store.put({ intentId: ID, addedAt: 1, lastStates: [], phase: 'final', status: 'SUCCEEDED', notification: 'pending' });
    notifier.onScreen.add(ID);
    await tracker.resume();
    await vi.waitFor(async () => expect((await store.get(ID))?.notification).toBe('shown'));
    expect(notifier.shown).toHaveLength(0);
  });

  it('backs off exponentially (full jitter, capped) on 5xx and network errors, then recovers', async () => {
    const { tracker, transport, clock, store } = setup({ backoffBaseMs: 1000, backoffCapMs: 4000 });
    transport.script(
      ID,
      serviceError('WebrpcInternalError', -7, 500),
      new SvcNetworkError('WaitIntentReceipt', 'http://x', 'reset'),
      serviceError('WebrpcInternalError', -7, 500),
      serviceError('WebrpcInternalError', -7, 500),
      { intentReceipt: receipt(ID, 'SUCCEEDED'), receiptStates: ['SUCCEEDED'], done: true },
    );
    await tracker.track(ID);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await vi.waitFor(async () => expect((await store.get(ID))?.retry?.attempt).toBe(attempt));
      const t = (await store.get(ID))!;
      delays.push(t.retry!.nextAt - clock.now());
      expect(t.lastError?.message).toBeTruthy();
      // Nothing is called before the back-off has passed.
      const callsBefore = transport.callsFor(ID).length;
      await clock.advance(delays[attempt - 1]! - 1);
      expect(transport.callsFor(ID)).toHaveLength(callsBefore);
      await clock.advance(1);
    }
    // random() = 1 gives the ceiling of each window: 1 s, 2 s, 4 s, then the 4 s cap.
    expect(delays).toEqual([1000, 2000, 4000, 4000]);
    await vi.waitFor(async () => expect((await store.get(ID))?.status).toBe('SUCCEEDED'));
    expect((await store.get(ID))?.retry).toBeUndefined();
    expect((await store.get(ID))?.lastError).toBeUndefined();
  });

  it('waits at least Retry-After on 429: the tracker-wide pause holds it, the intent waits for that pause alone', async () => {
    const { tracker, transport, clock, store } = setup({ random: () => 0 });
    transport.script(ID, serviceError('RateLimited', 1007, 429, 30), {
      intentReceipt: receipt(ID, 'EXECUTING'),
      receiptStates: ['PENDING'],
      done: false,
    });
    await tracker.track(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.retry?.attempt).toBe(1));
    expect(tracker.state.pausedUntil! - clock.now()).toBe(30_000);
    await clock.advance(29_000);
    expect(transport.callsFor(ID)).toHaveLength(1);
    await clock.advance(2_000);
    expect(transport.callsFor(ID).length).toBeGreaterThan(1);
    tracker.stop();
  });

  it('treats its own time-out of a long wait as "ask again", not as a failure', async () => {
    const { tracker, transport, store } = setup();
    transport.script(ID, new SvcTimeoutError('WaitIntentReceipt', 150_000), {
      intentReceipt: receipt(ID, 'SUCCEEDED'),
      receiptStates: ['SUCCEEDED'],
      done: true,
    });
    await tracker.track(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.status).toBe('SUCCEEDED'));
    expect(transport.callsFor(ID)).toHaveLength(2);
  });

  it('keeps checking a NotFound intent, soon at first, for the grace period, then marks it not found', async () => {
    const { tracker, transport, store, clock, notifier } = setup({ notFoundGraceMs: 60_000 });
    for (let i = 0; i < 100; i++) transport.script(ID, serviceError('NotFound', 8000, 400));
    await tracker.track(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.lastError?.kind).toBe('not-found-yet'));
    const first = (await store.get(ID))!;
    expect(first.phase).toBe('tracking');
    // 2 s at first: a just-committed intent is most likely to appear in the first seconds.
    expect(first.retry!.nextAt - clock.now()).toBe(2_000);
    await clock.advance(2_000);
    await vi.waitFor(() => expect(transport.callsFor(ID)).toHaveLength(2));
    await clock.advance(60_000);
    await vi.waitFor(async () => expect((await store.get(ID))?.phase).toBe('not-found'));
    const gaveUp = (await store.get(ID))!;
    expect(gaveUp.gaveUpAt).toBeGreaterThan(0);
    expect(gaveUp.lastError?.message).toContain('does not know this intent');
    const calls = transport.callsFor(ID).length;
    await clock.advance(600_000);
    expect(transport.callsFor(ID)).toHaveLength(calls);
    expect(notifier.shown).toHaveLength(0);
    transport.queues.set(ID, []);
    transport.script(ID, { intentReceipt: receipt(ID, 'SUCCEEDED'), receiptStates: [], done: true });
    await tracker.retryNow(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.phase).toBe('final'));
  });

  it('pauses the whole tracker on a rejected key without dropping anything, and resumes when told', async () => {
    const states: unknown[] = [];
    const { tracker, transport, store } = setup({ onStateChange: (s) => states.push(s) });
    transport.script(ID, serviceError('AccessKeyNotFound', 1101, 401));
    await tracker.track(ID);
    await vi.waitFor(() => expect(tracker.state.keyRejected?.kind).toBe('key-rejected'));
    await tracker.track(ID2);
    await settle();
    expect(transport.callsFor(ID)).toHaveLength(1);
    expect(transport.callsFor(ID2)).toHaveLength(0);
    expect((await store.list()).map((t) => t.phase)).toEqual(['tracking', 'tracking']);
    expect(states).toContainEqual(expect.objectContaining({ keyRejected: expect.objectContaining({ kind: 'key-rejected' }) }));
    transport.script(ID, { intentReceipt: receipt(ID, 'SUCCEEDED'), receiptStates: [], done: true });
    transport.script(ID2, { intentReceipt: receipt(ID2, 'SUCCEEDED'), receiptStates: [], done: true });
    await tracker.retryNow();
    await vi.waitFor(async () => expect((await store.list()).every((t) => t.phase === 'final')).toBe(true));
    expect(tracker.state.keyRejected).toBeUndefined();
  });

  it('slows the whole tracker on 429: no intent is asked before Retry-After', async () => {
    const { tracker, transport, clock } = setup({ random: () => 0 });
    transport.script(ID, serviceError('RateLimited', 1007, 429, 20));
    await tracker.track(ID);
    await vi.waitFor(() => expect(tracker.state.pausedUntil).toBe(clock.now() + 20_000));
    await tracker.track(ID2);
    await clock.advance(19_000);
    expect(transport.callsFor(ID2)).toHaveLength(0);
    await clock.advance(1_500);
    await vi.waitFor(() => expect(transport.callsFor(ID2).length).toBeGreaterThan(0));
    tracker.stop();
  });

  it('marks an intent COMMITTED past the 10-minute window as expired', async () => {
    const { tracker, transport, store, clock } = setup();
    const committed = { ...receipt(ID, 'COMMITTED'), createdAt: new Date(clock.now()).toISOString() };
    for (let i = 0; i < 300; i++)
      transport.script(ID, { intentReceipt: committed, receiptStates: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'], done: false });
    await tracker.track(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.status).toBe('COMMITTED'));
    await clock.advance(12 * 60_000);
    await vi.waitFor(async () => expect((await store.get(ID))?.phase).toBe('expired'));
    expect((await store.get(ID))?.lastError?.message).toContain('10 minutes');
  });

  it('waits at least 5 s between long-polls when the server answers unchanged at once', async () => {
    const { tracker, transport, clock } = setup();
    const same = { intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: ['PENDING'], done: false };
    for (let i = 0; i < 50; i++) transport.script(ID, same);
    await tracker.track(ID);
    await vi.waitFor(() => expect(transport.callsFor(ID)).toHaveLength(2));
    await settle();
    expect(transport.callsFor(ID)).toHaveLength(2);
    await clock.advance(60_000);
    // 2 at start, then one every 5 s.
    expect(transport.callsFor(ID).length).toBeGreaterThanOrEqual(12);
    expect(transport.callsFor(ID).length).toBeLessThanOrEqual(14);
    tracker.stop();
  });

  it('keeps at most 4 requests in flight whatever the number of intents, and every intent gets its turn', async () => {
    const { tracker, transport, store } = setup();
    const ids = Array.from({ length: 10 }, (_, i) => `0x${i.toString(16).padStart(64, 'a')}`);
    for (const id of ids) {
      // Each wait holds for a while, then answers done.
      transport.script(
        id,
        () => new Promise((r) => setTimeout(() => r({ intentReceipt: receipt(id, 'SUCCEEDED'), receiptStates: [], done: true }), 20)),
      );
      await tracker.track(id);
    }
    await vi.waitFor(async () => expect((await store.list()).every((t) => t.phase === 'final')).toBe(true));
    expect(transport.maxInFlight).toBe(4);
  });

  it('refresh() answers at once with the record as it is while nothing can be sent (no settings, rejected key)', async () => {
    const { tracker, store } = setup({ transport: async () => undefined });
    await tracker.track(ID);
    const record = await tracker.refresh(ID);
    expect(record?.intentId).toBe(ID);
    expect((await store.get(ID))?.phase).toBe('tracking');
  });

  it('tells the notifier to forget a removed intent, so that tracking it again may notify again', async () => {
    const { tracker, notifier } = setup();
    const forgotten: string[] = [];
    (notifier as unknown as { forget: (id: string) => Promise<void> }).forget = async (id) => {
      forgotten.push(id);
    };
    await tracker.track(ID);
    await tracker.remove(ID);
    expect(forgotten).toEqual([ID]);
    tracker.stop();
  });

  it('says so when the extension is not configured', async () => {
    const { tracker, store } = setup({ transport: async () => undefined });
    await tracker.track(ID);
    await vi.waitFor(async () => expect((await store.get(ID))?.lastError?.kind).toBe('not-configured'));
  });
});

describe('list and markSeen', () => {
  it('lists what the store holds, newest first, and marks only finished unseen intents seen, quietly', async () => {
    const store = freshStore();
    await store.put({ intentId: ID, addedAt: 1, lastStates: [], phase: 'final', status: 'FAILED', notification: 'shown' });
    await store.put({ intentId: ID2, addedAt: 2, lastStates: [], phase: 'tracking', notification: 'none' });
    const changed: string[] = [];
    const { tracker } = setup({ onChange: (id) => changed.push(id) }, store);
    expect((await tracker.list()).map((t) => t.intentId)).toEqual([ID2, ID]);
    expect(await tracker.markSeen()).toBe(1);
    expect(await tracker.markSeen()).toBe(0);
    expect((await store.get(ID))?.seen).toBe(true);
    expect((await store.get(ID2))?.seen).toBeUndefined();
    expect((await tracker.list()).find((t) => t.intentId === ID)?.seen).toBe(true);
    expect(changed).not.toContain(ID);
    tracker.stop();
  });

  it('marks a desk of finished intents seen in one store transaction, and none when the store refuses it', async () => {
    const store = freshStore();
    const ids = Array.from({ length: 1_000 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    for (const [i, intentId] of ids.entries())
      await store.put({ intentId, addedAt: i, lastStates: [], phase: 'final', status: 'SUCCEEDED', notification: 'shown' });
    await store.put({ intentId: ID2, addedAt: 5_000, lastStates: [], phase: 'tracking', notification: 'none' });
    const { tracker } = setup({}, store);
    await tracker.list();
    const update = vi.spyOn(store, 'update');
    const updateMany = vi.spyOn(store, 'updateMany').mockRejectedValueOnce(new Error('QuotaExceededError'));
    await expect(tracker.markSeen()).rejects.toThrow('QuotaExceededError');
    expect((await store.get(ids[0]!))?.seen).toBeUndefined();
    expect(await tracker.markSeen()).toBe(1_000);
    expect(updateMany).toHaveBeenCalledTimes(2);
    expect(update).not.toHaveBeenCalled();
    for (const intentId of ids) expect((await store.get(intentId))?.seen).toBe(true);
    expect((await store.get(ID2))?.seen).toBeUndefined();
    expect(await tracker.markSeen()).toBe(0);
    tracker.stop();
  });
});

describe('history sweeps', () => {
  it('after a page that found a finished intent the next page follows at once; idle, sweeper requests are 2.5 s apart', async () => {
    const clock = new EventClock();
    const service = new FakeService(clock, 20_000, HONEST);
    const t0 = clock.now();
    const ids = Array.from({ length: 8 }, (_, i) => `0x${String(i + 3).repeat(64)}`);
    ids.forEach((intentId, i) => {
      const steps = [
        { at: t0, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
        { at: t0 + 1_000, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] },
      ];
      // Two of them end at 60 s, the leg states unchanged: only history or a single read can tell.
      if (i >= 6) steps.push({ at: t0 + 60_000, status: 'SUCCEEDED', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] });
      service.add({ intentId, ownerAddress: '0xa1', createdAt: t0, steps, inHistory: true });
    });
    const { tracker } = setup({ clock, transport: async () => service.transport(), store: new MemoryStore() });
    for (const id of ids) await tracker.track(id);
    await clock.advance(180_000);
    const sweeps = service.log.filter((e) => e.op !== 'wait');
    const found = sweeps.findIndex((e) => e.op === 'history' && e.finalRows!.some((r) => r.status === 'SUCCEEDED'));
    expect(found).toBeGreaterThan(0);
    expect(sweeps[found + 1]!.start).toBe(sweeps[found]!.end);
    const idle = sweeps.filter((e) => e.start >= t0 + 120_000);
    const gaps = idle.slice(1).map((e, i) => e.start - idle[i]!.start);
    expect(gaps.length).toBeGreaterThan(10);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(2_500);
    tracker.stop();
  });
});

describe('overlapping start-ups', () => {
  // A worker woken by a message resumes twice at once (its own start-up and the popup's "resume"); a slow first
  // load must not put back an older picture of the store over what the tracker wrote since.

  /** A state store whose first read waits until `release()` is called (a slow first load). */
  function slowFirstStateStore() {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let gets = 0;
    const stateStore = {
      async get() {
        if (++gets === 1) await gate;
        return undefined;
      },
      async set() {},
    };
    return { stateStore, release: () => release() };
  }

  it('a slow earlier load does not drop an intent tracked after a later one', async () => {
    const store = freshStore();
    const { stateStore, release } = slowFirstStateStore();
    const scripted = new ScriptedTransport();
    let armed = false;
    // The earlier load finishes while the pump after `track` is still reading the settings.
    const transport = async () => {
      if (armed) {
        armed = false;
        release();
        await settle();
      }
      return scripted;
    };
    const { tracker, notifier } = setup({ stateStore, transport }, store);
    scripted.script(
      ID,
      { intentReceipt: receipt(ID, 'EXECUTING'), receiptStates: ['PENDING'], done: false },
      { intentReceipt: receipt(ID, 'SUCCEEDED'), receiptStates: ['SUCCEEDED'], done: true },
    );
    void tracker.resume();
    await settle();
    void tracker.resume();
    await settle();
    armed = true;
    const tracked = tracker.track(ID);
    await settle();
    release();
    await tracked;
    await vi.waitFor(async () => expect((await store.get(ID))?.notification).toBe('shown'));
    expect(scripted.callsFor(ID)).toHaveLength(2);
    expect(notifier.shown.map((i) => i.intentId)).toEqual([ID]);
    tracker.stop();
  });

  it('a slow earlier load does not bring back an intent removed since', async () => {
    const store = freshStore();
    await store.put({ intentId: ID2, addedAt: 1, lastStates: [], phase: 'tracking', notification: 'none' });
    const { stateStore, release } = slowFirstStateStore();
    // No answers scripted: every check hangs until aborted, as a long-poll does.
    const { tracker, transport } = setup({ stateStore }, store);
    void tracker.resume();
    await settle();
    void tracker.resume();
    await settle();
    release();
    await vi.waitFor(() => expect(transport.callsFor(ID2)).toHaveLength(1));
    await tracker.remove(ID2);
    await tracker.retryNow();
    await settle();
    expect(transport.callsFor(ID2)).toHaveLength(1);
    expect(await store.list()).toEqual([]);
    tracker.stop();
  });
});

describe('stuck watchdog', () => {
  /** An intent EXECUTING from now on (estimated 10 min), tracked with `showStuck` as the notifier's stuck warning. */
  async function executingFor(showStuck: (i: { intentId: string }, minutes: number) => Promise<void>) {
    const harness = setup({ minWaitCycleMs: 60_000 });
    const { tracker, transport, store, clock, notifier } = harness;
    (notifier as unknown as { showStuck: typeof showStuck }).showStuck = showStuck;
    const executing = {
      ...receipt(ID, 'EXECUTING'),
      summary: { ...receipt(ID, 'EXECUTING').summary, startedAt: new Date(clock.now()).toISOString() },
    };
    for (let i = 0; i < 100; i++) transport.script(ID, { intentReceipt: executing, receiptStates: ['PENDING'], done: false });
    await tracker.track(ID, { estimatedDuration: 600 });
    await vi.waitFor(async () => expect((await store.get(ID))?.status).toBe('EXECUTING'));
    return harness;
  }

  it('queues the warning before marking it given: a queue that fails is tried again, never lost (issue 19)', async () => {
    const calls: number[] = [];
    const { tracker, store, clock } = await executingFor(async (_i, m) => {
      calls.push(m);
      // The outbox refuses the first write (IndexedDB full, or the worker dying inside it).
      if (calls.length === 1) throw new Error('QuotaExceededError');
    });
    await clock.advance(23 * 60_000);
    // The failed queue left the warning unmarked, so a later watchdog turn queued it again.
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await vi.waitFor(async () => expect((await store.get(ID))?.stuckNotifiedAt).toBeGreaterThan(0));
    await clock.advance(30 * 60_000);
    expect(calls).toHaveLength(2);
    tracker.stop();
  });

  it('warns once for an intent EXECUTING past max(15 min, 2 × estimated duration)', async () => {
    const stuck: Array<[string, number]> = [];
    const { tracker, store, clock } = await executingFor(async (i, m) => {
      stuck.push([i.intentId, m]);
    });
    await clock.advance(19 * 60_000);
    expect(stuck).toEqual([]);
    await clock.advance(2 * 60_000);
    await vi.waitFor(() => expect(stuck).toHaveLength(1));
    expect(stuck[0]).toEqual([ID, 20]);
    await clock.advance(30 * 60_000);
    expect(stuck).toHaveLength(1);
    expect((await store.get(ID))?.stuckNotifiedAt).toBeGreaterThan(0);
    tracker.stop();
  });
});

describe('engine details (each pins one decision of the engine)', () => {
  const svc = engineHarness;

  it('busy and inFlight follow the requests in flight', async () => {
    const { clock, tracker, add } = svc(20_000, null);
    add(1);
    expect(tracker.busy).toBe(false);
    await tracker.track(sid(1));
    await clock.advance(2_000);
    expect(tracker.busy).toBe(true);
    expect(tracker.inFlight).toBe(1);
    tracker.stop();
  });

  it('track() says added only for a new intent, restarts a stopped one, and leaves a tracked one as it is', async () => {
    const { clock, tracker, store, add } = svc(20_000, null);
    add(1);
    expect((await tracker.track(sid(1), { source: 'menu', estimatedDuration: 90 })).added).toBe(true);
    expect(await store.get(sid(1))).toMatchObject({ source: 'menu', estimatedDuration: 90, phase: 'tracking', notification: 'none' });
    expect((await tracker.track(sid(1))).added).toBe(false);
    await store.update(sid(1), (c) => (c ? { ...c, phase: 'expired', retry: { attempt: 2, nextAt: 0 } } : undefined));
    const again = await tracker.track(sid(1));
    expect(again.added).toBe(false);
    expect(again.intent).toMatchObject({ phase: 'tracking', addedAt: clock.now() });
    expect(again.intent.retry).toBeUndefined();
    await store.update(sid(1), (c) => (c ? { ...c, phase: 'final' } : undefined));
    expect((await tracker.track(sid(1))).intent.phase).toBe('final');
    tracker.stop();
  });

  it('retryNow() restarts a not-found intent from now and clears the tracker-wide state', async () => {
    const { clock, tracker, store, states } = svc(20_000, null);
    await tracker.track(sid(9));
    await store.update(sid(9), (c) => (c ? { ...c, phase: 'not-found', gaveUpAt: 1 } : undefined));
    await clock.advance(1_000);
    await tracker.retryNow(sid(9));
    expect(await store.get(sid(9))).toMatchObject({ phase: 'tracking', addedAt: clock.now() });
    expect(states.at(-1)).toEqual({});
    tracker.stop();
  });

  it('a 429 pauses every request until Retry-After; retryNow() does not lift it; a shorter one does not shorten it', async () => {
    const { clock, tracker, service, add } = svc(20_000, null);
    add(1);
    add(2);
    service.faults = ['429'];
    await tracker.track(sid(1));
    await clock.advance(20);
    expect(tracker.state.pausedUntil).toBe(clock.now() - 10 + 3_000);
    const pausedUntil = tracker.state.pausedUntil!;
    await tracker.retryNow();
    expect(tracker.state.pausedUntil).toBe(pausedUntil);
    expect(tracker.state.pauseReason).toContain('rate-limiting');
    await tracker.track(sid(2));
    await clock.advance(2_000);
    expect(service.log.filter((e) => e.start > pausedUntil - 3_000 + 10 && e.start < pausedUntil)).toEqual([]);
    await clock.advance(2_000);
    expect(service.log.some((e) => e.intentId === sid(2))).toBe(true);
    tracker.stop();
  });

  it('a rejected key or origin pauses everything with its own message until retryNow()', async () => {
    for (const [name, code, status, kind, words] of [
      ['AccessKeyNotFound', 1101, 401, 'key-rejected', 'rejected the access key'],
      ['InvalidOrigin', 1103, 403, 'origin-rejected', 'InvalidOrigin'],
    ] as const) {
      const transport = new ScriptedTransport();
      transport.script(ID, serviceError(name, code, status));
      const { tracker } = setup({ transport: async () => transport });
      await tracker.track(ID);
      await vi.waitFor(() => expect(tracker.state.keyRejected?.kind).toBe(kind));
      expect(tracker.state.keyRejected?.message).toContain(words);
      tracker.stop();
    }
  });

  it("an error records its kind and message; one that is not the client's says unknown", async () => {
    const transport = new ScriptedTransport();
    transport.script(ID, new Error('boom'));
    transport.script(ID2, new SvcNetworkError('WaitIntentReceipt', 'http://x', 'reset'));
    const { tracker, store } = setup({ transport: async () => transport });
    await tracker.track(ID);
    await tracker.track(ID2);
    await vi.waitFor(async () => expect((await store.get(ID))?.lastError).toMatchObject({ kind: 'unknown', message: 'boom' }));
    await vi.waitFor(async () => expect((await store.get(ID2))?.lastError?.kind).toBe('network'));
    expect((await store.get(ID))?.retry?.attempt).toBe(1);
    tracker.stop();
  });

  it('the sweeper keeps its pace on every step, and every intent keeps its own (docs/tracking.md, "Pace" and I1)', async () => {
    // docs/tracking.md: 3 long-poll slots; the sweeper waits 5 s after a request that learnt nothing while every
    // intent fits in a slot, else 2.5 s; an intent outside the slots gets an individual check once it is 40 s old, and
    // every intent a check at least every S(N) = 60 s (I1). Nothing changes here: every step is paced.
    for (const n of [2, 3, 4, 6]) {
      const { clock, tracker, service, add } = svc(20_000);
      for (let i = 1; i <= n; i++) add(i);
      for (let i = 1; i <= n; i++) await tracker.track(sid(i));
      await clock.advance(120_000);
      const from = clock.now();
      await clock.advance(120_000);
      const to = clock.now();
      const window = service.log.filter((e) => e.start >= from);
      // The sweeper's steps (history pages and individual checks, one at a time): every gap is the pace.
      const pace = n <= 3 ? 5_000 : 2_500;
      const steps = window.filter((e) => e.op === 'history' || e.op === 'receipt').map((e) => e.start);
      const gaps = steps.slice(1).map((at, i) => at - steps[i]!);
      expect(gaps.length, `${n} intents`).toBeGreaterThanOrEqual(120_000 / pace - 2);
      for (const [i, g] of gaps.entries()) expect(g, `${n} intents, step ${i + 1} at ${steps[i + 1]! - from} ms`).toBe(pace);
      // The slots: min(n, 3) intents long-poll; each other one is read alone, never sooner than 40 s after the last.
      const polled = new Set(window.filter((e) => e.op === 'wait').map((e) => e.intentId));
      expect(polled.size, `${n} intents`).toBe(Math.min(n, 3));
      for (let i = 1; i <= n; i++) {
        const id = sid(i);
        const mine = window.filter((e) => e.intentId === id && (e.op === 'wait' || e.op === 'receipt'));
        if (polled.has(id))
          expect(
            mine.every((e) => e.op === 'wait'),
            `${n} intents, ${i}`,
          ).toBe(true);
        else {
          const checks = mine.map((e) => e.start);
          const apart = checks.slice(1).map((at, k) => at - checks[k]!);
          for (const g of apart) expect(g, `${n} intents, ${i}`).toBeGreaterThanOrEqual(40_000);
        }
        // I1, per intent: from the window's start to its end, no minute without a check of this intent.
        const answered = [from, ...mine.map((e) => e.end ?? to), to];
        const silences = answered.slice(1).map((at, k) => at - answered[k]!);
        expect(Math.max(...silences), `${n} intents, ${i}`).toBeLessThanOrEqual(60_000);
      }
      tracker.stop();
    }
  });

  it('a long-poll starts on a recent answer only: an intent heard of long ago is read first', async () => {
    const { clock, tracker, service, store, add } = svc(20_000, null);
    add(1);
    await tracker.track(sid(1));
    await clock.advance(5_000);
    tracker.stop();
    // A new worker, 30 s later: the last answer is old.
    await clock.advance(30_000);
    const { tracker: next } = {
      tracker: new Tracker({ store, clock, notifier: new RecordingNotifier(), transport: async () => service.transport() }),
    };
    const before = service.log.length;
    await next.resume();
    await clock.advance(100);
    expect(
      service.log
        .slice(before)
        .filter((e) => e.intentId === sid(1))
        .map((e) => e.op),
    ).toEqual(['receipt', 'wait']);
    next.stop();
  });

  it('a wait held past the cap (48 s) is followed by a read in the same slot', async () => {
    const { clock, tracker, service, add } = svc(300_000, null);
    add(1);
    await tracker.track(sid(1));
    await clock.advance(60_000);
    // Once the states are known the server holds the wait: it is cut at 48 s and the slot reads the receipt.
    const held = service.log.find((e) => e.op === 'wait' && e.outcome === 'abandoned')!;
    expect(held.end! - held.start).toBe(48_000);
    const next = service.log.slice(service.log.indexOf(held) + 1).find((e) => e.intentId === sid(1))!;
    expect([next.op, next.start, next.outcome]).toEqual(['receipt', held.end, 'answer']);
    tracker.stop();
  });

  it('a first load that fails is tried again by the next call', async () => {
    const store = new MemoryStore();
    let fail = true;
    const list = store.list.bind(store);
    store.list = () => (fail ? Promise.reject(new Error('blocked')) : list());
    const { tracker } = setup({}, store);
    await expect(tracker.list()).rejects.toThrow('blocked');
    fail = false;
    expect(await tracker.list()).toEqual([]);
    tracker.stop();
  });

  it('refresh() of an intent not tracked (final, unknown) sends nothing', async () => {
    const { clock, tracker, service, add } = svc(20_000, null);
    add(1, [[100, 'SUCCEEDED', ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED']]]);
    await tracker.track(sid(1));
    await clock.advance(2_000);
    const before = service.log.length;
    expect((await tracker.refresh(sid(1)))?.phase).toBe('final');
    expect(await tracker.refresh(sid(7))).toBeUndefined();
    await clock.advance(100);
    expect(service.log.length).toBe(before);
    tracker.stop();
  });
});
