// @vitest-environment happy-dom
/**
 * The popup reads its list as rows (`tracked` with `rows`: the receipt cut to what a row reads), and whole records
 * where whole records are needed: the receipt view of a tracked intent, and the exports. The worker here is the real
 * `tracked` handler over records of the simulator's receipts.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { TrackedIntent } from '@/lib/store';
import { createTrackedHandler } from '@/lib/worker/tracked-handler';
import { snapshotAt } from '../../simulator/lifecycle';
import { popupOnSimulator, short } from './popup-fixture';

const simulator = popupOnSimulator();

const OWNER = `0x${'ab'.repeat(20)}`;

/** A refunded intent of the simulator, tracked: its receipt names the owner the refund went to. */
function refunded(n: number): TrackedIntent {
  const sim = simulator();
  const id = sim.createIntent('refund', 15_000, OWNER, { createdAgoMs: 10 * 60_000 });
  const receipt = snapshotAt(sim.intents().find((i) => i.intentId === id)!, sim.now()).receipt as IntentReceipt;
  return { intentId: id, addedAt: 1_000 + n, receipt, status: receipt.status, lastStates: [], phase: 'final', notification: 'shown' };
}

/** The worker: the real `tracked` handler over `records` (newest added first); every request recorded. */
function worker(records: TrackedIntent[]) {
  const handler = createTrackedHandler({ list: async () => records });
  const sent: Array<{ type: string; rows?: boolean; intentIds?: string[] }> = [];
  (fakeBrowser.permissions as unknown as { contains: () => Promise<boolean> }).contains = async () => false;
  (fakeBrowser.runtime as unknown as { sendMessage: (m: never) => Promise<unknown> }).sendMessage = async (m: { type: string }) => {
    sent.push(m);
    return m.type === 'tracked' ? handler(m as Parameters<typeof handler>[0]) : { ok: true };
  };
  (fakeBrowser.tabs as unknown as { getCurrent: () => Promise<unknown> }).getCurrent = async () => ({ id: 1 });
  return sent;
}

describe('popup: rows for the list, whole records where they are needed', () => {
  it('the list asks for rows; an opened receipt shows what only the whole record says', async () => {
    const records = [refunded(2), refunded(1)];
    const sent = worker(records);
    const refundTo = records[0]!.receipt!.refundTransaction?.toAddress;
    expect(refundTo).toMatch(/^0x[0-9a-f]{40}$/i);
    const { App } = await import('@/entrypoints/popup/App');
    render(<App />);
    const open = await screen.findByRole('button', { name: new RegExp(`Open receipt of intent ${records[0]!.intentId}`) });
    const listReads = sent.filter((m) => m.type === 'tracked');
    expect(listReads.length).toBeGreaterThan(0);
    expect(listReads.every((m) => m.rows === true)).toBe(true);
    fireEvent.click(open);
    // The refund's target is named only by the whole receipt (a row has no addresses).
    await waitFor(() => expect(document.querySelector('section.receipt')?.textContent).toContain(short(refundTo!)));
    expect(sent.some((m) => m.type === 'tracked' && m.rows === undefined && m.intentIds?.[0] === records[0]!.intentId)).toBe(true);
  });

  it('exports whole records, read when Export is clicked', async () => {
    const records = [refunded(2), refunded(1)];
    worker(records);
    const blobs: Blob[] = [];
    URL.createObjectURL = (b: Blob) => {
      blobs.push(b);
      return 'blob:export';
    };
    URL.revokeObjectURL = () => {};
    const { App } = await import('@/entrypoints/popup/App');
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: 'Export JSON' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const file = JSON.parse(await blobs[0]!.text()) as { intents: Array<{ intentId: string; receipt: IntentReceipt }> };
    expect(file.intents.map((i) => i.intentId)).toEqual(records.map((r) => r.intentId));
    expect(file.intents.map((i) => i.receipt)).toEqual(records.map((r) => r.receipt));
  });
});
