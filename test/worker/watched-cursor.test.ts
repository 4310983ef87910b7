/**
 * The watched-address check against a history that answers every page after the first with the cursor it was asked
 * for (`nextPage.after` repeated, `more: true`): the simulator over HTTP, its answers' cursors rewritten. A repeated
 * cursor ends the walk as its last page would: the check does not read the same page again and again, check after
 * check, and the intents created after it are still tracked (seed 20261128 of the world campaign, run 1376).
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import type { HistoryLiteRequest } from '@/lib/api/schemas/history';
import { createSettingsStore, createWatchedCheckpoints } from '@/lib/store';
import { createWatchedCheck, WATCH_PAGE_SIZE } from '@/lib/worker/watched';
import { type Simulator, startSimulator } from '../../simulator/server';

const MINE = `0x${'a1'.repeat(20)}`;

let sim: Simulator;
beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  sim = await startSimulator({ dataset: false });
});
afterEach(() => sim.close());

/** Creates `n` intents of MINE, one a second on the simulator's clock. */
function createSpaced(n: number): string[] {
  return Array.from({ length: n }, () => {
    const id = sim.createIntent('stuck', 3_600_000, MINE);
    sim.advanceClock(1_000);
    return id;
  });
}

it('a history that repeats its page cursor does not hold the check on one page: later intents are tracked', async () => {
  const settings = createSettingsStore();
  await settings.set({ baseUrl: sim.url, accessKey: sim.accessKey, watchedAddresses: [MINE], autoTrackAddresses: [MINE] });
  const real = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
  const requests: HistoryLiteRequest[] = [];
  const client = {
    async getIntentHistoryLite(request: HistoryLiteRequest) {
      requests.push(request);
      const res = await real.getIntentHistoryLite(request);
      // Every page asked with a cursor answers that same cursor, with more to come.
      const after = request.page.after;
      return after === undefined ? res : { ...res, nextPage: { ...res.nextPage, after, more: true } };
    },
  };
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
    // The service's time is the simulator's.
    now: () => sim.now(),
  });
  // More than two pages of intents, a second apart: the first check reads two pages and meets the repeated cursor.
  const first = createSpaced(2 * WATCH_PAGE_SIZE + 20);
  await check(true);
  expect(tracked.size).toBe(2 * WATCH_PAGE_SIZE);
  // The second page's repeated cursor ended the walk: no third request for the page just read.
  expect(requests).toHaveLength(2);
  const later = createSpaced(3);
  for (let k = 0; k < 6; k++) await check(true);
  expect([...first, ...later].filter((id) => !tracked.has(id))).toEqual([]);
});
