/**
 * The pipeline's delivery on a fake desktop (`./fake-desktop`): grouping in time, buttons per browser, settings,
 * the stuck warning, retries with back-off after rejected calls, "already told?" from the outbox, and the outbox's
 * own bounds. What is checked is what appeared on the desktop.
 */
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { intentIdsOfNotification } from '@/lib/notify/browser';
import { retryDelay } from '@/lib/notify/pipeline';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { createOutbox, KEEP_TOLD, type NotificationJob, pruneJobs } from '@/lib/store/outbox';
import { settle, type VirtualClock } from '../tracker/fakes';
import { finalTitle, finishTogether, freshStart, groupOnClock, id, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});
const desktopOf = (kind: 'chrome' | 'firefox') => new FakeDesktop(kind, () => clock.now());

describe('grouping in time', () => {
  /** Group timers on the virtual clock: `tick(ms)` moves it and fires what is due. */
  function manualTimers() {
    const timers: Array<{ at: number; fn: () => void }> = [];
    return {
      groupTimer: (fn: () => void, ms: number) => void timers.push({ at: clock.t + ms, fn }),
      async tick(ms: number) {
        const end = clock.t + ms;
        for (;;) {
          timers.sort((a, b) => a.at - b.at);
          const next = timers[0];
          if (!next || next.at > end) break;
          timers.shift();
          clock.t = next.at;
          next.fn();
          await settle();
        }
        clock.t = end;
        await settle();
      },
    };
  }

  it('a final notification whose outbox writes were refused is shown when the tracker tries again later (the grouping it started is undone)', async () => {
    const desktop = desktopOf('chrome');
    const timers = manualTimers();
    let refused = 0;
    const w = worker(shared, desktop, clock, () => settings, {
      groupWindowMs: 500,
      groupTimer: timers.groupTimer,
      outboxWriteFails: () => refused++ < 2,
    });
    await w.record(1, 'SUCCEEDED');
    const intent = w.mirror.get(id(1))!;
    // Refused: nothing shown, so nothing opens a grouping window; then refused again.
    await expect(w.calm.show(intent)).rejects.toThrow(/refused/);
    await expect(w.calm.show(intent)).rejects.toThrow(/refused/);
    expect(desktop.log).toEqual([]);
    // The tracker's next try (its next wake-up), the window long over: shown, once.
    await timers.tick(30_000);
    const told = await Promise.race([
      w.calm.show(intent).then(() => 'shown'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2_000)),
    ]);
    expect(told).toBe('shown');
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
  });

  it('shows the first at once; what follows within 100 ms quiet goes together, once per window; later ones when the 500 ms window closes', async () => {
    const desktop = desktopOf('chrome');
    const timers = manualTimers();
    const w = worker(shared, desktop, clock, () => settings, { groupWindowMs: 500, groupTimer: timers.groupTimer });
    const ids = () => desktop.log.map((a) => intentIdsOfNotification(a.id));
    await w.finish(1);
    expect(ids()).toEqual([[id(1)]]);
    const page: Array<Promise<unknown>> = [];
    for (const k of [2, 3, 4]) {
      await timers.tick(10);
      page.push(w.finish(k));
      await settle();
    }
    await timers.tick(99);
    expect(ids()).toHaveLength(1);
    await timers.tick(1);
    await Promise.all(page);
    expect(ids()).toEqual([[id(1)], [id(2), id(3), id(4)]]);
    const group = desktop.log[1]!;
    expect(group.title).toBe('3 intents finished: 3 succeeded');
    expect(group.message.split('\n')).toHaveLength(3);
    // The window's quiet flush is spent: one more at 200 ms waits for the window's end (500 ms after the first).
    await timers.tick(70);
    const late = w.finish(5, 'FAILED');
    await settle();
    await timers.tick(299);
    expect(ids()).toHaveLength(2);
    await timers.tick(1);
    await late;
    expect(ids()).toEqual([[id(1)], [id(2), id(3), id(4)], [id(5)]]);
    await timers.tick(1000);
    await w.finish(6);
    expect(ids()).toHaveLength(4);
  });

  it('a worker restarted with several queued finals shows them as one summary at once', async () => {
    const desktop = desktopOf('chrome');
    const first = worker(shared, desktop, clock, () => settings, { groupTimer: () => {} });
    await first.finish(1);
    // Two more come inside the window; the worker dies before the flush.
    void first.finish(2);
    void first.finish(3, 'FAILED');
    await settle();
    first.browser.dead = true;
    const again = worker(shared, desktop, clock, () => settings);
    await again.wake();
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1), '2 intents finished: 1 succeeded, 1 failed']);
  });
});

