/** World schedules found failing by a campaign and not read yet; see test/world/examples.ts for the shape. */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing, cause not read: `WORLD_EXAMPLES=1` prints what each does today. */
export const KNOWN_FAILING: Example[] = [
  {
    // Seed 20261205, run 41165 (WORLD_FAULTS=all).
    seed: 20302370,
    found:
      "W1 (not read yet): 0xc…01, created 2,868 s before the address was ticked (within the hour a first tick looks back), never tracked; an idle death, two browser restarts with the user's clock 1 h behind then 2.6 h ahead",
    schedule: {
      kind: 'chrome',
      intents: [
        {
          addAt: 239986,
          createdBefore: 5,
          committedFor: -1,
          executing: [],
          end: 'SUCCEEDED',
          inHistory: false,
          flapStates: 7,
          flapEveryMs: 100,
          flapForMs: 60017,
        },
      ],
      serverWaitMs: 20000,
      history: false,
      user: [],
      kill: [],
      idle: [52670, 400248, 437206],
      restart: [
        { at: 454831, closedMs: 235151 },
        { at: 250029, closedMs: 8555 },
      ],
      skewMs: -3600000,
      jumps: [
        { at: 234143, ms: 10799989 },
        { at: 135172, ms: 2183596 },
      ],
      drift: { at: 606319, rate: -3.5833676557638905e-178, correctAfter: 599982 },
      idb: [
        { db: 'svc-outbox', mode: 'write', from: 254375, forMs: 2954 },
        { db: 'svc-settings', key: 'tracker-state', mode: 'write', from: 288837, forMs: 75933 },
      ],
      quota: [],
      sync: [{ at: 719984, what: 'slow-clock' }],
      rejectNotificationAt: [5, 21],
      closes: [
        { at: 466933, all: true, target: 1140711842 },
        { at: 233440, all: true, target: 1351777494 },
      ],
      burst: ['timeout', '500', 'ok'],
      retryAfter: { rate: 0.05, seconds: 600, form: 'seconds' },
      lyingDate: { rate: 0.2, offsetMs: 2270592000000 },
      updatedAhead: { rate: 0.02, aheadMs: 300000 },
      backwards: { rate: 0.3 },
      flap40: true,
      bigInt: { rate: 0.05 },
      testConnection: [],
      extra: {
        trackMany: {
          at: 239987,
          members: [true, false, false, true, false, false],
          invalid: [
            '0x11111111111111111111111111111111111111111111111111111111111111111',
            'track 0xabc',
            '—',
            '0x11111111111111111111111111111111111111111111111111111111111111111',
          ],
          repeats: [{ of: 297017661, padded: true }],
          import: { format: 'csv', ended: [false, false, false] },
        },
        clicks: [
          { at: 788347, target: 546993472, button: -1, removeFirst: false },
          { at: 566284, target: 1316576582, button: 1, removeFirst: false },
          { at: 379711, target: 677927225, button: 0, removeFirst: false },
        ],
        bigIntIntent: { rate: 0.3, inEstimate: 0.5 },
        watched: {
          tickAt: 2,
          tickVia: 'options',
          intents: [
            { at: -2868239, runsFor: 30016 },
            { at: 210049, runsFor: 30016 },
            { at: -196299, runsFor: 30002 },
            { at: 154001, runsFor: 193754 },
          ],
        },
        chain: {
          intents: [{ index: 18, story: 'exact', lagMs: 5000 }],
          reorgs: [{ afterMs: 5908, depth: 1, backAfterBlocks: null }],
          faultRate: 0.3,
          faults: ['http500', 'rpcError', 'timeout'],
          wrongChain: [],
        },
        notFound: [0, 510, -1, 0, -1, 0],
        lookups: [611883, 712689],
      },
    } as unknown as Schedule,
  },
  {
    // Seed 20261205, run 43522 (WORLD_FAULTS=all).
    seed: 20304727,
    found:
      'W1 (not read yet): 0xc…02, created 1,228 s before the address was ticked, never tracked; two browser restarts (the browser closed 200 s and 300 s) and an idle death',
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 0,
          createdBefore: 10,
          committedFor: 173577,
          executing: [],
          end: 'FAILED',
          inHistory: true,
          flapStates: 5,
          flapEveryMs: 100,
          flapForMs: 442822,
        },
      ],
      serverWaitMs: 0,
      history: true,
      user: [],
      kill: [],
      idle: [643843],
      restart: [
        { at: 288198, closedMs: 299999 },
        { at: 13, closedMs: 198832 },
      ],
      skewMs: 0,
      jumps: [],
      drift: { at: 7, rate: -2.6819166631755725e-27, correctAfter: 178851 },
      idb: [{ db: 'svc-outbox', mode: 'write', from: 619568, forMs: 146514 }],
      quota: [
        { db: 'svc-intents', from: 693200, forMs: 138934 },
        { db: 'svc-settings', from: 217975, forMs: 78603 },
      ],
      sync: [
        { at: 1205, what: 'malformed' },
        { at: 258292, what: 'huge' },
      ],
      rejectNotificationAt: [6, 20, 27],
      closes: [{ at: 14, all: true, target: 1241930936 }],
      burst: ['ok', 'malformed', 'timeout', '429', 'ok', 'ok', '500', 'ok', '429', 'ok'],
      retryAfter: { rate: 0.01, seconds: 30, form: 'http-date' },
      lyingDate: { rate: 0.02, offsetMs: 2270592000000 },
      updatedAhead: { rate: 0.02, aheadMs: 3600000 },
      flap40: true,
      bigInt: { rate: 0.5 },
      testConnection: [],
      foreign: { rate: 0.3 },
      extra: {
        trackMany: {
          at: 239991,
          members: [true, false, true, true, false, false],
          invalid: ['0xgggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg', '—', '0x1234', '—'],
          repeats: [],
          import: { format: 'csv', ended: [] },
        },
        clicks: [
          { at: 60007, target: 903178432, button: 0, removeFirst: false },
          { at: 60007, target: 1796632386, button: 1, removeFirst: true },
        ],
        bigIntIntent: { rate: 0.3, inEstimate: 0.5 },
        watched: {
          tickAt: 4,
          tickVia: 'sync',
          intents: [
            { at: -2563135, runsFor: 89846 },
            { at: -1228153, runsFor: 163416 },
          ],
        },
        chain: {
          intents: [{ index: 2042279106, story: 'exact', lagMs: 120000 }],
          reorgs: [],
          faultRate: 0.05,
          faults: ['rpcError', 'timeout'],
          wrongChain: [{ fromMs: 456172, forMs: 42401 }],
        },
        notFound: [0, 0, 55704, 60018, 29386, 0],
        history: { others: 6, othersSpanMs: 60000, ignoreOwner: false, repeatCursor: false, outOfOrder: true, staleRows: false, omit: 0 },
        lookups: [719990],
      },
    } as unknown as Schedule,
  },
];
