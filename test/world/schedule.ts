/**
 * The schedules of the world campaign: what the service's intents do, what the user does, and which faults the
 * world injects — every fault family behind its own switch ({@link FAMILIES}; docs/simulation.md is the table).
 * A schedule is drawn by fast-check from a seed and an index, so `WORLD_SEED` and the index replay one run.
 */
import fc from 'fast-check';
import { EXTRA_FAMILIES, type Extra, extraArb } from './families';
import type { RetryAfterForm } from './network';

/** Every fault family of the world (docs/simulation.md). */
export const FAMILIES = [
  'kill',
  'idle',
  'restart',
  'skew',
  'jump',
  'drift',
  'idb',
  'quota',
  'sync',
  'notifyReject',
  'userClose',
  'http',
  'retryAfter',
  'lyingDate',
  'updatedAhead',
  'backwards',
  'flap40',
  'bigInt',
  'foreign',
  'testConnection',
  ...EXTRA_FAMILIES,
  'slowDisk',
  'slowCalls',
] as const;
export type Family = (typeof FAMILIES)[number];

const MIN = 60_000;
const HOUR = 60 * MIN;

const intentArb = fc.record({
  addAt: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 * MIN })),
  createdBefore: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 10 * MIN })),
  /** COMMITTED for this long; -1: never executed (it must end expired). */
  committedFor: fc.oneof(fc.integer({ min: 0, max: MIN }), fc.integer({ min: MIN, max: 9 * MIN }), fc.constant(-1)),
  executing: fc.array(fc.integer({ min: 0, max: 2 * MIN }), { maxLength: 3 }),
  end: fc.constantFrom('SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'EXECUTING'),
  inHistory: fc.boolean(),
  /** flap40: it cycles through this many leg states while it executes, changing every `flapEveryMs`, for `flapForMs`. */
  flapStates: fc.integer({ min: 2, max: 40 }),
  flapEveryMs: fc.constantFrom(100, 1_000, 4_000),
  flapForMs: fc.integer({ min: MIN, max: 8 * MIN }),
});

const at = (max = 12 * MIN) => fc.integer({ min: 0, max });

/** Spans of a slow family (slowDisk, slowCalls): up to two, 1 s–12 min long, each call in them taking 1–100 ms. */
const slowSpansArb = fc.array(
  fc.record({
    from: at(),
    forMs: fc.oneof(fc.integer({ min: 1_000, max: MIN }), fc.integer({ min: MIN, max: 12 * MIN })),
    ms: fc.constantFrom(1, 5, 20, 100),
  }),
  { maxLength: 2 },
);

