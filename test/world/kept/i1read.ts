/** Kept world schedules about I1 after a 429 (the intent's back-off on top of the hold); see test/world/examples.ts for the shape. */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm test` runs each of them. */
export const FIXED: Example[] = [
  {
    // Seed 20261205, run 46209 (WORLD_FAULTS=all).
    seed: 20307414,
    found:
      'I1 (worker): 0x…03, answered NotFound 13 times, met a 429 with Retry-After: 0 (the hold 0 s, the tracker paused 1 s); its own back-off, as on any error, counted the NotFound answers as failures in a row and drew 59.4 s under the 60 s cap: 61.3 s without a check (the three kills in the settings read, 200 s earlier, were not the cause). A 429 now waits for the tracker-wide pause alone, no back-off of its own (lib/tracker/transitions.ts `failed`, Failure.rateLimited; test/tracker/rate-limited-backoff.test.ts)',
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 4,
          createdBefore: 54,
          committedFor: -1,
          executing: [41567, 34328],
          end: 'EXECUTING',
          inHistory: true,
          flapStates: 35,
          flapEveryMs: 1000,
          flapForMs: 133416,
        },
        {
          addAt: 0,
          createdBefore: 599993,
          committedFor: 539993,
          executing: [119995],
          end: 'SUCCEEDED',
          inHistory: false,
          flapStates: 4,
          flapEveryMs: 100,
          flapForMs: 60006,
        },
        {
          addAt: 0,
          createdBefore: 4539,
          committedFor: 2,
          executing: [],
          end: 'ABORTED',
          inHistory: false,
          flapStates: 15,
          flapEveryMs: 4000,
          flapForMs: 60011,
        },
      ],
      serverWaitMs: 1000,
      history: true,
      user: [{ at: 149142, kind: 'refresh', target: 704925358 }],
      kill: [
        { n: 596, after: false },
        { n: 392, after: true },
        { n: 10, after: true },
      ],
      idle: [13],
      restart: [],
      skewMs: 0,
      jumps: [],
      drift: { at: 205339, rate: 9.4e-323, correctAfter: 599987 },
      idb: [],
      quota: [],
      sync: [{ at: 16836, what: 'huge' }],
      rejectNotificationAt: [26],
      closes: [
        { at: 347699, all: false, target: 1993680279 },
        { at: 232867, all: false, target: 1842503631 },
        { at: 55349, all: true, target: 99161161 },
        { at: 615774, all: true, target: 219167482 },
      ],
      burst: ['ok', 'ok', 'malformed', 'reset', 'reset', 'timeout', 'ok'],
      retryAfter: { rate: 0.05, seconds: 0, form: 'http-date' },
      updatedAhead: { rate: 0.2, aheadMs: 3600000 },
      backwards: { rate: 0.05 },
      flap40: true,
      bigInt: { rate: 0.5 },
      testConnection: [{ at: 523050, clockAheadMs: 1200000, retryAfterSeconds: 3600 }],
      foreign: { rate: 0.3 },
      extra: {
        trackMany: { at: 20038, members: [false, true, true, false, false, false], invalid: ['—'], repeats: [{ of: 19, padded: true }] },
        clicks: [{ at: 60009, target: 2147483645, button: 1, removeFirst: true }],
        bigIntIntent: { rate: 1, inEstimate: 0.5 },
        watched: {
          tickAt: 143358,
          tickVia: 'options',
          untick: { after: 75750, via: 'sync', retickAfter: 500, retickVia: 'sync' },
          intents: [{ at: -19581, runsFor: 99817 }],
        },
        chain: {
          intents: [{ index: 1412695451, story: 'exact', lagMs: 120000 }],
          reorgs: [
            { afterMs: 24726, depth: 2, backAfterBlocks: null },
            { afterMs: 37634, depth: 3, backAfterBlocks: null },
          ],
          faultRate: 0.3,
          faults: ['http500', 'timeout'],
          wrongChain: [],
        },
        notFound: [317255, 0, -1, -1, -1, 508],
        history: { others: 3000, othersSpanMs: 60000, ignoreOwner: true, repeatCursor: true, outOfOrder: true, staleRows: false, omit: 0 },
        lookups: [246755, 262425],
      },
    } as unknown as Schedule,
  },
];
