/**
 * The ETA model on a virtual clock, over receipts the simulator's scripted lifecycles produce at each moment: the
 * quote's estimate counting down, the route median when the quote has none, the switch to "taking longer than
 * usual", and an intent that finishes before its estimate.
 */
import { describe, expect, it } from 'vitest';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import {
  baselineOf,
  etaAt,
  etaText,
  formatDuration,
  inFlightFirst,
  routeMedianSeconds,
  serviceTimeMs,
  sourceText,
  stuckLimitMs,
} from '@/lib/eta';
import { SCRIPTS, type SimIntent, type Step, snapshotAt } from '../../simulator/lifecycle';
import { CATALOGUE } from '../../simulator/tokens';
import { VirtualClock } from '../tracker/fakes';

const token = (chainId: number, symbol: string) => CATALOGUE.find((t) => t.chainId === chainId && t.symbol === symbol)!;
let n = 0;
/** A simulated intent on Arbitrum USDC → Base USDC started at `startedAt`. The success script runs 1+1+2+1 steps. */
function simIntent(startedAt: number, stepMs: number, script: Step[] = SCRIPTS.success, destinationChain = 8453): SimIntent {
  n++;
  return {
    intentId: `0x${n.toString(16).padStart(64, '0')}`,
    numericId: n,
    projectId: 1,
    ownerAddress: `0x${'1'.repeat(40)}`,
    origin: token(42161, 'USDC'),
    destination: token(destinationChain, 'USDC'),
    originAmount: '250000000',
    destinationAmount: '249100000',
    createdAt: startedAt,
    startedAt,
    stepMs,
    script,
    failureReason: 'slippage',
  };
}
const receiptAt = (intent: SimIntent, now: number) => snapshotAt(intent, now).receipt as IntentReceipt;

describe('ETA from the quote estimate', () => {
  it('waits before execution, counts down from summary.startedAt, and says how long it took', async () => {
    const clock = new VirtualClock();
    const intent = simIntent(clock.now(), 15_000);
    const baseline = baselineOf({ estimatedDuration: 60 });
    expect(baseline).toEqual({ seconds: 60, source: 'quote' });
    const text = () => etaText(etaAt(receiptAt(intent, clock.now()), baseline, clock.now()));
    expect(text()).toBe('≈ 1 min once it starts'); // COMMITTED: the clock does not run yet
    await clock.advance(30_000); // executing since 15 s
    expect(etaAt(receiptAt(intent, clock.now()), baseline, clock.now())).toMatchObject({
      kind: 'counting',
      leftMs: 45_000,
      source: 'quote',
    });
    expect(text()).toBe('≈ 45 s left');
    await clock.advance(29_000);
    expect(text()).toBe('≈ 16 s left');
    await clock.advance(16_000); // the script's last step: 4 steps of execution = 60 s
    expect(etaAt(receiptAt(intent, clock.now()), baseline, clock.now())).toMatchObject({ kind: 'finished', tookMs: 60_000, early: false });
    expect(text()).toBe('completed in 1 min');
    expect(sourceText('quote')).toBe('estimate from the quote');
  });

  it('finishes early: the countdown stops when the intent finishes before its estimate', async () => {
    const clock = new VirtualClock();
    const intent = simIntent(clock.now(), 18_000); // 4 × 18 s = 72 s of execution
    const baseline = baselineOf({ estimatedDuration: 120 });
    await clock.advance(18_000 + 71_000);
    expect(etaText(etaAt(receiptAt(intent, clock.now()), baseline, clock.now()))).toBe('≈ 49 s left');
    await clock.advance(1_000);
    const eta = etaAt(receiptAt(intent, clock.now()), baseline, clock.now());
    expect(eta).toMatchObject({ kind: 'finished', status: 'SUCCEEDED', tookMs: 72_000, early: true });
    expect(etaText(eta)).toBe('completed in 1 min 12 s');
    // Later reads of the finished receipt do not move.
    await clock.advance(600_000);
    expect(etaText(etaAt(receiptAt(intent, clock.now()), baseline, clock.now()))).toBe('completed in 1 min 12 s');
  });

  it('switches to "taking longer than usual" the moment the estimate has passed, and the stuck warning waits for 2 × it', async () => {
    const clock = new VirtualClock();
    const intent = simIntent(clock.now(), 60_000); // a slow run: 4 min of execution against a 2-minute quote
    const baseline = baselineOf({ estimatedDuration: 120 });
    await clock.advance(60_000 + 120_000);
    expect(etaAt(receiptAt(intent, clock.now()), baseline, clock.now())).toMatchObject({ kind: 'counting', leftMs: 0 });
    await clock.advance(1);
    const eta = etaAt(receiptAt(intent, clock.now()), baseline, clock.now());
    expect(eta).toMatchObject({ kind: 'delayed', overMs: 1, expectedMs: 120_000 });
    expect(etaText(eta)).toBe('taking longer than usual (expected ≈ 2 min)');
    await clock.advance(120_000);
    expect(etaText(etaAt(receiptAt(intent, clock.now()), baseline, clock.now()))).toBe('completed in 4 min');
    // The stuck warning: never before 15 minutes; twice a long estimate.
    expect(stuckLimitMs(baseline, 15 * 60_000)).toBe(15 * 60_000);
    expect(stuckLimitMs(baselineOf({ estimatedDuration: 600 }), 15 * 60_000)).toBe(20 * 60_000);
    expect(stuckLimitMs(undefined, 15 * 60_000)).toBe(15 * 60_000);
  });

  it('says nothing in flight without a baseline, and words other endings', async () => {
    const clock = new VirtualClock();
    const failing = simIntent(clock.now(), 10_000, SCRIPTS.failure); // 1+1+2 steps: FAILED after 30 s of execution
    expect(etaText(etaAt(receiptAt(failing, clock.now() + 20_000), undefined, clock.now() + 20_000))).toBeUndefined();
    expect(etaText(etaAt(receiptAt(failing, clock.now() + 40_000), undefined, clock.now() + 40_000))).toBe('failed after 30 s');
    const refund = simIntent(clock.now(), 10_000, SCRIPTS.refund); // 1+1+2+2 steps: REFUNDED after 50 s of execution
    expect(etaText(etaAt(receiptAt(refund, clock.now() + 70_000), undefined, clock.now() + 70_000))).toBe('refunded after 50 s');
  });
});

