/**
 * Kept world schedules about an intent the user removed (every family): what was decided for it before its removal
 * must not reach the desktop after it (N2). See test/world/examples.ts for the shape.
 */
import type { Example } from '../examples';
import type { Schedule } from '../schedule';

/** Found failing and fixed: `npm run test:kept` and `npm run campaign` run each of them. */
export const FIXED: Example[] = [
  {
    // Seed 20261204, run 6336 (WORLD_FAULTS=all).
    seed: 20267540,
    found:
      "N2: a final decided just before a death waited while the outbox's reads were refused; the user removed the intent meanwhile, its forget was refused with them, and the final was told 95 s after the removal. The delivery now asks the tracker before it tells (lib/notify/delivery.ts dropUntracked).",
    schedule: {
      kind: 'chrome',
      intents: [
        {
          addAt: 2,
          createdBefore: 4,
          committedFor: 60000,
          executing: [43686, 9697, 10205],
          end: 'SUCCEEDED',
          inHistory: true,
          flapStates: 20,
          flapEveryMs: 1000,
          flapForMs: 60009,
        },
        {
          addAt: 7,
          createdBefore: 5000,
          committedFor: 60016,
          executing: [56527],
          end: 'FAILED',
          inHistory: false,
          flapStates: 2,
          flapEveryMs: 100,
          flapForMs: 353603,
        },
      ],
      serverWaitMs: 90000,
      history: true,
      user: [
        { at: 380465, kind: 'retry', target: 1892131624 },
        { at: 615401, kind: 'refresh', target: 2110173220 },
        { at: 174772, kind: 'remove', target: 193573720 },
      ],
      kill: [
        { n: 451, after: true },
        { n: 37, after: true },
        { n: 103, after: true },
      ],
      idle: [],
      restart: [{ at: 719983, closedMs: 299989 }],
      skewMs: -600000,
      jumps: [],
      drift: { at: 16, rate: 9e-323, correctAfter: 434742 },
      idb: [
        { db: 'svc-outbox', key: 'settings', mode: 'read', from: 88292, forMs: 171218 },
        { db: 'svc-settings', key: 'tracker-state', mode: 'write', from: 6, forMs: 299984 },
      ],
      quota: [],
      sync: [],
      rejectNotificationAt: [40, 34],
      closes: [
        { at: 493033, all: true, target: 1865506337 },
        { at: 549642, all: true, target: 531654230 },
        { at: 204211, all: false, target: 558921399 },
        { at: 424913, all: true, target: 1907578663 },
      ],
      burst: ['ok', '429', 'malformed', '429'],
      retryAfter: { rate: 0.01, seconds: 600, form: 'ms-by-mistake' },
      lyingDate: { rate: 0.2, offsetMs: 1200000 },
      updatedAhead: { rate: 0.2, aheadMs: 2270592000000 },
      backwards: { rate: 0.05 },
      flap40: false,
      testConnection: [{ at: 137608, clockAheadMs: 0, retryAfterSeconds: 86400 }],
      foreign: { rate: 0.05 },
      extra: {
        trackMany: {
          at: 239984,
          members: [false, true, false, true, false, true],
          invalid: [],
          repeats: [{ of: 1684154182, padded: false }],
          import: { format: 'csv', ended: [false] },
        },
        clicks: [
          { at: 660852, target: 2119906330, button: 0, removeFirst: true },
          { at: 315746, target: 2091895770, button: 1, removeFirst: true },
          { at: 595817, target: 920634587, button: 0, removeFirst: false },
        ],
        bigIntIntent: { rate: 1, inEstimate: 0.5 },
        stuck: { index: 2147483637, etaSeconds: 1200, startedAt: 'none', overMs: 599989 },
        watched: {
          tickAt: 138498,
          tickVia: 'options',
          intents: [
            { at: -2674694, runsFor: 69371 },
            { at: 291146, runsFor: 218379 },
            { at: -81739, runsFor: 112368 },
          ],
        },
        chain: {
          intents: [{ index: 4, story: 'exact', lagMs: 5000 }],
          reorgs: [{ afterMs: 11, depth: 3, backAfterBlocks: 0 }],
          faultRate: 0,
          faults: ['http500', 'rpcError'],
          wrongChain: [{ fromMs: 4, forMs: 7425 }],
        },
        history: { others: 114, othersSpanMs: 60000, ignoreOwner: true, repeatCursor: false, outOfOrder: true, staleRows: true, omit: 0.2 },
        lookups: [362091, 435493],
      },
      slowDisk: [],
      slowCalls: [
        { from: 6270, forMs: 41984, ms: 5 },
        { from: 420858, forMs: 49272, ms: 1 },
      ],
    } as unknown as Schedule,
  },
];