describe('buttons, settings and the stuck warning', () => {
  it('Chrome: one intent gets View receipt and Open in explorer; summaries get none; Firefox gets none at all', async () => {
    for (const kind of ['chrome', 'firefox'] as const) {
      const desktop = desktopOf(kind);
      const w = worker(shared, desktop, clock, () => settings, { groupTimer: groupOnClock(clock) });
      await w.finish(kind === 'chrome' ? 1 : 11);
      await finishTogether(w, clock, kind === 'chrome' ? [2, 3] : [12, 13]);
      expect(desktop.log.map((a) => a.buttons)).toEqual(kind === 'chrome' ? [['View receipt', 'Open in explorer'], []] : [[], []]);
    }
  });

  it('respects the outcome and sound settings (a switched-off outcome is never shown later)', async () => {
    settings = { ...DEFAULT_NOTIFY, succeeded: false, sound: false };
    const desktop = desktopOf('chrome');
    const w = worker(shared, desktop, clock, () => settings);
    await w.finish(1);
    await w.finish(2, 'FAILED');
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(2, 'failed')]);
    expect(desktop.screen.get(desktop.log[0]!.id)?.silent).toBe(true);
    settings = { ...DEFAULT_NOTIFY };
    clock.t += 60_000;
    await w.wake();
    expect(desktop.log).toHaveLength(1);
  });

  it('shows the stuck warning once, unless switched off', async () => {
    const desktop = desktopOf('chrome');
    const w = worker(shared, desktop, clock, () => settings);
    await w.record(1, 'EXECUTING', []);
    await w.calm.showStuck(w.mirror.get(id(1))!, 17);
    await w.calm.resume(); // delivery follows the queued job
    await w.calm.showStuck(w.mirror.get(id(1))!, 18);
    await w.calm.resume(); // delivery follows the queued job
    expect(desktop.log.map((a) => `${a.title} | ${a.message}`)).toEqual([
      'Taking longer than expected · 0x0000…0001 | Arbitrum One → Base: 1.00 USDC\nExecuting for over 17 min. Waiting on the deposit leg (not started).',
    ]);
    settings = { ...DEFAULT_NOTIFY, stuck: false };
    await w.record(2, 'EXECUTING', []);
    await w.calm.showStuck(w.mirror.get(id(2))!, 20);
    await w.calm.resume(); // delivery follows the queued job
    expect(desktop.log).toHaveLength(1);
  });
});

