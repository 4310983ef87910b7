/**
 * Kept world schedules the slowDisk family (time passes while IndexedDB works) made fail, read and fixed; see
 * test/world/examples.ts for the shape.
 */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm test` runs each of them. */
export const FIXED: Example[] = [
  {
    // Seed 777, run 62 (WORLD_FAULTS=slowDisk,retryAfter,http).
    seed: 839,
    found:
      "I1, I3 (worker): three intents 933 s without a check and one FAILED never told, after a 429 whose hold a restore handed from the tracker's state to the request budget and the budget told back to the tracker: each store of it came back a few ms longer, a loop of state writes for as long as the hold lasted, stretching it while IndexedDB took 100 ms a transaction. A hold handed back from the state is no longer told back (lib/worker/compose-tracking.ts, lib/api/budget.ts `holdOff` `kept`; test/worker/compose-tracking-hostile.test.ts)",
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 0,
          createdBefore: 55110,
          committedFor: 3625,
          executing: [66400],
          end: 'ABORTED',
          inHistory: true,
          flapStates: 38,
          flapEveryMs: 4000,
          flapForMs: 424052,
        },
        {
          addAt: 0,
          createdBefore: 935,
          committedFor: 1348,
          executing: [],
          end: 'FAILED',
          inHistory: true,
          flapStates: 8,
          flapEveryMs: 100,
          flapForMs: 427385,
        },
        {
          addAt: 0,
          createdBefore: 635,
          committedFor: 27404,
          executing: [110795],
          end: 'FAILED',
          inHistory: true,
          flapStates: 13,
          flapEveryMs: 1000,
          flapForMs: 82416,
        },
        {
          addAt: 107638,
          createdBefore: 4355,
          committedFor: 43525,
          executing: [58159],
          end: 'FAILED',
          inHistory: false,
          flapStates: 35,
          flapEveryMs: 4000,
          flapForMs: 96044,
        },
        {
          addAt: 54645,
          createdBefore: 1359,
          committedFor: -1,
          executing: [36612, 77199],
          end: 'ABORTED',
          inHistory: true,
          flapStates: 6,
          flapEveryMs: 100,
          flapForMs: 412507,
        },
        {
          addAt: 0,
          createdBefore: 335471,
          committedFor: -1,
          executing: [93086, 15213, 90610],
          end: 'SUCCEEDED',
          inHistory: true,
          flapStates: 30,
          flapEveryMs: 100,
          flapForMs: 314014,
        },
      ],
      serverWaitMs: 90000,
      history: true,
      user: [
        {
          at: 332647,
          kind: 'retry',
          target: 48786771,
        },
      ],
      kill: [],
      idle: [],
      restart: [],
      skewMs: 0,
      jumps: [],
      idb: [],
      quota: [],
      sync: [],
      rejectNotificationAt: [],
      closes: [],
      burst: ['timeout', 'reset'],
      retryAfter: {
        rate: 0.01,
        seconds: 600,
        form: 'http-date',
      },
      flap40: false,
      testConnection: [],
      extra: {
        clicks: [],
      },
      slowDisk: [
        {
          from: 224248,
          forMs: 269531,
          ms: 5,
        },
        {
          from: 332782,
          forMs: 624781,
          ms: 100,
        },
      ],
    } as unknown as Schedule,
  },
  {
    // Seed 20261227, run 115 (WORLD_FAULTS=all).
    seed: 20261342,
    found:
      'I5 (worker): a GetIntent 5 ms into a 30 s Retry-After: it was given its place, and while its stillWanted read IndexedDB (5 ms a transaction) a 429 to a WaitIntentReceipt was read and held the budget; it went out all the same. A request whose place came before a hold now checks the hold once stillWanted has answered and waits in line (lib/api/budget.ts `run`; test/api/budget-accounting.test.ts)',
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 0,
          createdBefore: 89146,
          committedFor: 324755,
          executing: [2004, 25866, 94143],
          end: 'EXECUTING',
          inHistory: true,
          flapStates: 20,
          flapEveryMs: 4000,
          flapForMs: 470159,
        },
        {
          addAt: 0,
          createdBefore: 1370,
          committedFor: 44661,
          executing: [119414, 116885, 14683],
          end: 'REFUNDED',
          inHistory: false,
          flapStates: 4,
          flapEveryMs: 1000,
          flapForMs: 333189,
        },
        {
          addAt: 0,
          createdBefore: 2348,
          committedFor: 41081,
          executing: [],
          end: 'FAILED',
          inHistory: false,
          flapStates: 35,
          flapEveryMs: 1000,
          flapForMs: 384218,
        },
        {
          addAt: 33565,
          createdBefore: 322639,
          committedFor: -1,
          executing: [209, 78286, 82828],
          end: 'FAILED',
          inHistory: false,
          flapStates: 14,
          flapEveryMs: 100,
          flapForMs: 210134,
        },
        {
          addAt: 213916,
          createdBefore: 2711,
          committedFor: 174288,
          executing: [75350, 106930, 3782],
          end: 'SUCCEEDED',
          inHistory: false,
          flapStates: 15,
          flapEveryMs: 100,
          flapForMs: 207475,
        },
        {
          addAt: 0,
          createdBefore: 4264,
          committedFor: 237689,
          executing: [43309, 42514, 48944],
          end: 'EXECUTING',
          inHistory: false,
          flapStates: 38,
          flapEveryMs: 1000,
          flapForMs: 339714,
        },
      ],
      serverWaitMs: 20000,
      history: true,
      user: [],
      kill: [
        {
          n: 216,
          after: true,
        },
        {
          n: 3,
          after: true,
        },
      ],
      idle: [],
      restart: [],
      skewMs: 120000,
      jumps: [
        {
          at: 661398,
          ms: -16990,
        },
      ],
      idb: [],
      quota: [
        {
          db: 'svc-settings',
          from: 77439,
          forMs: 39168,
        },
        {
          db: 'svc-intents',
          from: 518143,
          forMs: 70178,
        },
      ],
      sync: [
        {
          at: 714808,
          what: 'fast-clock',
        },
        {
          at: 360070,
          what: 'malformed',
        },
      ],
      rejectNotificationAt: [16, 39, 5],
      closes: [
        {
          at: 381457,
          all: false,
          target: 1259881881,
        },
        {
          at: 278181,
          all: false,
          target: 1035065079,
        },
        {
          at: 496731,
          all: false,
          target: 1822977538,
        },
        {
          at: 139016,
          all: true,
          target: 420461527,
        },
      ],
      burst: ['ok', '429', 'reset', 'malformed', 'timeout', 'malformed', 'ok', 'ok', 'ok', '429'],
      retryAfter: {
        rate: 0.05,
        seconds: 30,
        form: 'seconds',
      },
      lyingDate: {
        rate: 0.2,
        offsetMs: -600000,
      },
      updatedAhead: {
        rate: 0.02,
        aheadMs: 3600000,
      },
      backwards: {
        rate: 0.3,
      },
      flap40: false,
      bigInt: {
        rate: 0.05,
      },
      testConnection: [
        {
          at: 14,
          clockAheadMs: 0,
          retryAfterSeconds: 3600,
        },
      ],
      foreign: {
        rate: 0.05,
      },
      extra: {
        trackMany: {
          at: 6,
          members: [true, false, true, false, false, true],
          invalid: [],
          repeats: [],
          import: {
            format: 'json',
            ended: [false],
          },
        },
        clicks: [
          {
            at: 839985,
            target: 2147483647,
            button: -1,
            removeFirst: false,
          },
        ],
        chain: {
          intents: [
            {
              index: 694575927,
              story: 'missing',
              lagMs: 5000,
            },
          ],
          reorgs: [
            {
              afterMs: 4,
              depth: 4,
              backAfterBlocks: 1,
            },
          ],
          faultRate: 0.3,
          faults: ['http500', 'rpcError'],
          wrongChain: [],
        },
        notFound: [-1, 451623, 50146, 0, 59990, -1],
        history: {
          others: 0,
          othersSpanMs: 3600000,
          ignoreOwner: true,
          repeatCursor: true,
          outOfOrder: false,
          staleRows: true,
          omit: 0,
        },
        lookups: [633644, 719994, 120662],
      },
      slowDisk: [
        {
          from: 179368,
          forMs: 57777,
          ms: 100,
        },
        {
          from: 10,
          forMs: 611140,
          ms: 5,
        },
      ],
    } as unknown as Schedule,
  },
  {
    // Seed 20261227, run 236 (WORLD_FAULTS=all).
    seed: 20261463,
    found:
      "C1 (oracle): a click's tabs were counted by a timer 10 s after it that fired late, after slow IndexedDB work, at the instant of the next click 10.2 s later, whose tab it counted as its own. Another click before the count ran now mixes them too (test/world/clicks.ts)",
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 98207,
          createdBefore: 3195,
          committedFor: -1,
          executing: [13, 71738, 119995],
          end: 'EXECUTING',
          inHistory: true,
          flapStates: 6,
          flapEveryMs: 4000,
          flapForMs: 238642,
        },
      ],
      serverWaitMs: 1000,
      history: false,
      user: [
        {
          at: 695577,
          kind: 'retry',
          target: 2029830301,
        },
      ],
      kill: [
        {
          n: 290,
          after: false,
        },
        {
          n: 247,
          after: false,
        },
        {
          n: 150,
          after: true,
        },
      ],
      idle: [12],
      restart: [
        {
          at: 373110,
          closedMs: 96591,
        },
      ],
      skewMs: -3600000,
      jumps: [],
      drift: {
        at: 457739,
        rate: -3.815196798551242e-160,
        correctAfter: 60000,
      },
      idb: [
        {
          db: 'svc-settings',
          key: 'tracker-state',
          mode: 'write',
          from: 177717,
          forMs: 23117,
        },
      ],
      quota: [
        {
          db: 'svc-settings',
          from: 684315,
          forMs: 42176,
        },
      ],
      sync: [],
      rejectNotificationAt: [],
      closes: [
        {
          at: 478125,
          all: false,
          target: 1537361468,
        },
        {
          at: 662491,
          all: false,
          target: 1908588745,
        },
        {
          at: 500175,
          all: true,
          target: 592398592,
        },
      ],
      burst: ['reset', 'ok'],
      retryAfter: {
        rate: 0.01,
        seconds: 30,
        form: 'seconds',
      },
      lyingDate: {
        rate: 0.02,
        offsetMs: -600000,
      },
      flap40: false,
      bigInt: {
        rate: 0.5,
      },
      testConnection: [
        {
          at: 600736,
          clockAheadMs: 1200000,
          retryAfterSeconds: 3600,
        },
      ],
      foreign: {
        rate: 0.05,
      },
      extra: {
        clicks: [
          {
            at: 770553,
            target: 363646146,
            button: 1,
            removeFirst: false,
          },
          {
            at: 181983,
            target: 108566333,
            button: 1,
            removeFirst: true,
          },
          {
            at: 760202,
            target: 977762129,
            button: 1,
            removeFirst: true,
          },
        ],
        bigIntIntent: {
          rate: 0.3,
          inEstimate: 0.5,
        },
        watched: {
          tickAt: 74368,
          tickVia: 'sync',
          untick: {
            after: 60007,
            via: 'options',
            retickAfter: 500,
            retickVia: 'sync',
          },
          intents: [
            {
              at: -95742,
              runsFor: 126554,
            },
            {
              at: -3019529,
              runsFor: 237240,
            },
            {
              at: -1804100,
              runsFor: 198907,
            },
            {
              at: 251020,
              runsFor: 191497,
            },
            {
              at: -1038372,
              runsFor: 132944,
            },
            {
              at: -463349,
              runsFor: 190499,
            },
          ],
        },
        chain: {
          intents: [
            {
              index: 159572012,
              story: 'reverted',
              lagMs: 120000,
            },
            {
              index: 30,
              story: 'exact',
              lagMs: 0,
            },
          ],
          reorgs: [
            {
              afterMs: 37771,
              depth: 3,
              backAfterBlocks: 0,
            },
          ],
          faultRate: 0,
          faults: ['http500'],
          wrongChain: [],
        },
        notFound: [-1, 0, 29383, 59996, -1, 1802],
        history: {
          others: 307,
          othersSpanMs: 60000,
          ignoreOwner: false,
          repeatCursor: true,
          outOfOrder: false,
          staleRows: true,
          omit: 0.5,
        },
        lookups: [412069, 18, 36761],
      },
      slowDisk: [
        {
          from: 97014,
          forMs: 49813,
          ms: 5,
        },
        {
          from: 719984,
          forMs: 719987,
          ms: 100,
        },
      ],
    } as unknown as Schedule,
  },
];
