/**
 * A worker that has heard no answer yet (just restarted) and a user clock an hour behind: the watched-address check
 * took the local clock for the service's, found the address's checkpoint (a minute old) "in the future", and looked
 * back an hour from the local clock — two hours of the service's — tracking intents created while the address was
 * unticked (the world campaign's `watched` family, run 52 of seed 20261126). With no evidence of the service's time
 * the check first asks the service (its answer's Date header sets the clock), then reads from the checkpoint.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryLiteRequest, HistoryLiteResponse } from '@/lib/api/schemas/history';
import type { Settings, WatchedCheckpoint } from '@/lib/store';
import { ServiceClock } from '@/lib/tracker/service-clock';
import { createWatchedCheck } from '@/lib/worker/watched';

const MINE = `0x${'a1'.repeat(20)}`;
const MIN = 60_000;
const SERVICE = 1_800_000_000_000;

describe('the watched check of a worker with no answer yet', () => {
  for (const skew of [-60 * MIN, 60 * MIN]) {
    it(`a user clock ${skew / MIN} min off: reads from its checkpoint, not from an hour before the local clock`, async () => {
      const local = () => SERVICE + skew;
      const serviceClock = new ServiceClock(local);
      const rows = [
        // Created while the address was unticked, before the current tick's checkpoint.
        { intentId: `0x${'1'.repeat(64)}`, at: SERVICE - 30 * MIN },
        // Created after the checkpoint: new.
        { intentId: `0x${'2'.repeat(64)}`, at: SERVICE - 30_000 },
      ];
      let checkpoints: Record<string, WatchedCheckpoint> = {
        [MINE]: { fromTime: Math.floor((SERVICE - 2 * MIN) / 1000), tick: 'tok1' },
      };
      const settings: Settings = {
        baseUrl: 'https://svc.example',
        accessKey: 'k',
        autoTrackAddresses: [MINE],
        autoTrackTicks: [`${MINE}:tok1`],
      };
      const tracked: string[] = [];
      const check = createWatchedCheck({
        settings: { get: async () => settings, set: async () => {} },
        client: async () => ({
          async getIntentHistoryLite(req: HistoryLiteRequest): Promise<HistoryLiteResponse> {
            // Every answer carries the service's Date header (the worker's fetch feeds it to the service clock).
            serviceClock.observeDate(SERVICE);
            const from = (req.fromTime ?? 0) * 1000;
            return {
              intents: rows
                .filter((r) => r.at >= from)
                .map((r) => ({ intentId: r.intentId, status: 'EXECUTING', ownerAddress: MINE, createdAt: new Date(r.at).toISOString() })),
            } as HistoryLiteResponse;
          },
        }),
        checkpoints: {
          get: async () => ({ ...checkpoints }),
          set: async (c) => {
            checkpoints = c;
          },
        },
        track: async (intentId) => {
          tracked.push(intentId);
          return { ok: true, added: true, intentId };
        },
        now: local,
        monotonic: () => 0,
        serviceNow: () => serviceClock.now(),
        serviceLatest: () => serviceClock.latestIfDecidable(),
        serviceKnown: () => serviceClock.hasEvidence,
      });
      await check(true);
      expect(tracked).toEqual([rows[1]!.intentId]);
      expect(checkpoints[MINE]!.fromTime * 1000).toBeLessThanOrEqual(SERVICE);
      expect(checkpoints[MINE]!.fromTime * 1000).toBeGreaterThanOrEqual(SERVICE - 3 * MIN);
    });
  }
});
