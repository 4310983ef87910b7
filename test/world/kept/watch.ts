/** Kept world schedules of the `watch` work on the watched-address check (W1) and others it took; see test/world/examples.ts for the shape. */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm test` runs each of them. */
export const FIXED: Example[] = [
  {
    // Seed 20261130, run 1673 (WORLD_FAULTS=all).
    seed: 20262803,
    found:
      "W1 oracle: a walk of a history listing 2,996 strangers' rows first (ignoreOwner, newest first) cut by the untick 188 s after the tick, before the row 15 min old; the excuse 'still going at the end' now counts the end of the tick it was read under",
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 0,
          createdBefore: 107164,
          committedFor: 126656,
          executing: [],
          end: 'REFUNDED',
          inHistory: false,
          flapStates: 3,
          flapEveryMs: 1000,
          flapForMs: 369351,
        },
        {
          addAt: 209065,
          createdBefore: 56810,
          committedFor: 9317,
          executing: [65483, 4, 15],
          end: 'REFUNDED',
          inHistory: false,
          flapStates: 2,
          flapEveryMs: 100,
          flapForMs: 60004,
        },
      ],
      serverWaitMs: 0,
      history: true,
      user: [
        { at: 719983, kind: 'refresh', target: 1743588041 },
        { at: 129054, kind: 'refresh', target: 29 },
        { at: 9, kind: 'retry', target: 1624739901 },
      ],
      kill: [],
      idle: [],
      restart: [],
      skewMs: 0,
      jumps: [
        { at: 700332, ms: -2802510 },
        { at: 331366, ms: -10091063 },
        { at: 285086, ms: -3600000 },
      ],
      drift: { at: 10, rate: -6.291217892533451e-102, correctAfter: 60005 },
      idb: [],
      quota: [],
      sync: [],
      rejectNotificationAt: [16, 1],
      closes: [
        { at: 277194, all: false, target: 1555654667 },
        { at: 686482, all: false, target: 1102628734 },
      ],
      burst: ['ok', 'ok'],
      lyingDate: { rate: 0.02, offsetMs: -600000 },
      updatedAhead: { rate: 0.2, aheadMs: 300000 },
      flap40: false,
      testConnection: [],
      foreign: { rate: 0.05 },
      extra: {
        trackMany: {
          at: 36477,
          members: [true, true, true, true, true, true],
          invalid: ['—', '0x111111111111111111111111111111111111111111111111111111111111111', '0x1234', '—'],
          repeats: [{ of: 1110400083, padded: false }],
          import: { format: 'json', ended: [false, true, true] },
        },
        clicks: [
          { at: 651178, target: 1039501464, button: 0, removeFirst: true },
          { at: 400440, target: 812477511, button: -1, removeFirst: true },
          { at: 447957, target: 526081477, button: -1, removeFirst: true },
        ],
        bigIntIntent: { rate: 0.3, inEstimate: 0.5 },
        watched: {
          tickAt: 179998,
          tickVia: 'sync',
          untick: { after: 187749, via: 'options', retickVia: 'sync' },
          intents: [
            { at: -746775, runsFor: 224075 },
            { at: -4199989, runsFor: 229186 },
          ],
        },
        chain: {
          intents: [
            { index: 2039280603, story: 'smaller', lagMs: 30000 },
            { index: 2107409609, story: 'reverted', lagMs: 5000 },
          ],
          reorgs: [{ afterMs: 21733, depth: 2, backAfterBlocks: 1 }],
          faultRate: 0.05,
          faults: ['http500', 'timeout'],
          wrongChain: [],
        },
        notFound: [-1, 265165, -1, 0, 463326, 511],
        history: {
          others: 2996,
          othersSpanMs: 60000,
          ignoreOwner: true,
          repeatCursor: false,
          outOfOrder: false,
          staleRows: false,
          omit: 0,
        },
        lookups: [104275],
      },
    } as unknown as Schedule,
  },
];
