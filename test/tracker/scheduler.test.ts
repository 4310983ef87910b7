import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { stalenessBound } from '@/lib/tracker/policy';
import { dueAt, LongPollBudget, longPollSlots, type PlanInput, planChecks } from '@/lib/tracker/scheduler';

const NOW = 1_000_000;
const TUNING = { maxConcurrent: 4, recheckAfterMs: 40_000, busySweepGapMs: 1_000, individualEveryMs: 5_000 };
const t = (intentId: string, extra: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId,
  addedAt: 0,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  status: 'EXECUTING',
  receipt: { intentId: 'x', status: 'EXECUTING', createdAt: new Date(0).toISOString() },
  lastCheckedAt: NOW - 1_000,
  ...extra,
});
/** The three long-poll slots busy with other intents: the sweeper's turn is what is planned. */
const slotsFull = () =>
  new Map<string, 'wait' | 'receipt' | 'batch'>([
    ['p1', 'wait'],
    ['p2', 'wait'],
    ['p3', 'wait'],
  ]);
const input = (tracking: TrackedIntent[], extra: Partial<PlanInput> = {}): PlanInput => ({
  now: NOW,
  tracking,
  inFlight: new Map(),
  longPollTokens: 3,
  longPollTokenAt: NOW,
  sweeping: false,
  nextSweepAt: 0,
  nextIndividualAt: 0,
  lastPageAt: NOW,
  refresh: [],
  verify: new Set(),
  history: true,
  tuning: TUNING,
  ...extra,
});