/** The arbitrary of one schedule with the families `on` (the others are empty). */
export function scheduleArb(on: ReadonlySet<Family>) {
  const when = <T>(family: Family, arb: fc.Arbitrary<T>, off: T): fc.Arbitrary<T> => (on.has(family) ? arb : fc.constant(off));
  return fc.record({
    kind: fc.constantFrom<'chrome' | 'firefox'>('chrome', 'firefox'),
    intents: fc.array(intentArb, { minLength: 1, maxLength: 6 }),
    serverWaitMs: fc.constantFrom(0, 1_000, 20_000, 90_000),
    history: fc.boolean(),
    user: fc.array(fc.record({ at: at(), kind: fc.constantFrom('remove', 'refresh', 'retry'), target: fc.nat() }), { maxLength: 3 }),
    kill: when('kill', fc.array(fc.record({ n: fc.integer({ min: 1, max: 600 }), after: fc.boolean() }), { maxLength: 3 }), []),
    idle: when('idle', fc.array(at(), { maxLength: 3 }), []),
    restart: when('restart', fc.array(fc.record({ at: at(), closedMs: fc.integer({ min: 1_000, max: 5 * MIN }) }), { maxLength: 2 }), []),
    skewMs: when('skew', fc.constantFrom(0, 2 * MIN, 10 * MIN, -10 * MIN, -HOUR), 0),
    jumps: when(
      'jump',
      fc.array(
        fc.record({
          at: at(),
          ms: fc.oneof(
            fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
            fc.integer({ min: -60_000, max: 60_000 }),
            fc.constantFrom(-HOUR, -10 * MIN, 10 * MIN),
          ),
        }),
        { maxLength: 3 },
      ),
      [],
    ),
    drift: when(
      'drift',
      fc.option(
        fc.record({
          at: at(),
          rate: fc.double({ min: -0.05, max: 0.05, noNaN: true }),
          correctAfter: fc.integer({ min: MIN, max: 10 * MIN }),
        }),
        {
          nil: undefined,
        },
      ),
      undefined,
    ),
    idb: when(
      'idb',
      fc.array(
        fc.record({
          db: fc.constantFrom('svc-intents', 'svc-settings', 'svc-outbox'),
          /** In the settings database, only one key: the settings, the calm state, the tracker state. */
          key: fc.option(fc.constantFrom('settings', 'calm-state', 'tracker-state'), { nil: undefined }),
          mode: fc.constantFrom<'read' | 'write'>('read', 'write'),
          from: at(),
          forMs: fc.oneof(fc.integer({ min: 100, max: 10_000 }), fc.integer({ min: 10_000, max: 5 * MIN })),
        }),
        { maxLength: 2 },
      ),
      [],
    ),
    quota: when(
      'quota',
      fc.array(
        fc.record({
          db: fc.constantFrom('svc-intents', 'svc-settings', 'svc-outbox'),
          from: at(),
          forMs: fc.integer({ min: 100, max: 3 * MIN }),
        }),
        {
          maxLength: 2,
        },
      ),
      [],
    ),
    sync: when(
      'sync',
      fc.array(fc.record({ at: at(), what: fc.constantFrom('malformed', 'huge', 'slow-clock', 'fast-clock') }), { maxLength: 2 }),
      [],
    ),
    rejectNotificationAt: when('notifyReject', fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }), []),
    closes: when('userClose', fc.array(fc.record({ at: at(), all: fc.boolean(), target: fc.nat() }), { maxLength: 4 }), []),
    burst: when(
      'http',
      fc.array(
        fc.constantFrom<'ok' | '500' | 'reset' | 'malformed' | 'timeout' | '429'>(
          'ok',
          'ok',
          '500',
          'reset',
          'malformed',
          'timeout',
          '429',
        ),
        { maxLength: 30 },
      ),
      [],
    ),
    retryAfter: when(
      'retryAfter',
      fc.option(
        fc.record({
          rate: fc.constantFrom(0.01, 0.05),
          seconds: fc.constantFrom(0, 1, 30, 120, 600, 3_600, 86_400, 3 * 86_400),
          form: fc.constantFrom<RetryAfterForm>('seconds', 'http-date', 'ms-by-mistake'),
        }),
        { nil: undefined },
      ),
      undefined,
    ),
    lyingDate: when(
      'lyingDate',
      fc.option(
        fc.record({ rate: fc.constantFrom(0.02, 0.2), offsetMs: fc.constantFrom(-HOUR, -10 * MIN, 20 * MIN, 72 * 365 * 24 * HOUR) }),
        { nil: undefined },
      ),
      undefined,
    ),
    updatedAhead: when(
      'updatedAhead',
      fc.option(fc.record({ rate: fc.constantFrom(0.02, 0.2), aheadMs: fc.constantFrom(5 * MIN, HOUR, 72 * 365 * 24 * HOUR) }), {
        nil: undefined,
      }),
      undefined,
    ),
    backwards: when('backwards', fc.option(fc.record({ rate: fc.constantFrom(0.05, 0.3) }), { nil: undefined }), undefined),
    flap40: when('flap40', fc.boolean(), false),
    bigInt: when('bigInt', fc.option(fc.record({ rate: fc.constantFrom(0.05, 0.5) }), { nil: undefined }), undefined),
    testConnection: when(
      'testConnection',
      fc.array(
        fc.record({
          at: at(),
          clockAheadMs: fc.constantFrom(0, 20 * MIN, -20 * MIN),
          retryAfterSeconds: fc.option(fc.constantFrom(60, 3_600, 86_400), { nil: undefined }),
        }),
        { maxLength: 2 },
      ),
      [],
    ),
    foreign: when('foreign', fc.option(fc.record({ rate: fc.constantFrom(0.05, 0.3) }), { nil: undefined }), undefined),
    /** The families of test/world/families.ts (track-many and import, clicks, GetIntent's integers, the stuck warning). */
    extra: extraArb(on),
    /**
     * slowDisk: spans in which each IndexedDB transaction takes 1–100 ms of true time (drawn after `extra`, so that the
     * schedules of a seed drawn before this family existed stay what they were).
     */
    slowDisk: when('slowDisk', slowSpansArb, []),
    /** slowCalls: spans in which each browser API call and each fetch takes 1–100 ms of true time (drawn last, likewise). */
    slowCalls: when('slowCalls', slowSpansArb, []),
  });
}

/** One schedule of the world campaign (`extra` absent in schedules kept from before it existed). */
export type Schedule = Omit<
  typeof scheduleArb extends (on: ReadonlySet<Family>) => fc.Arbitrary<infer T> ? T : never,
  'extra' | 'slowDisk' | 'slowCalls'
> & {
  extra?: Extra;
  slowDisk?: Array<{ from: number; forMs: number; ms: number }>;
  slowCalls?: Array<{ from: number; forMs: number; ms: number }>;
};

/** The schedule of run `index` of a campaign seeded `seed`, with the families `on`. */
export function drawSchedule(seed: number, index: number, on: ReadonlySet<Family>): Schedule {
  return fc.sample(scheduleArb(on), { seed: (seed + index * 7_919) | 0, numRuns: 1 })[0]!;
}
