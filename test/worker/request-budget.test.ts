/**
 * The whole worker's idle rate (invariant I5): the real tracker and the real watched-address check, each through the
 * worker's one request budget as `lib/background.ts` wires them, against the fake service on virtual time. What is
 * counted is what the service receives: at most 60 requests in any minute and at most 4 in flight, with 12 idle
 * intents and 20 or 100 watched addresses, with a server wait of 0 s and of 20 s.
 */
import { describe, expect, it } from 'vitest';
import { type Lane, RequestBudget } from '@/lib/api/budget';
import type { CallOptions } from '@/lib/api/http';
import type { Settings, WatchedCheckpoint } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import type { ReceiptTransport } from '@/lib/tracker/types';
import { createWatchedCheck } from '@/lib/worker/watched';
import { maxInAnyMinute } from '../api/rate';
import { HONEST, PENDING, sid } from '../tracker/engine-harness';
import { FakeService } from '../tracker/fake-service';
import { EventClock, RecordingNotifier } from '../tracker/fakes';

/**
 * `transport` with every call taking its place in `budget` first, as `SvcHttp.callWithText` does: the fake service
 * counts the client's time-out from the moment it is called, that is from when the request is sent.
 */
function throughBudget(transport: ReceiptTransport, budget: RequestBudget, lane: Lane): Required<ReceiptTransport> {
  const via =
    <Req, Res>(call: (req: Req, options?: CallOptions) => Promise<Res>) =>
    (req: Req, options?: CallOptions) =>
      budget.run(lane, () => call(req, options), options?.signal ? { signal: options.signal } : {});
  return {
    waitIntentReceipt: via(transport.waitIntentReceipt.bind(transport)),
    getIntentReceipt: via(transport.getIntentReceipt.bind(transport)),
    getIntentHistoryLite: via(transport.getIntentHistoryLite!.bind(transport)),
  };
}

/** Runs the worker for `minutes` of virtual time; resolves with what the service received. */
async function runWorker(options: { intents: number; watched: number; waitMs: number; minutes: number; perMinute?: number }) {
  const clock = new EventClock();
  const service = new FakeService(clock, options.waitMs, HONEST);
  const budget = new RequestBudget({ clock, ...(options.perMinute ? { perMinute: options.perMinute } : {}) });
  const t0 = clock.now();
  // Intents that never change (EXECUTING from the start), and watched addresses that have nothing new.
  for (let n = 1; n <= options.intents; n++) {
    service.add({
      intentId: sid(n),
      ownerAddress: '0xa1',
      createdAt: t0 - 60_000,
      inHistory: true,
      steps: [{ at: t0 - 60_000, status: 'EXECUTING', states: PENDING }],
    });
  }
  const addresses = Array.from({ length: options.watched }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  const tracker = new Tracker({
    store: new MemoryStore(),
    clock,
    notifier: new RecordingNotifier(),
    transport: async () => throughBudget(service.transport(), budget, 'tracker'),
    random: () => 1,
  });
  let settings: Settings = { baseUrl: 'https://svc.example', accessKey: 'k', autoTrackAddresses: addresses };
  let checkpoints: Record<string, WatchedCheckpoint> = {};
  const read = new Set<string>();
  const check = createWatchedCheck({
    settings: {
      get: async () => settings,
      set: async (s) => {
        settings = s;
      },
    },
    client: async () => {
      const client = throughBudget(service.transport(), budget, 'background');
      return {
        getIntentHistoryLite: async (req, options) => {
          const page = await client.getIntentHistoryLite(req, options);
          if (req.byOwnerAddress) read.add(req.byOwnerAddress);
          return page;
        },
      };
    },
    checkpoints: {
      get: async () => ({ ...checkpoints }),
      set: async (c) => {
        checkpoints = c;
      },
    },
    track: async (intentId) => ({ ok: true, added: (await tracker.track(intentId)).added, intentId }),
    now: () => clock.now(),
  });
  for (let n = 1; n <= options.intents; n++) await tracker.track(sid(n));
  // The worker's 30 s watchdog alarm: resume the tracker and check the watched addresses (throttled to a minute).
  const end = t0 + options.minutes * 60_000;
  const alarms = [];
  for (let at = t0; at < end; at += 30_000) {
    alarms.push({
      at,
      run: async () => {
        void tracker.resume();
        void check();
      },
    });
  }
  await clock.runUntil(end, alarms);
  tracker.stop();
  const starts = service.log.map((e) => e.start);
  return { starts, service, t0, read };
}

describe('the worker’s one request budget', () => {
  for (const waitMs of [0, 20_000]) {
    for (const watched of [20, 100]) {
      it(`keeps 12 idle intents and ${watched} watched addresses within 60 requests a minute, 4 in flight (server wait ${waitMs / 1000} s)`, async () => {
        const { starts, service, t0, read } = await runWorker({ intents: 12, watched, waitMs, minutes: 12 });
        // After the first reads of the 12 intents (the first minute is not idle).
        expect(maxInAnyMinute(starts, t0 + 60_000)).toBeLessThanOrEqual(60);
        expect(service.maxInFlight).toBeLessThanOrEqual(4);
        // Every watched address is read, over as many minutes as the budget needs.
        expect(read.size).toBe(watched);
      });
    }
  }
});

describe('the first minute after a start (issue 27, symptom 24)', () => {
  for (const intents of [12, 40]) {
    it(`holds 60 requests in any minute from the very start, ${intents} intents and 100 watched addresses`, async () => {
      // On the token bucket alone the tracker's first reads and the first watched check sent 65 in the first minute:
      // the tracker's requests were never held by the rate.
      const { starts, t0 } = await runWorker({ intents, watched: 100, waitMs: 0, minutes: 4 });
      expect(maxInAnyMinute(starts, t0)).toBeLessThanOrEqual(60);
    });
  }
});
