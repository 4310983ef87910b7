/**
 * A Retry-After hold a previous worker kept holds every lane of the next worker from its start, even while IndexedDB
 * refuses to read the tracked intents (docs/tracking.md "Faults"; I5). The worker's wiring (`createTrackingCore`)
 * gates the request budget on the tracker's load and on the kept hold's restoring: when the load failed on the
 * intents, the gate opened before the hold was back in the budget, and a watched check or a look-up went out inside
 * the service's Retry-After. Found by the world campaign, seed 20261129, runs 5481, 14276, 19143, 19502, 24698,
 * 24867 (test/world/kept/holds.ts).
 */
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RequestBudget } from '@/lib/api/budget';
import { realPlatform } from '@/lib/platform';
import { createTrackerStateStore } from '@/lib/store';
import { createServiceAccess, openWorkerStores } from '@/lib/worker/compose';
import { createTrackingCore } from '@/lib/worker/compose-tracking';

const BASE = 'https://svc.example';
const HISTORY = '{"intents":[],"page":{}}';
/** The hold the previous worker kept (ms from the new worker's start). */
const HOLD_MS = 600;

describe('a kept Retry-After hold while the intents cannot be read', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
    // The tracker logs each load the refused intents fail.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  for (const refused of [false, true])
    it(`sends no request of the background lane before the hold ends (intents ${refused ? 'refused' : 'readable'})`, async () => {
      const sent: number[] = [];
      vi.stubGlobal('fetch', async () => {
        sent.push(Date.now());
        return new Response(HISTORY, { status: 200, headers: { 'Content-Type': 'application/json' } });
      });
      const platform = realPlatform(fakeBrowser as never);
      const now = () => platform.clock.now();
      const stores = openWorkerStores(platform, now);
      await stores.settings.set({ baseUrl: BASE, accessKey: 'the-key' });
      // What a previous worker left: a 429's hold, just set, HOLD_MS long.
      const heldAt = Date.now();
      const pausedUntil = heldAt + HOLD_MS;
      await createTrackerStateStore(stores.settingsDb).set({ pausedAt: heldAt, pausedUntil, pauseServedMs: 0, pauseReason: 'RateLimited' });
      if (refused) Object.assign(stores.intents, { list: () => Promise.reject(new DOMException('refused', 'UnknownError')) });
      const service = createServiceAccess(platform, stores, new RequestBudget({ clock: platform.clock }), now);
      const client = await service.clients.current('background');
      const core = createTrackingCore(platform, stores, service, false);
      try {
        // A watched check asked as the worker starts.
        await client!.getIntentHistory({ byOwnerAddress: '0x00000000000000000000000000000000000000a1' });
        expect(sent).toHaveLength(1);
        // Timers may fire a millisecond early; the hold was read a few ms after it was written, so it ends no sooner.
        expect(sent[0]).toBeGreaterThanOrEqual(pausedUntil - 5);
      } finally {
        core.tracker.stop();
      }
    });
});
