/** Kept world schedules about the watched-address check (W1); see test/world/examples.ts for the shape. */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm test` runs each of them. */
export const FIXED: Example[] = [
  {
    // Seed 20261128, run 8623 (WORLD_FAULTS=all).
    seed: 20269751,
    found: 'every family: the W1 oracle threw on an address ticked for only 60 s with no death or refusal in that span (no excuse to name)',
    schedule: {
      kind: 'firefox',
      intents: [
        {
          addAt: 161761,
          createdBefore: 466143,
          committedFor: 38222,
          executing: [76885, 62486, 112843],
          end: 'FAILED',
          inHistory: false,
          flapStates: 24,
          flapEveryMs: 4000,
          flapForMs: 251024,
        },
      ],
      serverWaitMs: 20000,
      history: true,
      user: [],
      kill: [{ n: 597, after: true }],
      idle: [285610],
      restart: [
        { at: 478582, closedMs: 20364 },
        { at: 565999, closedMs: 62764 },
      ],
      skewMs: 600000,
      jumps: [],
      drift: { at: 210562, rate: 4.8146239821478074e-203, correctAfter: 136658 },
      idb: [],
      quota: [
        { db: 'svc-intents', from: 214374, forMs: 92652 },
        { db: 'svc-outbox', from: 543935, forMs: 52635 },
      ],
      sync: [
        { at: 109021, what: 'huge' },
        { at: 350359, what: 'slow-clock' },
      ],
      rejectNotificationAt: [2],
      closes: [],
      burst: [],
      retryAfter: { rate: 0.01, seconds: 30, form: 'http-date' },
      lyingDate: { rate: 0.02, offsetMs: 1200000 },
      updatedAhead: { rate: 0.02, aheadMs: 300000 },
      backwards: { rate: 0.05 },
      flap40: false,
      bigInt: { rate: 0.05 },
      testConnection: [],
      foreign: { rate: 0.3 },
      extra: {
        trackMany: {
          at: 76436,
          members: [false, true, false, true, false, false],
          invalid: ['0xgggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg', 'track 0xabc'],
          repeats: [],
          import: { format: 'csv', ended: [false] },
        },
        clicks: [
          { at: 736370, target: 78015998, button: -1, removeFirst: true },
          { at: 573222, target: 64314603, button: -1, removeFirst: true },
          { at: 376405, target: 541391127, button: -1, removeFirst: true },
        ],
        bigIntIntent: { rate: 1, inEstimate: 1 },
        watched: {
          tickAt: 59039,
          tickVia: 'sync',
          untick: { after: 60000, via: 'sync', retickAfter: 600000, retickVia: 'sync' },
          intents: [
            { at: 471535, runsFor: 56713 },
            { at: 151343, runsFor: 204694 },
            { at: -547151, runsFor: 130812 },
          ],
        },
        chain: {
          intents: [{ index: 1045461428, story: 'smaller', lagMs: 30000 }],
          reorgs: [{ afterMs: 16560, depth: 2, backAfterBlocks: 3 }],
          faultRate: 0.3,
          faults: ['http500', 'timeout'],
          wrongChain: [],
        },
        history: { others: 0, othersSpanMs: 60000, ignoreOwner: false, repeatCursor: false, outOfOrder: true, staleRows: true, omit: 0 },
        lookups: [212837, 526894, 104271, 88146],
      },
    } as unknown as Schedule,
  },
];
