/** Kept world schedules of seed 20261201 read by helper lvw (L1, V1, W1); see test/world/examples.ts for the shape. */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm test` runs each of them. */
export const FIXED: Example[] = [
  {
    // Seed 20261201, run 14606 (WORLD_FAULTS=all).
    seed: 20275807,
    found:
      "L1 (oracle): the look-up, asked at 18 ms, woke a worker that died in its wiring at that same instant (kill after alarms.create), the next started at once: a death window of no length, which overlaps nothing, so L1 named no excuse. Lost with the dying worker; L1 now reads a death at any instant of the wait ('diedInWait', test/world/lookups.test.ts); a worker that never sends a look-up still fails (seed 20261201 run 14600)",
    schedule: {
      kind: 'chrome',
      intents: [
        {
          addAt: 12,
          createdBefore: 414593,
          committedFor: 7697,
          executing: [9161],
          end: 'EXECUTING',
          inHistory: true,
          flapStates: 4,
          flapEveryMs: 100,
          flapForMs: 477098,
        },
        {
          addAt: 97323,
          createdBefore: 54596,
          committedFor: -1,
          executing: [],
          end: 'ABORTED',
          inHistory: true,
          flapStates: 22,
          flapEveryMs: 1000,
          flapForMs: 456134,
        },
      ],
      serverWaitMs: 20000,
      history: false,
      user: [
        { at: 268272, kind: 'retry', target: 235307613 },
        { at: 122637, kind: 'retry', target: 2083849346 },
      ],
      kill: [
        { n: 5, after: true },
        { n: 312, after: false },
        { n: 2, after: true },
      ],
      idle: [],
      restart: [{ at: 646139, closedMs: 299988 }],
      skewMs: -600000,
      jumps: [
        { at: 449644, ms: 49113 },
        { at: 440584, ms: -5476158 },
      ],
      drift: { at: 685075, rate: -0.04999999999999998, correctAfter: 60019 },
      idb: [
        { db: 'svc-outbox', key: 'calm-state', mode: 'read', from: 90348, forMs: 6502 },
        { db: 'svc-intents', key: 'settings', mode: 'read', from: 443990, forMs: 225439 },
      ],
      quota: [
        { db: 'svc-settings', from: 254360, forMs: 55999 },
        { db: 'svc-outbox', from: 498583, forMs: 143732 },
      ],
      sync: [{ at: 52845, what: 'malformed' }],
      rejectNotificationAt: [10],
      closes: [
        { at: 631582, all: true, target: 160801439 },
        { at: 482444, all: true, target: 2147483627 },
      ],
      burst: ['malformed', '500', 'malformed', 'reset', 'timeout', 'malformed', 'timeout', 'ok'],
      retryAfter: { rate: 0.01, seconds: 1, form: 'http-date' },
      lyingDate: { rate: 0.02, offsetMs: 2270592000000 },
      updatedAhead: { rate: 0.2, aheadMs: 300000 },
      backwards: { rate: 0.05 },
      flap40: true,
      bigInt: { rate: 0.5 },
      testConnection: [],
      extra: {
        trackMany: {
          at: 11200,
          members: [true, false, false, true, true, true],
          invalid: [],
          repeats: [{ of: 1909432333, padded: true }],
          import: { format: 'csv', ended: [] },
        },
        clicks: [
          { at: 393402, target: 1038291345, button: 1, removeFirst: true },
          { at: 486192, target: 1398024432, button: 1, removeFirst: true },
          { at: 504590, target: 339119108, button: 0, removeFirst: true },
        ],
        bigIntIntent: { rate: 0.3, inEstimate: 0.5 },
        watched: {
          tickAt: 9,
          tickVia: 'options',
          untick: { after: 185337, via: 'sync', retickAfter: 0, retickVia: 'options' },
          intents: [
            { at: 639170, runsFor: 30008 },
            { at: -618978, runsFor: 66055 },
            { at: -19, runsFor: 30016 },
            { at: 719985, runsFor: 40769 },
            { at: -1900463, runsFor: 81068 },
          ],
        },
        chain: {
          intents: [{ index: 1435567955, story: 'exact', lagMs: 5000 }],
          reorgs: [],
          faultRate: 0,
          faults: ['http500', 'timeout'],
          wrongChain: [],
        },
        notFound: [479982, 60001, 0, 0, 155233, 4582],
        history: { others: 2692, othersSpanMs: 60000, ignoreOwner: false, repeatCursor: false, outOfOrder: true, staleRows: true, omit: 0 },
        lookups: [18],
      },
    } as unknown as Schedule,
  },
  {
    // Seed 20261201, run 20312 (WORLD_FAULTS=all).
    seed: 20281513,
    found:
      "L1 (oracle): the look-up, asked at 18 ms, woke a worker that died inside its synchronous wiring (kill before alarms.get) before the message was handed over, the next started at once: a death window of no length, which overlaps nothing, so L1 named no excuse. Lost with the dying worker; L1 now reads a death at any instant of the wait ('diedInWait', test/world/lookups.test.ts)",
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 58624,
          createdBefore: 224732,
          committedFor: 16642,
          executing: [65068, 92945, 83295],
          end: 'REFUNDED',
          inHistory: true,
          flapStates: 19,
          flapEveryMs: 1000,
          flapForMs: 355306,
        },
      ],
      serverWaitMs: 0,
      history: true,
      user: [
        { at: 52515, kind: 'retry', target: 1995098090 },
        { at: 631365, kind: 'refresh', target: 1678747689 },
      ],
      kill: [
        { n: 3, after: true },
        { n: 5, after: false },
        { n: 595, after: false },
      ],
      idle: [149042, 27577, 383441],
      restart: [{ at: 412692, closedMs: 122103 }],
      skewMs: 0,
      jumps: [
        { at: 299325, ms: 0 },
        { at: 719988, ms: -6290917 },
        { at: 19, ms: 226516 },
      ],
      drift: { at: 719998, rate: -2.6657536276161602e-307, correctAfter: 599991 },
      idb: [
        { db: 'svc-settings', key: 'tracker-state', mode: 'write', from: 480905, forMs: 171342 },
        { db: 'svc-outbox', key: 'calm-state', mode: 'write', from: 523144, forMs: 35520 },
      ],
      quota: [{ db: 'svc-intents', from: 565230, forMs: 59659 }],
      sync: [],
      rejectNotificationAt: [1, 36],
      closes: [],
      burst: [],
      retryAfter: { rate: 0.05, seconds: 1, form: 'seconds' },
      backwards: { rate: 0.05 },
      flap40: true,
      bigInt: { rate: 0.5 },
      testConnection: [
        { at: 719981, clockAheadMs: -1200000 },
        { at: 719988, clockAheadMs: 0, retryAfterSeconds: 86400 },
      ],
      foreign: { rate: 0.05 },
      extra: {
        trackMany: {
          at: 37178,
          members: [true, false, false, false, true, true],
          invalid: ['—', '0x111111111111111111111111111111111111111111111111111111111111111'],
          repeats: [{ of: 27, padded: true }],
          import: { format: 'json', ended: [false] },
        },
        clicks: [
          { at: 654947, target: 1237304991, button: -1, removeFirst: false },
          { at: 326958, target: 2058944758, button: 1, removeFirst: false },
        ],
        bigIntIntent: { rate: 0.3, inEstimate: 1 },
        watched: {
          tickAt: 4,
          tickVia: 'options',
          untick: { after: 137051, via: 'sync', retickAfter: 500, retickVia: 'sync' },
          intents: [{ at: -2175724, runsFor: 219792 }],
        },
        chain: {
          intents: [{ index: 829876920, story: 'reverted', lagMs: 5000 }],
          reorgs: [],
          faultRate: 0.3,
          faults: ['http500'],
          wrongChain: [],
        },
        notFound: [-1, 511, 326569, -1, 0, -1],
        history: { others: 0, othersSpanMs: 60000, ignoreOwner: true, repeatCursor: true, outOfOrder: false, staleRows: true, omit: 0.2 },
        lookups: [18],
      },
    } as unknown as Schedule,
  },
];
