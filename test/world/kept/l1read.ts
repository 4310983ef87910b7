/** Kept world schedules about the user's look-ups sent at once (L1, I5 the user first); see test/world/examples.ts for the shape. */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm test` runs each of them. */
export const FIXED: Example[] = [
  {
    // Seed 20261207, run 4523 (WORLD_FAULTS=all).
    seed: 20265730,
    found:
      "L1 (worker): a History look-up 11.2 s into the run waited 3.8 s for a place: the worker's 4 were held by three long-polls and an ETA GetIntent the service never answered (the http family's 'no answer'), freed only at the GetIntent's 10 s time-out; first in line is only an order. The user's look-ups now have one place of their own beyond the 4 (lib/api/budget-limits.ts USER_PLACES; test/api/budget-user-place.test.ts); I5 checks at most 4 in flight besides the user's, 5 in all",
    schedule: {
      kind: 'chrome',
      intents: [
        {
          addAt: 0,
          createdBefore: 1567,
          committedFor: 60002,
          executing: [60423, 112742],
          end: 'ABORTED',
          inHistory: false,
          flapStates: 35,
          flapEveryMs: 100,
          flapForMs: 371882,
        },
        {
          addAt: 0,
          createdBefore: 22,
          committedFor: -1,
          executing: [],
          end: 'EXECUTING',
          inHistory: false,
          flapStates: 39,
          flapEveryMs: 100,
          flapForMs: 60008,
        },
        {
          addAt: 0,
          createdBefore: 616,
          committedFor: 60011,
          executing: [30795],
          end: 'EXECUTING',
          inHistory: false,
          flapStates: 4,
          flapEveryMs: 1000,
          flapForMs: 60015,
        },
        {
          addAt: 1,
          createdBefore: 198092,
          committedFor: 114152,
          executing: [55983, 72095],
          end: 'SUCCEEDED',
          inHistory: true,
          flapStates: 40,
          flapEveryMs: 4000,
          flapForMs: 118475,
        },
      ],
      serverWaitMs: 20000,
      history: false,
      user: [{ at: 211237, kind: 'refresh', target: 1627104368 }],
      kill: [
        { n: 223, after: false },
        { n: 126, after: true },
        { n: 533, after: true },
      ],
      idle: [528482, 307327],
      restart: [],
      skewMs: 120000,
      jumps: [
        { at: 30213, ms: -4932299 },
        { at: 719047, ms: -34852 },
        { at: 145830, ms: 600000 },
      ],
      drift: { at: 212232, rate: -8.119500843733045e-143, correctAfter: 599997 },
      idb: [
        { db: 'svc-intents', key: 'calm-state', mode: 'read', from: 286598, forMs: 8209 },
        { db: 'svc-outbox', key: 'settings', mode: 'write', from: 528604, forMs: 2935 },
      ],
      quota: [],
      sync: [
        { at: 204174, what: 'malformed' },
        { at: 679825, what: 'slow-clock' },
      ],
      rejectNotificationAt: [36, 40],
      closes: [],
      burst: ['malformed', 'ok', 'timeout', 'timeout', 'reset', 'reset', 'timeout', 'timeout'],
      retryAfter: { rate: 0.01, seconds: 30, form: 'seconds' },
      updatedAhead: { rate: 0.02, aheadMs: 2270592000000 },
      backwards: { rate: 0.05 },
      flap40: false,
      bigInt: { rate: 0.5 },
      testConnection: [],
      foreign: { rate: 0.3 },
      extra: {
        trackMany: {
          at: 239988,
          members: [false, true, false, false, false, false],
          invalid: [],
          repeats: [
            { of: 1807306125, padded: true },
            { of: 199581163, padded: false },
            { of: 385894588, padded: false },
          ],
          import: { format: 'json', ended: [true] },
        },
        clicks: [
          { at: 72974, target: 1637680161, button: -1, removeFirst: false },
          { at: 220276, target: 1713595061, button: 1, removeFirst: true },
        ],
        bigIntIntent: { rate: 1, inEstimate: 0.5 },
        watched: {
          tickAt: 1538,
          tickVia: 'sync',
          untick: { after: 122669, via: 'sync', retickAfter: 20000, retickVia: 'sync' },
          intents: [
            { at: -111256, runsFor: 66848 },
            { at: -13, runsFor: 151612 },
          ],
        },
        chain: {
          intents: [{ index: 5, story: 'exact', lagMs: 0 }],
          reorgs: [{ afterMs: 11947, depth: 4, backAfterBlocks: 1 }],
          faultRate: 0.3,
          faults: ['http500', 'rpcError'],
          wrongChain: [{ fromMs: 24767, forMs: 89945 }],
        },
        notFound: [59991, 60016, 479992, 0, 59998, 56079],
        history: {
          others: 2990,
          othersSpanMs: 60000,
          ignoreOwner: true,
          repeatCursor: true,
          outOfOrder: false,
          staleRows: true,
          omit: 0.2,
        },
        lookups: [105859, 11176, 75409, 201492],
      },
    } as unknown as Schedule,
  },
];
