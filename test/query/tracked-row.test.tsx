// @vitest-environment happy-dom
/**
 * The list's rows (`lib/query/tracked-row.ts`): a row shows, finds and filters exactly as its whole record does, over
 * every receipt of the simulator's data set and its scripted lifecycles at each step, with the fields the spec does
 * not name added; and the rows are well under half the records' size.
 */
import { cleanup, render } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TrackedIntentRow } from '@/components/TrackedIntentRow';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { baselineOf, etaAt, finishedAtMs, inFlightFirst, isInFlight, startedAtMs } from '@/lib/eta';
import { timelineOf } from '@/lib/format/timeline';
import { passes, searchText, TRACKED_FILTERS } from '@/lib/query/tracked-filter';
import { trackedRow, withRow } from '@/lib/query/tracked-row';
import type { TrackedIntent } from '@/lib/store';
import { generateDataset } from '../../simulator/dataset';
import { snapshotAt } from '../../simulator/lifecycle';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim?.close());
afterEach(cleanup);

const FINAL = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'];
/** A tracked record of `receipt` as the tracker keeps one, with the record's other fields set. */
const record = (receipt: IntentReceipt, n: number): TrackedIntent => ({
  intentId: receipt.intentId,
  addedAt: 1_700_000_000_000 + n,
  receipt,
  status: receipt.status,
  lastStates: [],
  phase: FINAL.includes(receipt.status) ? 'final' : 'tracking',
  notification: FINAL.includes(receipt.status) ? 'shown' : 'none',
  ...(FINAL.includes(receipt.status) ? { notified: { title: 'Intent succeeded', message: 'Base → Polygon' } } : {}),
  ...(n % 3 === 0 ? { estimatedDuration: 30 + n } : n % 3 === 1 ? { routeDuration: 90 } : {}),
  ...(n % 7 === 0
    ? {
        lastError: { kind: 'network', message: 'The service did not answer.', at: 1_700_000_000_000 },
        retry: { attempt: 2, nextAt: 1_700_000_060_000 },
      }
    : {}),
});

/** Fields a deployed service may add that the spec does not name, at the top, in the summary and in a leg. */
function withUnnamed(receipt: IntentReceipt): IntentReceipt {
  const r = structuredClone(receipt) as IntentReceipt & Record<string, unknown>;
  r.quoteRequest = { options: { slippageTolerance: 0.005 }, note: 'x'.repeat(500) };
  if (r.summary) (r.summary as Record<string, unknown>).routeDetails = ['RELAY', 'x'.repeat(300)];
  if (r.originTransaction) (r.originTransaction as Record<string, unknown>).traces = [{ depth: 1, input: `0x${'ab'.repeat(200)}` }];
  return r;
}

/** Every receipt the tests read: the data set's, and scripted intents of each scenario at each point of their run. */
function receipts(): IntentReceipt[] {
  const out: IntentReceipt[] = [];
  const now = sim.now();
  for (const intent of generateDataset()) out.push(snapshotAt(intent, now).receipt as IntentReceipt);
  for (const scenario of ['success', 'failure', 'refund'] as const) {
    for (let ago = 0; ago <= 8 * 15_000; ago += 7_500) {
      const id = sim.createIntent(scenario, 15_000, `0x${'ab'.repeat(20)}`, { createdAgoMs: ago });
      const intent = sim.intents().find((i) => i.intentId === id)!;
      out.push(snapshotAt(intent, now).receipt as IntentReceipt);
    }
  }
  return out;
}