describe('rejected calls are retried with back-off, never dropped, never repeated', () => {
  it('backs off 1 s doubling to 60 s', () => {
    expect([1, 2, 3, 6, 7, 20].map(retryDelay)).toEqual([1000, 2000, 4000, 32_000, 60_000, 60_000]);
  });

  for (const kind of ['chrome', 'firefox'] as const) {
    it(`${kind}: create rejects four times; the fifth try (its retry timer, on virtual time) shows it once`, async () => {
      const desktop = desktopOf(kind);
      const w = worker(shared, desktop, clock, () => settings);
      for (let i = 0; i < 4; i++) w.browser.fail('create');
      await w.finish(1);
      expect(desktop.log).toEqual([]);
      // Retries at +1 s, +2 s, +4 s, +8 s after each failure.
      await clock.advance(1000 + 2000 + 4000 + 8000);
      expect(desktop.seen(finalTitle(1))).toHaveLength(1);
      expect((await shared.intents.get(id(1)))?.notification).toBe('shown');
      await clock.advance(120_000);
      await w.wake();
      expect(desktop.log).toHaveLength(1);
    });
  }

  it('Chrome: the worker dies after create, before `shown` is written; getAll() rejected on the restart: told once', async () => {
    const desktop = desktopOf('chrome');
    const first = worker(shared, desktop, clock, () => settings);
    // The outbox's third write (queued, showing, then shown) is refused, and the worker dies with it.
    const proto = IDBObjectStore.prototype;
    const put = proto.put;
    let writes = 0;
    proto.put = function (this: IDBObjectStore, ...a: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'jobs' && ++writes >= 3) {
        first.browser.dead = true;
        throw new DOMException('disk full', 'QuotaExceededError');
      }
      return put.apply(this, a);
    };
    try {
      void first.finish(1);
      await settle();
    } finally {
      proto.put = put;
    }
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    const again = worker(shared, desktop, clock, () => settings);
    again.browser.fail('getAll');
    for (let i = 0; i < 3; i++) {
      clock.t += 30_000;
      await again.wake();
    }
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  it('Firefox: a rejected create whose back-off write was refused is created again at the next wake-up, not taken for shown', async () => {
    const desktop = desktopOf('firefox');
    let writes = 0;
    // The third outbox write is the back-off after the rejected create (job written, `showing`, back-off).
    const w = worker(shared, desktop, clock, () => settings, { outboxWriteFails: () => ++writes === 3 });
    w.browser.fail('create');
    await w.finish(1);
    expect(desktop.log).toEqual([]);
    clock.t += 30_000;
    await w.wake();
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    clock.t += 120_000;
    await w.wake();
    expect(desktop.log).toHaveLength(1);
  });

  it('the outbox refusing writes delays the notification (the record stays pending), never loses it', async () => {
    const desktop = desktopOf('chrome');
    let full = true;
    const w = worker(shared, desktop, clock, () => settings);
    // The outbox's database is the harness's: make its writes fail by breaking IndexedDB's put for a while.
    const proto = IDBObjectStore.prototype;
    const put = proto.put;
    proto.put = function (this: IDBObjectStore, ...a: Parameters<IDBObjectStore['put']>) {
      if (full && this.name === 'jobs') throw new DOMException('disk full', 'QuotaExceededError');
      return put.apply(this, a);
    };
    try {
      await w.finish(1);
      expect(desktop.log).toEqual([]);
      expect((await shared.intents.get(id(1)))?.notification).toBe('pending');
      full = false;
      clock.t += 30_000;
      await w.wake();
      expect(desktop.seen(finalTitle(1))).toHaveLength(1);
      expect((await shared.intents.get(id(1)))?.notification).toBe('shown');
    } finally {
      proto.put = put;
    }
  });
});

describe('"already told?" and the outbox', () => {
  it('exists() answers from the outbox whatever the screen shows; forget() lets a re-tracked intent notify again', async () => {
    const desktop = desktopOf('firefox');
    const w = worker(shared, desktop, clock, () => settings);
    await w.finish(1);
    expect(desktop.screen.size).toBe(0);
    expect(await w.calm.exists(id(1))).toBe(true);
    expect(await w.calm.exists(id(2))).toBe(false);
    await w.calm.forget!(id(1));
    expect(await w.calm.exists(id(1))).toBe(false);
  });

  it('keeps the newest told final jobs up to its bound, and every unfinished one', async () => {
    const job = (n: number, state: NotificationJob['state']): NotificationJob => ({
      key: `final:${n}`,
      kind: 'final',
      state,
      intentIds: [String(n)],
      attempts: 0,
      nextAt: 0,
      at: n,
    });
    const jobs = Object.fromEntries(Array.from({ length: KEEP_TOLD + 5 }, (_, n) => [`final:${n}`, job(n, n < 3 ? 'queued' : 'shown')]));
    const kept = pruneJobs(jobs);
    expect(Object.keys(kept)).toHaveLength(KEEP_TOLD + 3);
    for (const n of [0, 1, 2, KEEP_TOLD + 4]) expect(kept[`final:${n}`]).toBeDefined();
    expect(kept['final:3']).toBeUndefined();
    const outbox = createOutbox(createStore(`outbox-prune-${Math.random()}`, 'jobs'));
    await outbox.update(() => jobs);
    expect(Object.keys(await outbox.all())).toHaveLength(KEEP_TOLD + 3);
  });
});
