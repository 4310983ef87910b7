/**
 * The watched-address check against the simulator over HTTP: only ticked addresses, only new intents, oldest first,
 * resumed where a check stopped (a full page budget, or a failed call), throttled to once a minute.
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { SvcNetworkError } from '@/lib/api/errors';
import type { HistoryLiteRequest } from '@/lib/api/schemas/history';
import { createRemovedIntents, createSettingsStore, createWatchedCheckpoints } from '@/lib/store';
import { createWatchedCheck, WATCH_MAX_PAGES, WATCH_PAGE_SIZE } from '@/lib/worker/watched';
import { type Simulator, startSimulator } from '../../simulator/server';

const MINE = `0x${'a1'.repeat(20)}`;
const OTHER = `0x${'b2'.repeat(20)}`;

let sim: Simulator;
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  sim = await startSimulator({ dataset: false });
});
afterEach(() => sim.close());

/** The check with a recording `track` (a set of tracked ids, like the tracker's) and the requests it sent. */
async function setUp(options: { failOnCall?: number; now?: () => number; ignoreOwner?: boolean } = {}) {
  const settings = createSettingsStore();
  await settings.set({ baseUrl: sim.url, accessKey: sim.accessKey, watchedAddresses: [MINE, OTHER], autoTrackAddresses: [MINE] });
  const real = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
  const requests: HistoryLiteRequest[] = [];
  const client = {
    getIntentHistoryLite(request: HistoryLiteRequest) {
      requests.push(request);
      if (requests.length === options.failOnCall) return Promise.reject(new SvcNetworkError('GetIntentHistory', sim.url, 'reset'));
      // A history that ignores the owner filter lists every owner's intents.
      if (options.ignoreOwner) {
        const { byOwnerAddress: _, ...everyone } = request;
        return real.getIntentHistoryLite(everyone);
      }
      return real.getIntentHistoryLite(request);
    },
  };
  const tracked = new Set<string>();
  /** What the user removed (the worker's RemovedIntents, in IndexedDB). */
  const removed = createRemovedIntents();
  const check = createWatchedCheck({
    removed,
    settings,
    client: async () => client,
    checkpoints: createWatchedCheckpoints(),
    track: async (intentId) => {
      const added = !tracked.has(intentId);
      tracked.add(intentId);
      return { ok: true, added, intentId };
    },
    ...(options.now ? { now: options.now } : {}),
  });
  return { check, tracked, requests, removed, settings };
}

/** Creates `n` intents of `owner` and lets the simulated clock pass their (distinct, ms-apart) creation times. */
function createMany(n: number, owner: string): string[] {
  const ids = Array.from({ length: n }, () => sim.createIntent('stuck', 600_000, owner));
  sim.advanceClock(n + 1_000);
  return ids;
}