describe('planChecks', () => {
  it('fills the 3 long-poll slots by rank and leaves the rest to the sweeper', () => {
    const ids = ['a', 'b', 'c', 'd', 'e'].map((id, i) => t(id, { lastChangeAt: i }));
    const plan = planChecks(input(ids));
    expect(plan.longPolls).toEqual(['e', 'd', 'c']);
    expect(plan.sweep).toEqual({ kind: 'history' });
  });

  it('one long-poll slot while history can be read and more intents are tracked than a page holds (100): pages get the turns', () => {
    // 101 tracked, every token there: the old scheduler filled the 3 slots with long-polls, each a turn of the worker's
    // pace (I5) that a history page of up to 100 finishes did not get.
    const many = Array.from({ length: 101 }, (_, i) => t(`i${i}`, { lastChangeAt: i }));
    expect(planChecks(input(many)).longPolls).toEqual(['i100']);
    // A page's worth or fewer, or no history to read: the 3 slots as before.
    expect(planChecks(input(many.slice(0, 100))).longPolls).toHaveLength(3);
    expect(planChecks(input(many, { history: false })).longPolls).toHaveLength(3);
    expect(longPollSlots(101, true, TUNING)).toBe(1);
    expect(longPollSlots(100, true, TUNING)).toBe(3);
    expect(longPollSlots(5_000, false, TUNING)).toBe(3);
  });

  it('never more long-polls than free slots or tokens; waits for the next token', () => {
    const ids = ['a', 'b', 'c', 'd'].map((id) => t(id));
    const busy = new Map<string, 'wait' | 'receipt' | 'batch'>([
      ['x', 'wait'],
      ['y', 'wait'],
    ]);
    expect(planChecks(input(ids, { inFlight: busy })).longPolls).toHaveLength(1);
    const noToken = planChecks(input(ids, { longPollTokens: 0, longPollTokenAt: NOW + 3_333 }));
    expect(noToken.longPolls).toEqual([]);
    expect(noToken.wakeAt).toBe(NOW + 3_333);
  });

  it('a user refresh goes first, through the sweeper, never as a long-poll', () => {
    const plan = planChecks(input([t('a'), t('b')], { refresh: ['b'], nextSweepAt: NOW + 10_000 }));
    expect(plan.longPolls).toEqual(['a']);
    expect(plan.sweep).toEqual({ kind: 'receipt', intentId: 'b', reason: 'refresh' });
  });

  it('reads a new intent at once, even before the sweeper gap is over', () => {
    const fresh = t('n', { lastCheckedAt: undefined });
    const plan = planChecks(input([t('a'), t('b'), t('c'), fresh], { longPollTokens: 0, nextSweepAt: NOW + 2_000 }));
    expect(plan.sweep).toEqual({ kind: 'receipt', intentId: 'n', reason: 'first' });
  });

  it('while new intents wait for their first read, a history page still goes out once per busy gap', () => {
    const fresh = ['n1', 'n2'].map((id) => t(id, { lastCheckedAt: undefined, receipt: undefined, status: undefined }));
    const tracking = [t('a'), t('b'), t('c'), t('d'), ...fresh];
    const first = { kind: 'receipt', intentId: 'n1', reason: 'first' };
    // The last page started 999 ms ago: the first read goes on; at 1 000 ms the page goes first.
    expect(planChecks(input(tracking, { longPollTokens: 0, lastPageAt: NOW - 999 })).sweep).toEqual(first);
    expect(planChecks(input(tracking, { longPollTokens: 0, lastPageAt: NOW - 1_000 })).sweep).toEqual({ kind: 'history' });
    expect(planChecks(input(tracking, { longPollTokens: 0, lastPageAt: Number.NEGATIVE_INFINITY })).sweep).toEqual({ kind: 'history' });
    // Not before the sweeper's gap is over, and never without history to read.
    expect(planChecks(input(tracking, { longPollTokens: 0, lastPageAt: NOW - 5_000, nextSweepAt: NOW + 1 })).sweep).toEqual(first);
    expect(planChecks(input(tracking, { longPollTokens: 0, lastPageAt: NOW - 5_000, history: false })).sweep).toEqual(first);
  });

  it('an individual check for the intent heard of longest ago once it is 40 s old, else a history page', () => {
    const polled = slotsFull();
    const old = t('old', { lastCheckedAt: NOW - 45_000 });
    const older = t('older', { lastCheckedAt: NOW - 50_000, lastError: { kind: 'timeout', message: '', at: NOW - 10_000 } });
    const recent = t('recent', { lastCheckedAt: NOW - 39_000 });
    expect(planChecks(input([old, older, recent], { inFlight: polled })).sweep).toEqual({
      kind: 'receipt',
      intentId: 'old',
      reason: 'stale',
    });
    const plan = planChecks(input([recent], { inFlight: polled }));
    expect(plan.sweep).toEqual({ kind: 'history' });
    expect(plan.wakeAt).toBe(NOW - 39_000 + 40_000);
    // Not before the next individual turn.
    expect(planChecks(input([old], { inFlight: polled, nextIndividualAt: NOW + 1 })).sweep).toEqual({ kind: 'history' });
  });

  it('intents heard of at the same moment are each read again within S(N), the checks still 5 s apart (I1)', () => {
    // Six intents outside the one long-poll, all answered at NOW (a batch, a restart): waiting until the first is 40 s
    // old and then reading one every 5 s would leave the sixth 65 s without a check, over S(6) = 60 s.
    const cold = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => t(id, { lastCheckedAt: NOW }));
    const inFlight = new Map<string, 'wait' | 'receipt' | 'batch'>([['p1', 'wait']]);
    const reads = new Map(cold.map((c) => [c.intentId, [NOW]]));
    const individual: number[] = [];
    let nextIndividualAt = 0;
    for (let now = NOW; now <= NOW + 200_000; now += 250) {
      const plan = planChecks(
        input(cold, {
          now,
          inFlight,
          longPollTokens: 0,
          longPollTokenAt: Number.POSITIVE_INFINITY,
          nextIndividualAt,
          lastPageAt: now - 5_000,
        }),
      );
      if (plan.sweep?.kind !== 'receipt') continue;
      const read = cold.find((c) => c.intentId === (plan.sweep as { intentId: string }).intentId)!;
      read.lastCheckedAt = now;
      reads.get(read.intentId)!.push(now);
      individual.push(now);
      nextIndividualAt = now + TUNING.individualEveryMs;
    }
    const bound = stalenessBound(cold.length, TUNING);
    expect(bound).toBe(60_000);
    for (const [id, at] of reads) {
      expect(at.length, id).toBeGreaterThanOrEqual(4);
      const gaps = at.slice(1).map((x, i) => x - at[i]!);
      expect(Math.max(...gaps), id).toBeLessThanOrEqual(bound);
    }
    const paces = individual.slice(1).map((x, i) => x - individual[i]!);
    expect(Math.min(...paces)).toBeGreaterThanOrEqual(TUNING.individualEveryMs);
    // Not sooner than needed once spread out: at most one read a recheck period (40 s) per intent on average.
    expect(individual.length).toBeLessThanOrEqual(cold.length * Math.ceil(200_000 / 40_000) + cold.length);
  });

  it('a watchdog verification goes before staleness while the stalest can still be read within S(N)', () => {
    const polled = slotsFull();
    // Two cold intents, S(2) = 60 s, one check every 5 s: the stalest (heard 45 s ago) must start by 55 s.
    const stale = t('stale', { lastCheckedAt: NOW - 45_000 });
    const verify = t('verify', { lastCheckedAt: NOW - 31_000 });
    expect(planChecks(input([stale, verify], { inFlight: polled, verify: new Set(['verify']) })).sweep).toEqual({
      kind: 'receipt',
      intentId: 'verify',
      reason: 'verify',
    });
  });

  it('staleness goes before a verification once the stalest can wait no longer (I1)', () => {
    const polled = slotsFull();
    // Heard 56 s ago: past the latest start (60 s − one 5 s pace), so it is read now; the verification comes next.
    const stale = t('stale', { lastCheckedAt: NOW - 56_000 });
    const verify = t('verify', { lastCheckedAt: NOW - 31_000 });
    expect(planChecks(input([stale, verify], { inFlight: polled, verify: new Set(['verify']) })).sweep).toEqual({
      kind: 'receipt',
      intentId: 'stale',
      reason: 'stale',
    });
    const later = t('stale', { lastCheckedAt: NOW });
    expect(planChecks(input([later, verify], { inFlight: polled, verify: new Set(['verify']) })).sweep).toMatchObject({
      intentId: 'verify',
    });
  });

  it('an intent whose checks keep being answered about another intent does not take every turn: the next one is read in time (I1)', () => {
    // World campaign seed 1795800001, run 271: intent 1's checks were answered about another intent (a back-off of
    // 1 s each), and as the one owed longest it took every turn; intent 2 went 64 s unread (S(6) = 60 s).
    const polled = slotsFull();
    const failing = t('failing', {
      lastCheckedAt: NOW - 70_000,
      lastError: { kind: 'foreign-receipt', message: 'another intent', at: NOW - 3_000 },
      retry: { attempt: 3, nextAt: NOW - 1_000, at: NOW - 3_000 },
    });
    const next = t('next', { lastCheckedAt: NOW - 52_000 });
    expect(planChecks(input([failing, next], { inFlight: polled })).sweep).toEqual({ kind: 'receipt', intentId: 'next', reason: 'stale' });
    // Once read, the failing one's turn comes again.
    const read = t('next', { lastCheckedAt: NOW });
    expect(planChecks(input([failing, read], { inFlight: polled })).sweep).toMatchObject({ intentId: 'failing' });
  });

  it('a retry brings back expired intents: their verifications wait while a cut long-poll can wait no longer (I1)', () => {
    const polled = slotsFull();
    // 3 s ago a retry brought back two expired intents (unread for 200 s and 70 s, each to be verified) and cut the
    // long-poll of a third: three cold intents, S(3) = 60 s, one check every 5 s.
    const at = (now: number, cutHeard: number) => [
      t('gone', { lastCheckedAt: now - 200_000, resumedAt: NOW - 3_000 }),
      t('older', { lastCheckedAt: now - 70_000, resumedAt: NOW - 3_000 }),
      t('cut', { lastCheckedAt: now - cutHeard }),
    ];
    // The cut one, read 49 s ago, can still wait a turn (its latest start, 55 s, comes after the next turn): a
    // verification goes first...
    expect(planChecks(input(at(NOW, 49_000), { inFlight: polled, verify: new Set(['gone', 'older']) })).sweep).toMatchObject({
      intentId: 'gone',
      reason: 'verify',
    });
    // ...5 s later the turn after this one would come past its latest start: it goes before the other verification.
    expect(planChecks(input(at(NOW + 5_000, 54_000), { now: NOW + 5_000, inFlight: polled, verify: new Set(['older']) })).sweep).toEqual({
      kind: 'receipt',
      intentId: 'cut',
      reason: 'stale',
    });
  });

  it('a verification takes no turn that comes a few ms before the owed intent’s latest start (world campaign seed 20261127, run 1464)', () => {
    // An intent being expired (five fresh answers in a row, one per turn) and one read 54.99 s ago: its latest start
    // (55 s) is 10 ms away, the next turn 5 s. Given to the verification, the owed read went a turn past its latest
    // start, then behind the sweeper's gap: 62.5 s without a check (S(4) = 60 s).
    const polled = slotsFull();
    const owed = t('owed', { lastCheckedAt: NOW - 54_990 });
    const expiring = t('expiring', { lastCheckedAt: NOW - 5_000, status: 'COMMITTED' });
    expect(planChecks(input([owed, expiring], { inFlight: polled, verify: new Set(['expiring']) })).sweep).toEqual({
      kind: 'receipt',
      intentId: 'owed',
      reason: 'stale',
    });
  });

  it('the sweeper’s gap after its last job does not put an individual check past its latest start (I1)', () => {
    const polled = slotsFull();
    // The gap after a page (5 s while every intent seemed to fit in a slot) ends after the owed intent's latest start.
    const owed = t('owed', { lastCheckedAt: NOW - 55_000 });
    expect(planChecks(input([owed], { inFlight: polled, nextSweepAt: NOW + 5_000 })).sweep).toEqual({
      kind: 'receipt',
      intentId: 'owed',
      reason: 'stale',
    });
    // Before that latest start the gap holds, and the sweeper wakes at whichever comes first.
    const soon = t('owed', { lastCheckedAt: NOW - 50_000 });
    const waiting = planChecks(input([soon], { inFlight: polled, nextSweepAt: NOW + 8_000 }));
    expect(waiting.sweep).toBeUndefined();
    expect(waiting.wakeAt).toBe(NOW + 5_000);
    // The individual checks' own pace still holds.
    expect(planChecks(input([owed], { inFlight: polled, nextSweepAt: NOW + 5_000, nextIndividualAt: NOW + 1_000 })).sweep).toBeUndefined();
  });

  it('without history every sweeper turn reads the stalest intent', () => {
    const polled = slotsFull();
    const plan = planChecks(
      input([t('a', { lastCheckedAt: NOW - 1_000 })], { inFlight: polled, history: false, nextIndividualAt: NOW + 4_000 }),
    );
    expect(plan.sweep).toEqual({ kind: 'receipt', intentId: 'a', reason: 'stale' });
  });

  it("the sweeper's request in flight takes no long-poll slot; a single token starts a single long-poll", () => {
    const ids = ['a', 'b', 'c', 'd'].map((id) => t(id));
    for (const kind of ['receipt', 'batch'] as const) {
      const plan = planChecks(input(ids, { inFlight: new Map([['s', kind]]), sweeping: true }));
      expect(plan.longPolls, kind).toHaveLength(3);
    }
    const one = planChecks(input(ids, { longPollTokens: 1, longPollTokenAt: NOW + 3_334 }));
    expect(one.longPolls).toHaveLength(1);
    expect(one.wakeAt).toBe(NOW + 3_334);
  });

  it('a refresh for an intent no longer tracked is passed over for the next one', () => {
    const plan = planChecks(input([t('a'), t('b')], { refresh: ['gone', 'b'], longPollTokens: 0 }));
    expect(plan.sweep).toEqual({ kind: 'receipt', intentId: 'b', reason: 'refresh' });
  });

  it('a retry after a failed first read is no first read: it waits for the sweeper gap', () => {
    const failed = t('f', { lastCheckedAt: undefined, retry: { attempt: 1, nextAt: NOW - 1 } });
    const plan = planChecks(input([failed], { longPollTokens: 0, longPollTokenAt: NOW + 60_000, nextSweepAt: NOW + 2_500 }));
    expect(plan.sweep).toBeUndefined();
    expect(plan.wakeAt).toBe(NOW + 2_500);
  });

  it('wakes at the end of the sweeper gap only when the sweeper has something to do then', () => {
    const noHistory = { history: false, nextSweepAt: NOW + 2_500 };
    // An intent outside the slots (no token for it): its individual check is due when the gap ends.
    const waiting = planChecks(input([t('a')], { ...noHistory, longPollTokens: 0, longPollTokenAt: NOW + 60_000 }));
    expect(waiting.wakeAt).toBe(NOW + 2_500);
    // Every intent long-polled and no history: nothing for the sweeper, now or at the end of the gap.
    const idle = planChecks(input([t('a')], noHistory));
    expect(idle.longPolls).toEqual(['a']);
    expect(idle.wakeAt).toBe(Number.POSITIVE_INFINITY);
    const after = planChecks(input([t('a')], { history: false, nextSweepAt: 0 }));
    expect(after.sweep).toBeUndefined();
    expect(after.wakeAt).toBe(Number.POSITIVE_INFINITY);
  });

  it('respects back-off and the sweeper gap, and wakes when they end', () => {
    const backing = t('a', { retry: { attempt: 1, nextAt: NOW + 5_000 } });
    const plan = planChecks(input([backing], { nextSweepAt: NOW + 2_500 }));
    expect(plan.longPolls).toEqual([]);
    expect(plan.sweep).toBeUndefined();
    expect(plan.wakeAt).toBe(NOW + 2_500);
    expect(planChecks(input([backing], { sweeping: true })).wakeAt).toBe(NOW + 5_000);
    expect(dueAt(t('b', { nextCheckAt: NOW + 7, retry: { attempt: 1, nextAt: NOW + 3 } }))).toBe(NOW + 7);
  });
});

