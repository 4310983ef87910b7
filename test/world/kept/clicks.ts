/**
 * Kept world schedules about clicks on notifications (C1): a click opens what it says and the notification goes, and
 * does not come back. See test/world/examples.ts for the shape.
 */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm run test:kept` and `npm run campaign` run each of them. */
export const FIXED: Example[] = [
  {
    // Seed 20261208, run 573 (WORLD_FAULTS=all).
    seed: 20261781,
    found:
      "C1: a final shown by a worker that died at once after its create (nothing recorded, no mark); the next worker started with the user's click on it, which opened the receipt and cleared it; the outbox then settled the job by asking the screen, did not find it, and showed it again. A click now records that its notification was shown (lib/notify/delivery.ts seen, lib/worker/notification-routing.ts).",
    schedule: {
      kind: 'chrome',
      intents: [
        {
          addAt: 0,
          createdBefore: 115297,
          committedFor: 16984,
          executing: [39764, 19451],
          end: 'EXECUTING',
          inHistory: false,
          flapStates: 35,
          flapEveryMs: 100,
          flapForMs: 182580,
        },
        {
          addAt: 0,
          createdBefore: 2154,
          committedFor: 458308,
          executing: [92227],
          end: 'SUCCEEDED',
          inHistory: true,
          flapStates: 22,
          flapEveryMs: 4000,
          flapForMs: 193314,
        },
        {
          addAt: 29640,
          createdBefore: 176436,
          committedFor: -1,
          executing: [16193, 22511],
          end: 'FAILED',
          inHistory: true,
          flapStates: 32,
          flapEveryMs: 4000,
          flapForMs: 385315,
        },
      ],
      serverWaitMs: 90000,
      history: false,
      user: [
        { at: 1, kind: 'refresh', target: 2147483632 },
        { at: 19, kind: 'remove', target: 396868742 },
        { at: 720000, kind: 'remove', target: 20 },
      ],
      kill: [
        { n: 225, after: true },
        { n: 233, after: true },
      ],
      idle: [],
      restart: [],
      skewMs: 600000,
      jumps: [{ at: 636671, ms: -600000 }],
      idb: [
        { db: 'svc-settings', key: 'calm-state', mode: 'read', from: 576672, forMs: 3910 },
        { db: 'svc-outbox', mode: 'read', from: 272475, forMs: 299165 },
      ],
      quota: [
        { db: 'svc-settings', from: 85499, forMs: 159782 },
        { db: 'svc-settings', from: 440383, forMs: 173543 },
      ],
      sync: [
        { at: 190754, what: 'huge' },
        { at: 111337, what: 'fast-clock' },
      ],
      rejectNotificationAt: [],
      closes: [
        { at: 719996, all: false, target: 5 },
        { at: 17, all: true, target: 218972079 },
        { at: 7, all: true, target: 804645695 },
        { at: 10, all: false, target: 1503258883 },
      ],
      burst: ['ok', 'reset', 'ok'],
      retryAfter: { rate: 0.05, seconds: 0, form: 'seconds' },
      lyingDate: { rate: 0.02, offsetMs: 1200000 },
      updatedAhead: { rate: 0.2, aheadMs: 2270592000000 },
      flap40: false,
      bigInt: { rate: 0.05 },
      testConnection: [],
      foreign: { rate: 0.3 },
      extra: {
        clicks: [
          { at: 320474, target: 1344926887, button: 1, removeFirst: false },
          { at: 82622, target: 565334984, button: -1, removeFirst: false },
        ],
        bigIntIntent: { rate: 0.3, inEstimate: 0.5 },
        chain: {
          intents: [{ index: 672491822, story: 'exact', lagMs: 5000 }],
          reorgs: [],
          faultRate: 0.3,
          faults: ['http500', 'rpcError'],
          wrongChain: [],
        },
        notFound: [2402, 504, 0, 3806, 2750, 0],
        history: { others: 1, othersSpanMs: 60000, ignoreOwner: true, repeatCursor: false, outOfOrder: false, staleRows: false, omit: 0.5 },
        lookups: [710811],
      },
      slowDisk: [{ from: 6, forMs: 38568, ms: 100 }],
      slowCalls: [{ from: 188610, forMs: 21887, ms: 5 }],
    } as unknown as Schedule,
  },
];
