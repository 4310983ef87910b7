/**
 * Issue 27, world campaign seed 20261205 run 41165: the first check of a ticked address settled the service's time
 * and asked for its history, but the worker was gone (a browser closed) before the answer; later checks waited
 * behind a 429's hold and a second closure, and the first one to complete, 17 minutes after the tick, looked back an
 * hour from its own time: an intent created 48 minutes before the tick was never tracked. The first look is now kept
 * as the check decides it, before it reads, and the next worker reads on from there.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryLiteRequest, HistoryLiteResponse } from '@/lib/api/schemas/history';
import type { Settings, WatchedCheckpoint } from '@/lib/store';
import { createWatchedCheck } from '@/lib/worker/watched';

const MIN = 60_000;
const OWNER = `0x${'c3'.repeat(20)}`;
/** The service's time (ms) when the address is ticked and first checked. */
const TICKED_AT = 1_800_000_000_000;
const OLD = `0x${'1'.repeat(64)}`;

/** One worker life's check at service time `now()`; `answer: false` models a worker that dies before any answer. */
function life(store: { checkpoints: Record<string, WatchedCheckpoint> }, now: () => number, tracked: string[], answer: boolean) {
  const settings: Settings = { baseUrl: 'https://svc.example', accessKey: 'k', autoTrackAddresses: [OWNER] };
  const rows = [{ intentId: OLD, at: TICKED_AT - 48 * MIN }];
  const asked: number[] = [];
  const check = createWatchedCheck({
    settings: { get: async () => settings, set: async () => {} },
    client: async () => ({
      getIntentHistoryLite(req: HistoryLiteRequest): Promise<HistoryLiteResponse> {
        asked.push(req.fromTime ?? 0);
        // The worker died while this request waited: no answer ever reaches it.
        if (!answer) return new Promise<HistoryLiteResponse>(() => {});
        const from = (req.fromTime ?? 0) * 1000;
        return Promise.resolve({
          intents: rows
            .filter((r) => r.at >= from)
            .map((r) => ({ intentId: r.intentId, status: 'EXECUTING', ownerAddress: OWNER, createdAt: new Date(r.at).toISOString() })),
        } as HistoryLiteResponse);
      },
    }),
    checkpoints: {
      get: async () => ({ ...store.checkpoints }),
      set: async (c) => {
        store.checkpoints = c;
      },
    },
    track: async (intentId) => {
      tracked.push(intentId);
      return { ok: true, added: true, intentId };
    },
    now,
    serviceNow: now,
    monotonic: now,
  });
  return { check, asked };
}

describe('the first look of a ticked address, kept across a check that never completes', () => {
  it('an intent created 48 min before the tick is tracked by a worker that completes the first read 17 min later', async () => {
    const store = { checkpoints: {} as Record<string, WatchedCheckpoint> };
    const tracked: string[] = [];
    const first = life(store, () => TICKED_AT, tracked, false);
    void first.check(true);
    // Let the first check reach its (never answered) request.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(first.asked).toEqual([TICKED_AT / 1000 - 3600]);
    const later = life(store, () => TICKED_AT + 17 * MIN, tracked, true);
    await later.check(true);
    // Read from where the first check decided, an hour before the tick, not an hour before this later check.
    expect(later.asked).toEqual([TICKED_AT / 1000 - 3600]);
    expect(tracked).toEqual([OLD]);
  });

  it('a tick seen again after an untick keeps its start (a minute back) across a check that never completes', async () => {
    const store = { checkpoints: { [OWNER]: { fromTime: TICKED_AT / 1000 - 9_000, unticked: true } } as Record<string, WatchedCheckpoint> };
    const first = life(store, () => TICKED_AT, [], false);
    void first.check(true);
    for (let i = 0; i < 20; i++) await Promise.resolve();
    const later = life(store, () => TICKED_AT + 10 * MIN, [], true);
    await later.check(true);
    expect(later.asked).toEqual([TICKED_AT / 1000 - 60]);
  });
});
