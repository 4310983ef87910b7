/**
 * An address unticked and ticked again with no check in between (the browser closed within a minute of unticking,
 * both changes arriving by sync, or a save's check joining one under way): it starts from the re-tick, not from
 * where its checkpoint stood days before. The tick tokens of the settings store (lib/store/ticks.ts) tell; the
 * watched check runs against the simulator over HTTP.
 */
import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SvcClient } from '@/lib/api/client';
import { createSettingsStore, createWatchedCheckpoints, type SettingsStore } from '@/lib/store';
import { createSyncedSettingsStore } from '@/lib/store/sync';
import { createWatchedCheck } from '@/lib/worker/watched';
import { type Simulator, startSimulator } from '../../simulator/server';

const MINE = `0x${'a1'.repeat(20)}`;

let sim: Simulator;
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  fakeBrowser.reset();
  sim = await startSimulator({ dataset: false });
});
afterEach(() => sim.close());

/** A device's settings store (its own IndexedDB, the user's sync area). */
const deviceSettings = (name: string) =>
  createSyncedSettingsStore(createSettingsStore(createStore(`retick-${name}`, 'settings')), fakeBrowser.storage.sync);

function watcher(settings: SettingsStore) {
  const client = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
  const tracked = new Set<string>();
  const check = createWatchedCheck({
    settings,
    client: async () => client,
    checkpoints: createWatchedCheckpoints(),
    track: async (intentId) => {
      const added = !tracked.has(intentId);
      tracked.add(intentId);
      return { ok: true, added, intentId };
    },
    now: () => sim.now(),
    serviceNow: () => sim.now(),
  });
  return { check, tracked };
}

/** Three days of 200 intents a day for `owner`, on the simulator's clock. */
function threeDays(owner: string) {
  for (let day = 0; day < 3; day++) {
    for (let i = 0; i < 200; i++) {
      sim.createIntent('stuck', 600_000, owner);
      sim.advanceClock(60_000);
    }
    sim.advanceClock(86_400_000 - 200 * 60_000);
  }
}

describe('re-ticking a watched address with no check in between', () => {
  const base = () => ({ baseUrl: sim.url, accessKey: sim.accessKey, watchedAddresses: [MINE] });

  it('starts from the re-tick: none of the 600 intents made meanwhile is tracked, what follows is', async () => {
    const settings = deviceSettings('laptop');
    await settings.set({ ...base(), autoTrackAddresses: [MINE] });
    const { check, tracked } = watcher(settings);
    sim.createIntent('stuck', 600_000, MINE);
    sim.advanceClock(1_000);
    expect(await check(true)).toBe(1);
    // Unticked; the browser closes before any check sees it.
    await settings.set({ ...base(), autoTrackAddresses: [] });
    threeDays(MINE);
    await settings.set({ ...base(), autoTrackAddresses: [MINE] });
    expect(await check(true)).toBe(0);
    expect(await check(true)).toBe(0);
    expect(tracked.size).toBe(1);
    sim.advanceClock(5_000);
    const fresh = sim.createIntent('stuck', 600_000, MINE);
    sim.advanceClock(1_000);
    expect(await check(true)).toBe(1);
    expect(tracked.has(fresh)).toBe(true);
  });

  it('the same when both changes come by sync from another device', async () => {
    const desk = deviceSettings('desk');
    const laptop = deviceSettings('laptop');
    await desk.set({ ...base(), autoTrackAddresses: [MINE] });
    await laptop.set({ ...base(), autoTrackAddresses: [MINE] });
    const { check, tracked } = watcher(laptop);
    sim.createIntent('stuck', 600_000, MINE);
    sim.advanceClock(1_000);
    expect(await check(true)).toBe(1);
    await desk.set({ ...base(), autoTrackAddresses: [] });
    threeDays(MINE);
    await desk.set({ ...base(), autoTrackAddresses: [MINE] });
    expect(await check(true)).toBe(0);
    expect(tracked.size).toBe(1);
  });

  it('a save that keeps the address ticked keeps its tick: the check goes on from its checkpoint', async () => {
    const settings = deviceSettings('laptop');
    await settings.set({ ...base(), autoTrackAddresses: [MINE] });
    const { check } = watcher(settings);
    expect(await check(true)).toBe(0);
    const made = [sim.createIntent('stuck', 600_000, MINE), sim.createIntent('stuck', 600_000, MINE)];
    sim.advanceClock(120_000);
    // Another setting changes (the form rebuilds the settings without the tokens).
    await settings.set({
      ...base(),
      autoTrackAddresses: [MINE],
      notify: { succeeded: true, failed: true, refunded: true, stuck: false, sound: true },
    });
    expect(await check(true)).toBe(made.length);
  });
});
