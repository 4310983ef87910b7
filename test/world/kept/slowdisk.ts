/**
 * Kept world schedules of the slowDisk family (time passes while IndexedDB works), read and fixed; see
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
];
