import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RequestBudget } from '@/lib/api/budget';
import { createBackground } from '@/lib/background';
import { realPlatform } from '@/lib/platform';
import { WATCHDOG_ALARM, WATCHDOG_PERIOD_MINUTES } from '@/lib/worker/lifetime';

const ID = `0x${'cd'.repeat(32)}`;

describe('background services (fakeBrowser)', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    // A fresh, empty IndexedDB for each test (deleting databases would wait for open connections).
    globalThis.indexedDB = new IDBFactory();
  });

  it('ignores unknown and malformed messages', async () => {
    const bg = createBackground(realPlatform(fakeBrowser as never));
    expect(bg.handleMessage({ type: 'format-disk' })).toBeUndefined();
    expect(bg.handleMessage('track')).toBeUndefined();
    expect(bg.handleMessage({ type: 'track', intentId: 42 })).toBeUndefined();
    bg.tracker.stop();
  });

  it('refuses a bad intentId with a message and tracks a good one', async () => {
    const bg = createBackground(realPlatform(fakeBrowser as never));
    expect(await bg.handleMessage({ type: 'track', intentId: '<script>' })).toMatchObject({ ok: false });
    expect(await bg.handleMessage({ type: 'track', intentId: `  ${ID} ` })).toEqual({ ok: true, added: true, intentId: ID });
    expect(await bg.handleMessage({ type: 'track', intentId: ID })).toEqual({ ok: true, added: false, intentId: ID });
    const saved = await bg.intents.get(ID);
    expect(saved).toMatchObject({ intentId: ID, phase: 'tracking', notification: 'none' });
    // Not configured yet: the intent says so and is kept.
    await vi.waitFor(async () => expect((await bg.intents.get(ID))?.lastError?.kind).toBe('not-configured'));
    bg.tracker.stop();
  });

  it('opens the welcome page on a new install, and nothing on an update or a browser update', async () => {
    const bg = createBackground(realPlatform(fakeBrowser as never));
    const tabs = async () => (await fakeBrowser.tabs.query({})).map((t) => t.url);
    const before = await tabs(); // fakeBrowser starts with one blank tab
    expect(await bg.installed('update')).toBe(false);
    expect(await bg.installed('chrome_update')).toBe(false);
    expect(await bg.installed('browser_update')).toBe(false);
    expect(await tabs()).toEqual(before);
    expect(await bg.installed('install')).toBe(true);
    expect(await tabs()).toEqual([...before, fakeBrowser.runtime.getURL('/welcome.html')]);
    bg.tracker.stop();
  });

  it('creates the watchdog alarm once', async () => {
    const bg = createBackground(realPlatform(fakeBrowser as never));
    await bg.ensureWatchdog();
    await bg.ensureWatchdog();
    const alarms = await fakeBrowser.alarms.getAll();
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ name: WATCHDOG_ALARM, periodInMinutes: WATCHDOG_PERIOD_MINUTES });
    bg.tracker.stop();
  });

  it('opens the receipt named in the omnibox, and says so when the text holds no intentId', async () => {
    const bg = createBackground(realPlatform(fakeBrowser as never));
    await bg.openFromOmnibox(`  ${ID} `);
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.some((t) => t.url?.endsWith(`/popup.html#intent=${ID}`))).toBe(true);
    await bg.openFromOmnibox('hello');
    const infos = Object.values(
      (fakeBrowser.notifications as unknown as { getAllCreateOptions(): Record<string, { message: string }> }).getAllCreateOptions(),
    );
    expect(infos.map((i) => i.message)).toEqual(['“hello” is not an intent ID.']);
    bg.tracker.stop();
  });

  it('clears finished intents and keeps the ones in flight', async () => {
    // The records a previous worker left: the worker under test starts on them.
    const previous = createBackground(realPlatform(fakeBrowser as never));
    const base = { addedAt: 1, lastStates: [], notification: 'shown' as const };
    await previous.intents.put({ ...base, intentId: `0x${'1'.repeat(64)}`, phase: 'final', status: 'SUCCEEDED' });
    await previous.intents.put({ ...base, intentId: `0x${'2'.repeat(64)}`, phase: 'final', status: 'FAILED' });
    await previous.intents.put({ ...base, intentId: `0x${'3'.repeat(64)}`, phase: 'tracking', notification: 'none' });
    previous.tracker.stop();
    const bg = createBackground(realPlatform(fakeBrowser as never));
    expect(await bg.handleMessage({ type: 'clear-finished' })).toEqual({ ok: true });
    expect((await bg.intents.list()).map((t) => t.intentId)).toEqual([`0x${'3'.repeat(64)}`]);
    bg.tracker.stop();
  });

  it('keeps at most 200 finished intents, pruning the oldest when a new one is tracked', async () => {
    // The records a previous worker left: the worker under test starts on them.
    const previous = createBackground(realPlatform(fakeBrowser as never));
    for (let i = 0; i < 205; i++) {
      await previous.intents.put({
        intentId: `0x${i.toString(16).padStart(64, '0')}`,
        addedAt: i,
        notifiedAt: 1000 + i,
        lastStates: [],
        phase: 'final',
        status: 'SUCCEEDED',
        notification: 'shown',
      });
    }
    previous.tracker.stop();
    const bg = createBackground(realPlatform(fakeBrowser as never));
    await bg.tracker.resume();
    expect(await bg.handleMessage({ type: 'track', intentId: ID })).toMatchObject({ ok: true, added: true });
    // The pruning runs after the track answers; 205 rows read and removed take seconds beside the rest of `npm test`.
    await vi.waitFor(async () => expect((await bg.intents.list()).filter((t) => t.phase === 'final')).toHaveLength(200), {
      timeout: 30_000,
      interval: 100,
    });
    const kept = new Set((await bg.intents.list()).map((t) => t.intentId));
    for (let i = 0; i < 5; i++) expect(kept.has(`0x${i.toString(16).padStart(64, '0')}`)).toBe(false);
    expect(kept.has(ID)).toBe(true);
    bg.tracker.stop();
  });

  it('opens the receipt of the intent behind a clicked notification', async () => {
    const bg = createBackground(realPlatform(fakeBrowser as never));
    await bg.openNotification(`svc-intent:${ID}:123`);
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.some((t) => t.url?.endsWith(`/popup.html#intent=${ID}`))).toBe(true);
    bg.tracker.stop();
  });
});

