/**
 * The watched-address check over an in-memory history, wired on a service clock as lib/worker/compose-actions.ts
 * wires it: its checkpoints and what it tracked, for the watched-check tests.
 */
import type { HistoryLiteRequest, HistoryLiteResponse } from '@/lib/api/schemas/history';
import type { Settings, WatchedCheckpoint } from '@/lib/store';
import type { ServiceClock } from '@/lib/tracker/service-clock';
import { createWatchedCheck } from '@/lib/worker/watched';

/** A history row of the watched owner: its intentId and creation time (ms since the epoch, the service's time). */
export interface OwnerRow {
  intentId: string;
  at: number;
}

/** What the check is built on. `onAnswer` runs as each history answer arrives (e.g. to feed its Date header). */
export interface WatchedHarnessOptions {
  owner: string;
  settings: Settings;
  rows: OwnerRow[];
  serviceClock: ServiceClock;
  now: () => number;
  monotonic: () => number;
  checkpoints?: Record<string, WatchedCheckpoint>;
  onAnswer?: () => void;
}

/** Builds the check; `checkpoints()` reads what it stored, `tracked` what it tracked, in order. */
export function watchedOnHistory(o: WatchedHarnessOptions) {
  let checkpoints: Record<string, WatchedCheckpoint> = { ...(o.checkpoints ?? {}) };
  const tracked: string[] = [];
  const check = createWatchedCheck({
    settings: { get: async () => o.settings, set: async () => {} },
    client: async () => ({
      async getIntentHistoryLite(req: HistoryLiteRequest): Promise<HistoryLiteResponse> {
        o.onAnswer?.();
        const from = (req.fromTime ?? 0) * 1000;
        return {
          intents: o.rows
            .filter((r) => r.at >= from)
            .map((r) => ({ intentId: r.intentId, status: 'EXECUTING', ownerAddress: o.owner, createdAt: new Date(r.at).toISOString() })),
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
    now: o.now,
    monotonic: o.monotonic,
    serviceTime: () => o.serviceClock.settled(),
  });
  return { check, checkpoints: () => checkpoints, checkpoint: () => checkpoints[o.owner], tracked };
}