describe('ETA from the route median', () => {
  it('takes the median start → finish of SUCCEEDED intents on the same chain pair, and says it is typical for the route', async () => {
    const clock = new VirtualClock();
    const t0 = clock.now();
    // Execution lasts 4 steps of the success script: 40 s, 2 min, 80 s, 60 s.
    const rows = [10_000, 30_000, 20_000, 15_000].map((stepMs) => simIntent(t0, stepMs));
    const failed = simIntent(t0, 100_000, SCRIPTS.failure); // not counted: failures end at odd times
    const otherPair = simIntent(t0, 1_000, SCRIPTS.success, 10); // Arbitrum → Optimism
    const now = t0 + 2_000_000;
    const history = [...rows, failed, otherPair].map((i) => {
      const receipt = receiptAt(i, now);
      return { status: receipt.status ?? undefined, receipt };
    });
    expect(routeMedianSeconds(history, 42161, 8453)).toBe(70); // (60 + 80) / 2
    expect(routeMedianSeconds(history.slice(0, 3), 42161, 8453)).toBe(80);
    expect(routeMedianSeconds(history.slice(0, 2), 42161, 8453)).toBeUndefined(); // too few to call typical
    expect(routeMedianSeconds(history, 42161, 10)).toBeUndefined();

    const baseline = baselineOf({ routeDuration: 70 });
    expect(baseline).toEqual({ seconds: 70, source: 'route' });
    expect(sourceText('route')).toBe('typical for this route');
    // The quote's estimate wins when there is one.
    expect(baselineOf({ estimatedDuration: 30, routeDuration: 70 })).toEqual({ seconds: 30, source: 'quote' });
    expect(baselineOf({ estimatedDuration: 0 })).toBeUndefined();

    const live = simIntent(clock.now(), 30_000);
    await clock.advance(30_000 + 10_000);
    expect(etaAt(receiptAt(live, clock.now()), baseline, clock.now())).toMatchObject({ kind: 'counting', leftMs: 60_000, source: 'route' });
    await clock.advance(60_001);
    expect(etaText(etaAt(receiptAt(live, clock.now()), baseline, clock.now()))).toBe('taking longer than usual (expected ≈ 1 min)');
  });
});

describe('absurd times from the service (issue 27, symptom 14)', () => {
  it('Go zero time or a far-future time is unknown: an intent executing since 0001-01-01 is waiting, not late by centuries', () => {
    expect(serviceTimeMs('0001-01-01T00:00:00Z')).toBeUndefined();
    expect(serviceTimeMs('2150-06-01T00:00:00Z')).toBeUndefined();
    expect(serviceTimeMs('1970-01-01T00:00:00Z')).toBeUndefined();
    expect(serviceTimeMs('not a time')).toBeUndefined();
    expect(serviceTimeMs('2026-11-22T10:00:00.000Z')).toBe(Date.UTC(2026, 10, 22, 10));
    const now = Date.UTC(2026, 10, 22, 10);
    const receipt = { intentId: 'x', status: 'EXECUTING', summary: { startedAt: '0001-01-01T00:00:00Z' } };
    expect(etaAt(receipt, { seconds: 60, source: 'quote' }, now)).toEqual({ kind: 'waiting', expectedMs: 60_000, source: 'quote' });
    // A start 20 years ago is as absurd.
    const old = { ...receipt, summary: { startedAt: '2006-11-22T10:00:00Z' } };
    expect(etaAt(old, { seconds: 60, source: 'quote' }, now)).toEqual({ kind: 'waiting', expectedMs: 60_000, source: 'quote' });
    const rows = [1, 2, 3].map(() => ({
      status: 'SUCCEEDED',
      receipt: {
        ...receipt,
        status: 'SUCCEEDED',
        originChainId: 1,
        destinationChainId: 10,
        summary: { startedAt: '0001-01-01T00:00:00Z', finishedAt: '2026-11-22T10:00:00Z' },
      },
    }));
    expect(routeMedianSeconds(rows, 1, 10)).toBeUndefined();
  });
});

describe('durations and order', () => {
  it('formats durations', () => {
    expect([0, 45_000, 60_000, 72_000, 3_600_000, 3_900_000].map(formatDuration)).toEqual([
      '0 s',
      '45 s',
      '1 min',
      '1 min 12 s',
      '1 h',
      '1 h 5 min',
    ]);
  });

  it('puts intents in flight first and keeps the order within each group', () => {
    const list = [
      { id: 'a', phase: 'final', status: 'SUCCEEDED' },
      { id: 'b', phase: 'tracking', status: 'EXECUTING' },
      { id: 'c', phase: 'not-found' },
      { id: 'd', phase: 'tracking' },
      { id: 'e', phase: 'tracking', status: 'FAILED' },
    ];
    expect(inFlightFirst(list).map((i) => i.id)).toEqual(['b', 'd', 'a', 'c', 'e']);
  });
});