describe('LongPollBudget', () => {
  it('spends a token per long-poll, refills 18 a minute, gives back a token for news', () => {
    const b = new LongPollBudget(3, 18, 0);
    expect(b.available(0)).toBe(3);
    b.take(0);
    b.take(0);
    b.take(0);
    expect(b.available(0)).toBe(0);
    expect(b.nextAt(0)).toBe(3_334);
    expect(b.available(3_334)).toBe(1);
    b.refund();
    expect(b.available(3_334)).toBe(2);
    expect(b.available(60_000)).toBe(3);
    b.refund();
    expect(b.available(60_000)).toBe(3);
    expect(b.nextAt(60_000)).toBe(60_000);
  });

  it('the next token comes 60 s / 18 after the bucket ran dry, however the wait is cut', () => {
    const b = new LongPollBudget(3, 18, 0);
    b.take(0);
    b.take(0);
    b.take(0);
    // 60 000 / 18 = 3 333.3 ms a token: asked 1 s later, it is still due at 3 334.
    expect(b.nextAt(1_000)).toBe(3_334);
    expect(b.available(3_333)).toBe(0);
    expect(b.available(3_334)).toBe(1);
  });

  it('a clock that goes back neither refills nor drains the bucket', () => {
    const b = new LongPollBudget(3, 18, 10_000);
    b.take(10_000);
    expect(b.available(5_000)).toBe(2);
    expect(b.available(10_000)).toBe(2);
    expect(b.available(10_000 + 3_334)).toBe(3);
  });
});