describe('trackedRow', () => {
  it('a row renders, is found and is filtered exactly as its whole record, at any moment of an intent', () => {
    const all = receipts();
    expect(all.some((r) => FINAL.includes(r.status))).toBe(true);
    expect(all.some((r) => !FINAL.includes(r.status))).toBe(true);
    const now = sim.now();
    all.forEach((receipt, n) => {
      for (const whole of [record(receipt, n), record(withUnnamed(receipt), n)]) {
        const row = trackedRow(whole);
        for (const at of [now, now + 45_000, now + 3_600_000]) {
          const a = render(<TrackedIntentRow intent={whole} now={at} onOpen={() => {}} onRemove={() => {}} />);
          const b = render(<TrackedIntentRow intent={row} now={at} onOpen={() => {}} onRemove={() => {}} />);
          expect(b.container.innerHTML).toBe(a.container.innerHTML);
          cleanup();
          expect(etaAt(row.receipt, baselineOf(row), at)).toEqual(etaAt(whole.receipt, baselineOf(whole), at));
        }
        expect(searchText(row)).toBe(searchText(whole));
        for (const f of TRACKED_FILTERS) expect(passes(row, f)).toBe(passes(whole, f));
        expect(isInFlight(row)).toBe(isInFlight(whole));
        expect(timelineOf(row.receipt!)).toEqual(timelineOf(whole.receipt!));
        expect(startedAtMs(row.receipt)).toBe(startedAtMs(whole.receipt));
        expect(finishedAtMs(row.receipt)).toBe(finishedAtMs(whole.receipt));
      }
    });
    const records = all.map(record);
    expect(inFlightFirst(records.map(trackedRow)).map((t) => t.intentId)).toEqual(inFlightFirst(records).map((t) => t.intentId));
  });

  it('leaves out what the list never reads, changes nothing in the record, and is well under half its size', () => {
    const records = receipts().map((r, n) => record(withUnnamed(r), n));
    const before = JSON.stringify(records);
    const rows = records.map(trackedRow);
    expect(JSON.stringify(records)).toBe(before);
    const row = rows.find((t) => t.receipt?.originTransaction)!;
    expect(Object.keys(row.receipt!)).not.toContain('quoteRequest');
    expect(Object.keys(row.receipt!)).not.toContain('ownerAddress');
    expect(Object.keys(row.receipt!.summary!)).not.toContain('routeDetails');
    expect(Object.keys(row.receipt!.originTransaction!)).not.toContain('traces');
    expect(Object.keys(row.receipt!.originTransaction!)).not.toContain('fromAddress');
    expect(rows.every((t) => t.notified === undefined)).toBe(true);
    // Without the unnamed fields too: the data set's receipts as the simulator writes them.
    const plain = receipts().map(record);
    expect(JSON.stringify(plain.map(trackedRow)).length).toBeLessThan(JSON.stringify(plain).length * 0.45);
    expect(JSON.stringify(rows).length).toBeLessThan(before.length * 0.3);
  });

  it('withRow: an older whole record brought up to date by a newer row shows what the newer record shows, and keeps what only whole records have', () => {
    const now = sim.now();
    for (const scenario of ['success', 'failure', 'refund'] as const) {
      const id = sim.createIntent(scenario, 15_000, `0x${'cd'.repeat(20)}`, { createdAgoMs: 0 });
      const intent = sim.intents().find((i) => i.intentId === id)!;
      for (let step = 0; step < 8; step++) {
        const older = record(snapshotAt(intent, now + step * 15_000).receipt as IntentReceipt, step);
        const newer = record(snapshotAt(intent, now + (step + 1) * 15_000).receipt as IntentReceipt, step);
        const merged = withRow(older, trackedRow(newer));
        expect(trackedRow(merged)).toEqual(trackedRow(newer));
        expect(merged.receipt?.ownerAddress).toBe(older.receipt?.ownerAddress);
        expect(merged.receipt?.summary?.originIntentAddress).toBe(older.receipt?.summary?.originIntentAddress);
      }
    }
  });

  it('a record without a receipt yet is its own row, less the notification words', () => {
    const waiting: TrackedIntent = { intentId: `0x${'1'.repeat(64)}`, addedAt: 5, lastStates: [], phase: 'tracking', notification: 'none' };
    expect(trackedRow(waiting)).toEqual(waiting);
  });
});
