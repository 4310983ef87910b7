/**
 * Issue 20, reproduction 4: the watched-address check's `fromTime` is the service's time, not the user's. With the
 * user's clock 2 min fast, `fromTime` (local now − 60 s) lay a minute in the service's future and 30 new intents
 * gave 1 tracked. The history here is a fake on virtual time that honours `fromTime` and the owner filter.
 */
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HistoryLiteRequest, HistoryLiteResponse } from '@/lib/api/schemas/history';
import { createSettingsStore, createWatchedCheckpoints } from '@/lib/store';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { createWatchedCheck } from '@/lib/worker/watched';

const MINE = `0x${'a1'.repeat(20)}`;
const MIN = 60_000;

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe('watched addresses on the service clock', () => {
  for (const skew of [2 * MIN, 10 * MIN, -10 * MIN]) {
    it(`a user clock ${skew / MIN} min off: every new intent of a ticked address is tracked`, async () => {
      let service = 1_800_000_000_000;
      const local = () => service + skew;
      const serviceClock = new ServiceClock(local);
      const created: Array<{ intentId: string; at: number }> = [];
      const client = {
        async getIntentHistoryLite(req: HistoryLiteRequest): Promise<HistoryLiteResponse> {
          // Every answer carries the service's Date header, to the second.
          serviceClock.observeDate(Math.floor(service / 1000) * 1000);
          const from = (req.fromTime ?? 0) * 1000;
          const rows = created.filter((c) => c.at >= from && c.at <= service && req.byOwnerAddress === MINE);
          // Each row names its owner and creation time, as the service's rows do (the check tracks only its owner's).
          return {
            intents: rows.map((r) => ({
              intentId: r.intentId,
              status: 'EXECUTING',
              ownerAddress: MINE,
              createdAt: new Date(r.at).toISOString(),
            })),
          } as HistoryLiteResponse;
        },
      };
      const settings = createSettingsStore();
      await settings.set({ baseUrl: 'http://svc', accessKey: 'k', watchedAddresses: [MINE], autoTrackAddresses: [MINE] });
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
        now: local,
        serviceNow: () => serviceClock.now(),
      });
      await check(true);
      // 30 new intents, one every 4 s, checked once a minute.
      for (let i = 0; i < 30; i++) {
        service += 4_000;
        created.push({ intentId: `0x${String(i + 1).padStart(64, '0')}`, at: service });
        if (i % 15 === 14) await check(true);
      }
      service += MIN;
      await check(true);
      expect(tracked.size).toBe(30);
    });
  }
});