describe('background services with the simulator', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });

  it('creates the "Track intent" menu item for selections', async () => {
    const created: unknown[] = [];
    const fb = fakeBrowser as unknown as { contextMenus: Record<string, unknown> };
    fb.contextMenus.removeAll = async () => {};
    fb.contextMenus.create = (item: unknown) => created.push(item);
    const bg = createBackground(realPlatform(fakeBrowser as never));
    await bg.ensureMenus();
    expect(created).toEqual([{ id: 'svc-track-selection', title: 'Track intent', contexts: ['selection'] }]);
    bg.tracker.stop();
  });

  it('tracks every intent of a selected transaction hash, and a selected intentId', async () => {
    const { startSimulator } = await import('../simulator/server');
    const { intentWithDestinationHash } = await import('../simulator/find');
    const sim = await startSimulator();
    const bg = createBackground(realPlatform(fakeBrowser as never));
    try {
      await bg.settings.set({ baseUrl: sim.url, accessKey: sim.accessKey });
      const { intentId: targetId, hash } = intentWithDestinationHash(sim);
      const target = { intentId: targetId };
      expect(await bg.trackSelection(`tx: ${hash}`)).toMatchObject({ ok: true, intentId: target.intentId });
      expect((await bg.intents.get(target.intentId))?.source).toBe('menu');
      const other = sim.intents()[3]!.intentId;
      expect(await bg.trackSelection(other)).toMatchObject({ ok: true, added: true, intentId: other });
      expect(await bg.trackSelection('nothing here')).toMatchObject({ ok: false });
      const infos = Object.values(
        (fakeBrowser.notifications as unknown as { getAllCreateOptions(): Record<string, { message: string }> }).getAllCreateOptions(),
      );
      expect(infos.map((i) => i.message)).toContain(
        `Tracking intent ${target.intentId.slice(0, 6)}…${target.intentId.slice(-4)} of transaction ${hash.slice(0, 6)}…${hash.slice(-4)}.`,
      );
    } finally {
      bg.tracker.stop();
      await sim.close();
    }
  });

  it('answers added only when a selected transaction hash brought a new intent, and says "already tracked" otherwise', async () => {
    const { startSimulator } = await import('../simulator/server');
    const { intentWithDestinationHash } = await import('../simulator/find');
    const sim = await startSimulator();
    const bg = createBackground(realPlatform(fakeBrowser as never));
    try {
      await bg.settings.set({ baseUrl: sim.url, accessKey: sim.accessKey });
      const { intentId, hash } = intentWithDestinationHash(sim);
      const short = (s: string) => `${s.slice(0, 6)}…${s.slice(-4)}`;
      expect(await bg.trackSelection(hash)).toMatchObject({ ok: true, added: true, intentId });
      expect(await bg.trackSelection(hash)).toMatchObject({ ok: true, added: false, intentId });
      const infos = Object.values(
        (fakeBrowser.notifications as unknown as { getAllCreateOptions(): Record<string, { message: string }> }).getAllCreateOptions(),
      );
      expect(infos.map((i) => i.message)).toContain(`Intent ${short(intentId)} of transaction ${short(hash)} is already tracked.`);
    } finally {
      bg.tracker.stop();
      await sim.close();
    }
  });

  it('tracks every new intent of a watched address even when one check cannot read them all', async () => {
    const { startSimulator } = await import('../simulator/server');
    const sim = await startSimulator({ dataset: false });
    // A faster rate than the worker's 54 a minute: the tracker's 320 first reads would hold the check for a minute.
    const bg = createBackground(realPlatform(fakeBrowser as never), { budget: new RequestBudget({ perMinute: 6_000 }) });
    try {
      const busy = `0x${'c3'.repeat(20)}`;
      // More than one check reads (5 pages of 50), all within the first check's look-back hour.
      const created = Array.from({ length: 320 }, () => sim.createIntent('stuck', 600_000, busy));
      // The simulator gives each new intent a distinct creation time, a few ms apart: let them all be in the past.
      sim.advanceClock(2_000);
      await bg.settings.set({ baseUrl: sim.url, accessKey: sim.accessKey, watchedAddresses: [busy], autoTrackAddresses: [busy] });
      let added = 0;
      for (let check = 0; check < 3; check++) added += await bg.checkWatched(true);
      expect(added).toBe(320);
      expect(new Set((await bg.intents.list()).map((t) => t.intentId))).toEqual(new Set(created));
    } finally {
      bg.tracker.stop();
      await sim.close();
    }
  }, 60_000); // 320 intents over real HTTP: a few seconds alone, over 20 s beside the e2e's browsers (npm test)

  it('auto-tracks new intents of a watched address, and only of the ticked ones', async () => {
    const { startSimulator } = await import('../simulator/server');
    const sim = await startSimulator({ dataset: false });
    const bg = createBackground(realPlatform(fakeBrowser as never));
    try {
      const mine = `0x${'a1'.repeat(20)}`;
      const other = `0x${'b2'.repeat(20)}`;
      const a = sim.createIntent('success', 60_000, mine);
      const b = sim.createIntent('failure', 60_000, mine);
      sim.createIntent('success', 60_000, other);
      await bg.settings.set({ baseUrl: sim.url, accessKey: sim.accessKey, watchedAddresses: [mine, other], autoTrackAddresses: [mine] });
      expect(await bg.checkWatched(true)).toBe(2);
      expect((await bg.intents.list()).map((t) => t.intentId).sort()).toEqual([a, b].sort());
      expect((await bg.intents.get(a))?.source).toBe('watched');
      // Later checks add only what is new.
      const c = sim.createIntent('success', 60_000, mine);
      expect(await bg.checkWatched(true)).toBe(1);
      expect(await bg.intents.get(c)).toBeDefined();
      expect(await bg.checkWatched(false)).toBe(0);
    } finally {
      bg.tracker.stop();
      await sim.close();
    }
  }, 60_000); // the first check waits for a settled service clock: four paced answers, ~12 s alone, more under load
});