describe('createWatchedCheck', () => {
  it('tracks the new intents of the ticked addresses only, and later only what is new', async () => {
    const { check, tracked } = await setUp();
    const mine = createMany(2, MINE);
    createMany(1, OTHER);
    expect(await check(true)).toBe(2);
    expect([...tracked].sort()).toEqual([...mine].sort());
    const later = createMany(1, MINE);
    expect(await check(true)).toBe(1);
    expect(tracked.has(later[0]!)).toBe(true);
  });

  it('a check whose checkpoint IndexedDB refuses (disk full) resolves, and the next one goes on from the last saved', async () => {
    // Found by the campaign of the whole worker: the check rejected, an unhandled rejection in the worker's alarm.
    const settings = createSettingsStore();
    await settings.set({ baseUrl: sim.url, accessKey: sim.accessKey, autoTrackAddresses: [MINE] });
    const saved = createWatchedCheckpoints();
    let refuse = true;
    const tracked: string[] = [];
    const check = createWatchedCheck({
      settings,
      client: async () => new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey }),
      checkpoints: {
        get: () => saved.get(),
        set: (c) => (refuse ? Promise.reject(new DOMException('disk full', 'QuotaExceededError')) : saved.set(c)),
      },
      track: async (intentId) => {
        const added = !tracked.includes(intentId);
        if (added) tracked.push(intentId);
        return { ok: true, added, intentId };
      },
    });
    const mine = createMany(2, MINE);
    await expect(check(true)).resolves.toBe(0);
    expect([...tracked].sort()).toEqual([...mine].sort());
    refuse = false;
    const later = createMany(1, MINE);
    await check(true);
    expect([...tracked].sort()).toEqual([...mine, ...later].sort());
  });

  it('reads oldest first by creation time, and covers more intents than one check reads over the next checks', async () => {
    const { check, tracked, requests } = await setUp();
    const n = WATCH_MAX_PAGES * WATCH_PAGE_SIZE + 70;
    const ids = createMany(n, MINE);
    expect(await check(true)).toBe(WATCH_MAX_PAGES * WATCH_PAGE_SIZE);
    // The oldest ones came first.
    expect(ids.slice(0, WATCH_MAX_PAGES * WATCH_PAGE_SIZE).every((id) => tracked.has(id))).toBe(true);
    expect(requests[0]?.page).toMatchObject({ column: 'createdAt', sort: [{ column: 'createdAt', order: 'ASC' }] });
    expect(await check(true)).toBe(70);
    expect(tracked.size).toBe(n);
    // The second check went on, under the same fromTime, after the creation time of the last intent the first read.
    const lastRead = sim.intents().find((i) => i.intentId === ids[WATCH_MAX_PAGES * WATCH_PAGE_SIZE - 1]);
    expect(requests[WATCH_MAX_PAGES]).toMatchObject({ fromTime: requests[0]!.fromTime, page: { after: lastRead!.createdAt } });
  });

  it('after a failed call, goes on after the last page it read', async () => {
    const { check, tracked, requests } = await setUp({ failOnCall: 3 });
    const ids = createMany(3 * WATCH_PAGE_SIZE, MINE);
    expect(await check(true)).toBe(2 * WATCH_PAGE_SIZE);
    expect(await check(true)).toBe(WATCH_PAGE_SIZE);
    expect(tracked).toEqual(new Set(ids));
    // The retry asked for the failed page, not the first one again.
    expect(requests[3]!.page.after).toBe(requests[2]!.page.after);
  });

  it('checks at most once a minute unless forced', async () => {
    let t = sim.now();
    const { check, requests } = await setUp({ now: () => t });
    createMany(1, MINE);
    expect(await check()).toBe(1);
    const sent = requests.length;
    t += 30_000;
    expect(await check()).toBe(0);
    expect(requests).toHaveLength(sent);
    t += 31_000;
    await check();
    expect(requests.length).toBeGreaterThan(sent);
  });

  it('on the watchdog alarm (every 30 s, a second early or late), checks every minute even when a check lasts seconds', async () => {
    // The alarm beats at 0, 30, 59 (early), 90, 121 (late), 150, 180 s: a check that takes 3 s runs at 0, 59, 121, 180.
    let t = sim.now();
    const start = t;
    const { check, requests } = await setUp({ now: () => t });
    const ran: number[] = [];
    for (const beat of [0, 30_000, 59_000, 90_000, 121_000, 150_000, 180_000]) {
      t = start + beat;
      const before = requests.length;
      const pending = check();
      t += 3_000; // the check's requests take their time
      await pending;
      if (requests.length > before) ran.push(beat / 1000);
    }
    expect(ran).toEqual([0, 59, 121, 180]);
  });

  it('tracks only rows whose receipt names the address as owner, even from a history that ignores the owner filter', async () => {
    const { check, tracked } = await setUp({ ignoreOwner: true });
    const mine = createMany(3, MINE);
    const strangers = Array.from({ length: 40 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, 'f')}`);
    for (const owner of strangers) createMany(5, owner);
    await check(true);
    expect([...tracked].sort()).toEqual([...mine].sort());
  });

  it('never tracks again an intent the user removed, whatever the next checks read', async () => {
    let t = sim.now();
    const { check, tracked, removed } = await setUp({ now: () => t });
    const [first] = createMany(1, MINE);
    expect(await check(true)).toBe(1);
    // The user removes it (the message handler marks it, then the tracker forgets it).
    await removed.add([first!]);
    tracked.delete(first!);
    for (let i = 0; i < 3; i++) {
      t = sim.now();
      await check(true);
    }
    expect(tracked.has(first!)).toBe(false);
    // A later intent is still tracked.
    const [later] = createMany(1, MINE);
    t = sim.now();
    expect(await check(true)).toBe(1);
    expect(tracked.has(later!)).toBe(true);
  });

  it('starts an address ticked again from that moment, not from where it stood days before', async () => {
    let t = sim.now();
    const { check, tracked, settings } = await setUp({ now: () => t });
    createMany(1, MINE);
    expect(await check(true)).toBe(1);
    // Unticked, and a check sees it so.
    const base = (await settings.get())!;
    await settings.set({ ...base, autoTrackAddresses: [] });
    t = sim.now();
    await check(true);
    // Three days of intents while unticked.
    for (let day = 0; day < 3; day++) {
      for (let i = 0; i < 200; i++) {
        sim.createIntent('stuck', 600_000, MINE);
        sim.advanceClock(60_000);
      }
      sim.advanceClock(86_400_000 - 200 * 60_000);
    }
    const before = tracked.size;
    await settings.set({ ...base, autoTrackAddresses: [MINE] });
    t = sim.now();
    expect(await check(true)).toBe(0);
    expect(tracked.size).toBe(before);
    // What comes after the tick is tracked.
    sim.advanceClock(5_000);
    const [fresh] = createMany(1, MINE);
    t = sim.now();
    expect(await check(true)).toBe(1);
    expect(tracked.has(fresh!)).toBe(true);
  });

  it('moves the checkpoint only over what it read: a worker clock 2 minutes fast misses nothing', async () => {
    const fast = 120_000;
    let t = sim.now() + fast;
    const { check, tracked } = await setUp({ now: () => t });
    createMany(1, MINE);
    await check(true);
    // 30 intents, one every 10 s, checked every minute by a worker whose clock is 2 minutes ahead of the service.
    const made: string[] = [];
    for (let i = 0; i < 30; i++) {
      made.push(sim.createIntent('stuck', 600_000, MINE));
      sim.advanceClock(10_000);
      if (i % 6 === 5) {
        t = sim.now() + fast;
        await check(true);
      }
    }
    t = sim.now() + fast;
    await check(true);
    expect(made.filter((id) => tracked.has(id))).toHaveLength(30);
  });
});
