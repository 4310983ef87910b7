/**
 * Hostile tests of the watched-address check (lib/worker/watched.ts): several addresses ticked together and a check
 * that never completes, refused writes, a check longer than the interval, wall-clock jumps. Written by a tester who
 * did not write the code.
 */
import { describe, expect, it } from 'vitest';
import type { HistoryLiteRequest, HistoryLiteResponse } from '@/lib/api/schemas/history';
import type { Settings, WatchedCheckpoint } from '@/lib/store';
import { createWatchedCheck, WATCH_INTERVAL_MS } from '@/lib/worker/watched';

const MIN = 60_000;
const A = `0x${'a4'.repeat(20)}`;
const B = `0x${'b5'.repeat(20)}`;
const TICKED_AT = 1_800_000_000_000;
const OLD_A = `0x${'1'.repeat(64)}`;
const OLD_B = `0x${'2'.repeat(64)}`;
const rows = [
  { owner: A, intentId: OLD_A, at: TICKED_AT - 48 * MIN },
  { owner: B, intentId: OLD_B, at: TICKED_AT - 48 * MIN },
];

interface Life {
  /** Whether a history request of `owner` is ever answered in this life. */
  answers?: (owner: string) => boolean;
  /** Whether the checkpoints store refuses the write number `n` (0-based). */
  refuses?: (n: number) => boolean;
  monotonic?: () => number;
  /** Resolves each answer only when this promise does (a slow service). */
  gate?: () => Promise<void>;
}

/** One worker life's check at service time `now()`, over a shared checkpoint store. */
function life(store: { checkpoints: Record<string, WatchedCheckpoint> }, now: () => number, tracked: string[], o: Life = {}) {
  const settings: Settings = { baseUrl: 'https://svc.example', accessKey: 'k', autoTrackAddresses: [A, B] };
  const asked: Array<{ owner: string; from: number }> = [];
  let writes = 0;
  const check = createWatchedCheck({
    settings: { get: async () => settings, set: async () => {} },
    client: async () => ({
      async getIntentHistoryLite(req: HistoryLiteRequest): Promise<HistoryLiteResponse> {
        const owner = (req.byOwnerAddress ?? '').toLowerCase();
        asked.push({ owner, from: req.fromTime ?? 0 });
        if (o.answers && !o.answers(owner)) return new Promise<HistoryLiteResponse>(() => {});
        await o.gate?.();
        const from = (req.fromTime ?? 0) * 1000;
        return {
          intents: rows
            .filter((r) => r.owner === owner && r.at >= from)
            .map((r) => ({ intentId: r.intentId, status: 'EXECUTING', ownerAddress: owner, createdAt: new Date(r.at).toISOString() })),
        } as HistoryLiteResponse;
      },
    }),
    checkpoints: {
      get: async () => ({ ...store.checkpoints }),
      set: async (c) => {
        if (o.refuses?.(writes++)) throw new Error('QuotaExceededError');
        store.checkpoints = c;
      },
    },
    track: async (intentId) => {
      tracked.push(intentId);
      return { ok: true, added: true, intentId };
    },
    now,
    serviceNow: now,
    monotonic: o.monotonic ?? now,
  });
  return { check, asked };
}

const turns = async (n = 50) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('the watched check against hostile timing', () => {
  it('two addresses ticked together, the first read never answered: the second address’s first look is kept too', async () => {
    const store = { checkpoints: {} as Record<string, WatchedCheckpoint> };
    const tracked: string[] = [];
    const first = life(store, () => TICKED_AT, tracked, { answers: () => false });
    void first.check(true);
    await turns();
    expect(first.asked.map((x) => x.owner)).toEqual([A]);
    const later = life(store, () => TICKED_AT + 17 * MIN, tracked);
    await later.check(true);
    // Both addresses were ticked at TICKED_AT and a check decided their first look then: each intent created 48 min
    // before the tick is tracked, B's as well as A's.
    expect(tracked.sort()).toEqual([OLD_A, OLD_B].sort());
  });

  it('the store refuses the first look’s write: the read goes on and its result is kept', async () => {
    const store = { checkpoints: {} as Record<string, WatchedCheckpoint> };
    const tracked: string[] = [];
    const l = life(store, () => TICKED_AT, tracked, { refuses: (n) => n === 0 });
    await l.check(true);
    expect(tracked.sort()).toEqual([OLD_A, OLD_B].sort());
    expect(store.checkpoints[A]).toBeDefined();
    expect(store.checkpoints[B]).toBeDefined();
  });

  it('a check longer than the interval: calls meanwhile join it; the next starts at the first call after it, not a minute after it ended', async () => {
    const store = { checkpoints: {} as Record<string, WatchedCheckpoint> };
    let t = TICKED_AT;
    let open!: () => void;
    let gate = new Promise<void>((r) => (open = r));
    const l = life(store, () => t, [], { gate: () => gate });
    const first = l.check();
    await turns();
    t += 2 * WATCH_INTERVAL_MS;
    // Joins the check under way: no second request.
    const joined = l.check();
    await turns();
    expect(l.asked).toHaveLength(1);
    open();
    gate = Promise.resolve();
    await first;
    expect(await joined).toBe(0);
    const asked = l.asked.length;
    t += 1_000;
    await l.check();
    expect(l.asked.length).toBeGreaterThan(asked);
  });

  it('the wall clock jumping back an hour does not stop the check (its interval is on the monotonic clock)', async () => {
    const store = { checkpoints: {} as Record<string, WatchedCheckpoint> };
    let wall = TICKED_AT;
    let mono = 0;
    const l = life(store, () => wall, [], { monotonic: () => mono });
    await l.check();
    const asked = l.asked.length;
    wall -= 60 * MIN;
    mono += WATCH_INTERVAL_MS;
    await l.check();
    expect(l.asked.length).toBeGreaterThan(asked);
  });
});
