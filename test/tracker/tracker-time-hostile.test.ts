/**
 * Hostile tests of the last error's time at load (lib/tracker/tracker-time.ts: `aheadMs` counts `lastError.at`,
 * `shiftTimes` moves it, `clampTimes` clamps it). Attacked with every step of the wall clock between two workers
 * (back, forward, back further than the records run ahead, back then forward inside the second life) and with a
 * stored last error far ahead, not a number, missing, or the only time a record holds. What is checked is I1: each
 * tracked intent is asked within S(N) of the restart and between two of its requests.
 */
import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { MemoryStore } from '@/lib/store/memory';
import type { Clock } from '@/lib/time/clock';
import { Tracker } from '@/lib/tracker/engine';
import { aheadMs, clampTimes, shiftTimes } from '@/lib/tracker/tracker-time';
import { HONEST, PENDING, sid } from './engine-harness';
import { FakeService } from './fake-service';
import { EventClock, RecordingNotifier } from './fakes';

const MIN = 60_000;
const YEAR = 365 * 24 * 60 * MIN;

const serviceTime = (clock: EventClock): Clock => ({
  now: () => clock.t,
  monotonic: () => clock.t,
  sleep: (ms, signal) => clock.sleep(ms, signal),
});

function longestSilence(starts: number[], from: number, to: number): number {
  const s = [from, ...starts.filter((t) => t >= from && t <= to).sort((a, b) => a - b), to];
  let longest = 0;
  for (let i = 1; i < s.length; i++) longest = Math.max(longest, s[i]! - s[i - 1]!);
  return longest;
}

type Edit = (t: TrackedIntent) => TrackedIntent;

/**
 * Four executing intents and one the service does not know (only the sweeper's individual checks read it), tracked
 * by a first worker whose wall clock is `firstSkew` off; then `between` (the clock's step while no worker runs),
 * `edit` on the unknown intent's stored record, a second worker, and `during` (a step 30 s into its life).
 * Returns the longest silence (ms) of each intent from the restart over 3 min.
 */
async function restart(firstSkew: number, between: number, edit: Edit, during = 0): Promise<Map<string, number>> {
  const clock = new EventClock();
  const service = new FakeService(serviceTime(clock), 20_000, HONEST);
  const t0 = clock.t;
  for (let n = 1; n <= 4; n++)
    service.add({
      intentId: sid(n),
      ownerAddress: '0xa1',
      createdAt: t0 - MIN,
      inHistory: true,
      steps: [{ at: t0 - MIN, status: 'EXECUTING', states: PENDING }],
    });
  service.add({
    intentId: sid(9),
    ownerAddress: '0xa1',
    createdAt: t0,
    inHistory: true,
    visibleAt: Number.POSITIVE_INFINITY,
    steps: [{ at: t0, status: 'COMMITTED', states: PENDING }],
  });
  const store = new MemoryStore();
  const worker = () =>
    new Tracker({ store, clock, notifier: new RecordingNotifier(), transport: async () => service.transport(), random: () => 1 });
  clock.jumpWall(firstSkew);
  const first = worker();
  for (const n of [1, 2, 3, 4, 9]) await first.track(sid(n));
  await clock.advance(2 * MIN);
  first.stop();
  await clock.advance(30_000);
  clock.jumpWall(between);
  await store.update(sid(9), (r) => r && edit(r));
  const second = worker();
  const restartAt = clock.t;
  await second.resume();
  if (during !== 0) {
    await clock.advance(30_000);
    clock.jumpWall(during);
  }
  await clock.advance(3 * MIN - (during !== 0 ? 30_000 : 0));
  second.stop();
  const out = new Map<string, number>();
  for (const n of [1, 2, 3, 4, 9]) {
    const starts = service.log.filter((e) => e.intentId === sid(n) && e.start >= restartAt).map((e) => e.start);
    out.set(sid(n), longestSilence(starts, restartAt, clock.t));
  }
  return out;
}

const keep: Edit = (t) => t;
const errorAt =
  (at: (t: TrackedIntent) => number): Edit =>
  (t) =>
    ({ ...t, lastError: { kind: 'not-found', message: 'NotFound', ...t.lastError, at: at(t) } }) as TrackedIntent;
const EDITS: Array<[string, Edit]> = [
  ['as written', keep],
  ['its last error a year ahead', errorAt((t) => (t.lastError?.at ?? t.addedAt) + YEAR)],
  ['its last error a year behind', errorAt((t) => (t.lastError?.at ?? t.addedAt) - YEAR)],
  ['its last error missing', ({ lastError: _e, ...t }) => t as TrackedIntent],
  [
    'only its last error (no other answer time)',
    ({ lastCheckedAt: _c, lastChangeAt: _l, ...t }) => errorAt((r) => r.addedAt + 2 * MIN)(t as TrackedIntent),
  ],
];
const STEPS: Array<[string, number, number, number]> = [
  // [name, first worker's skew, step between, step 30 s into the second life]
  ['an hour back between', 60 * MIN, -60 * MIN, 0],
  ['ten seconds back between', 10_000, -10_000, 0],
  ['back further than the records run ahead', 10 * MIN, -70 * MIN, 0],
  ['an hour forward between', 0, 60 * MIN, 0],
  ['an hour back between, then forward an hour in the second life', 60 * MIN, -60 * MIN, 60 * MIN],
  ['no step between, an hour back in the second life', 0, 0, -60 * MIN],
];

describe('I1 after a restart, whatever the stored last error says and the wall clock did', () => {
  for (const [stepName, skew, between, during] of STEPS)
    for (const [editName, edit] of EDITS)
      it(`${stepName}; the unknown intent's record ${editName}: every intent asked within S(N)`, async () => {
        const silences = await restart(skew, between, edit, during);
        // S(N) = 60 s for the two intents outside the three long-poll slots; 1 s for scheduling.
        expect([...silences].filter(([, s]) => s > 61_000)).toEqual([]);
      });
});

describe('a last error time that is not a number', () => {
  const base = (over: Partial<TrackedIntent>): TrackedIntent =>
    ({ intentId: sid(1), addedAt: 1_000, lastStates: [], phase: 'tracking', notification: 'none', ...over }) as TrackedIntent;
  it('does not make the shift of every record NaN', () => {
    const bad = base({ lastError: { kind: 'not-found', message: 'x', at: Number.NaN } as TrackedIntent['lastError'] });
    const good = base({ intentId: sid(2), lastCheckedAt: 5_000 });
    const shift = aheadMs([bad, good], {}, 2_000);
    expect(shift).toBe(3_000);
    const moved = clampTimes(shiftTimes(good, shift), 2_000, 60_000);
    expect(moved.lastCheckedAt).toBe(2_000);
    expect(Number.isFinite(moved.addedAt)).toBe(true);
  });
});
