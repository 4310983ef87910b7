/**
 * The busy-project mode over HTTP: thousands of other owners' intents an hour, created and finishing, listed by
 * GetIntentHistory newest first in pages of at most 100; and the stream keeps going in real time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../simulator/server';

type Row = {
  intentId: string;
  status: string;
  createdAt: string;
  receipt: { id: number; ownerAddress: string; summary: { finishedAt?: string } };
};
type Page = { intents: Row[]; nextPage?: { after: number; pageSize: number } };

const rpc = async <T>(sim: Simulator, operation: string, body: unknown): Promise<{ status: number; json: T }> => {
  const res = await fetch(`${sim.url}/rpc/Svc/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Access-Key': sim.accessKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
};
const control = async (sim: Simulator, path: string, body: unknown) => {
  const res = await fetch(`${sim.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

/** Every row of a history query, following nextPage; checks each page's size on the way. */
async function allPages(sim: Simulator, request: Record<string, unknown>): Promise<Row[]> {
  const rows: Row[] = [];
  let after: number | undefined;
  for (;;) {
    const { json } = await rpc<Page>(sim, 'GetIntentHistory', {
      ...request,
      page: { pageSize: 500, ...(after !== undefined ? { after } : {}) },
    });
    expect(json.intents.length).toBeLessThanOrEqual(100);
    rows.push(...json.intents);
    if (!json.nextPage) return rows;
    expect(json.nextPage.pageSize).toBe(100);
    after = json.nextPage.after;
  }
}

const HOUR = 3_600_000;
const FINAL = ['SUCCEEDED', 'FAILED', 'REFUNDED'];

describe('busy project: an hour of 5 000 intents an hour, default lifetimes (15 s to 10 min)', () => {
  let sim: Simulator;
  let rows: Row[];
  let tracked: { intentId: string; owner: string };
  beforeAll(async () => {
    sim = await startSimulator({ dataset: false, busy: { perHour: 5000 } });
    const { json } = await control(sim, '/control/intents', { scenario: 'stuck', createdAgoMs: 30 * 60_000 });
    const intentId = json.intentId as string;
    const receipt = await rpc<{ intentReceipt: { ownerAddress: string } }>(sim, 'GetIntentReceipt', { intentId });
    tracked = { intentId, owner: receipt.json.intentReceipt.ownerAddress };
    rows = await allPages(sim, {});
  });
  afterAll(() => sim.close());

  it('lists thousands of intents, newest first, ids in creation order, in pages of at most 100', () => {
    const busy = rows.filter((r) => r.intentId !== tracked.intentId);
    // Poisson arrivals: 5 000 expected, standard deviation about 71.
    expect(busy.length).toBeGreaterThan(4700);
    expect(busy.length).toBeLessThan(5300);
    for (let k = 1; k < rows.length; k++) {
      expect(Date.parse(rows[k]!.createdAt)).toBeLessThan(Date.parse(rows[k - 1]!.createdAt));
      expect(rows[k]!.receipt.id).toBeLessThan(rows[k - 1]!.receipt.id);
    }
    const now = Date.now();
    expect(Date.parse(rows[rows.length - 1]!.createdAt)).toBeGreaterThanOrEqual(now - HOUR - 60_000);
    expect(Date.parse(rows[0]!.createdAt)).toBeGreaterThan(now - 60_000);
  });

  it("places an intent created 30 minutes ago among them, by its creation time; they are other owners' intents", () => {
    const at = rows.findIndex((r) => r.intentId === tracked.intentId);
    expect(at).toBeGreaterThan(0);
    const created = Date.parse(rows[at]!.createdAt);
    expect(Math.abs(created - (Date.now() - 30 * 60_000))).toBeLessThan(60_000);
    // About half an hour of the stream is newer than it.
    expect(at).toBeGreaterThan(2000);
    expect(at).toBeLessThan(3000);
    const busy = rows.filter((r) => r.intentId !== tracked.intentId);
    expect(busy.some((r) => r.receipt.ownerAddress === tracked.owner)).toBe(false);
    expect(new Set(busy.map((r) => r.receipt.ownerAddress)).size).toBeGreaterThan(300);
  });

  it('has thousands finished within the hour (SUCCEEDED, FAILED, REFUNDED), the rest in flight', () => {
    const busy = rows.filter((r) => r.intentId !== tracked.intentId);
    const byStatus = new Map<string, number>();
    for (const r of busy) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    expect([...byStatus.keys()].sort()).toEqual(['COMMITTED', 'EXECUTING', 'FAILED', 'REFUNDED', 'SUCCEEDED']);
    const finished = busy.filter((r) => FINAL.includes(r.status));
    expect(finished.length).toBeGreaterThan(4000);
    expect(byStatus.get('SUCCEEDED')!).toBeGreaterThan(finished.length * 0.75);
    expect(finished.every((r) => r.receipt.summary.finishedAt !== undefined)).toBe(true);
  });

  it('spreads creation times before the finish: lifetimes from 15 s to 10 min, log-uniform', () => {
    const lives = rows
      .filter((r) => FINAL.includes(r.status))
      .map((r) => Date.parse(r.receipt.summary.finishedAt!) - Date.parse(r.createdAt));
    expect(Math.min(...lives)).toBeGreaterThanOrEqual(14_000);
    expect(Math.max(...lives)).toBeLessThanOrEqual(601_000);
    // Log-uniform over [15 s, 600 s]: 38 % under a minute, 19 % over five (lifetimes of unfinished intents are
    // missing, which lowers the long share a little).
    expect(lives.filter((l) => l < 60_000).length / lives.length).toBeGreaterThan(0.3);
    expect(lives.filter((l) => l > 300_000).length / lives.length).toBeGreaterThan(0.12);
  });

  it("answers the tracker's query (final statuses since a time) in pages of 100 with only those statuses", async () => {
    const fromTime = Math.floor((Date.now() - HOUR / 2) / 1000);
    const finals = await allPages(sim, { byStatuses: ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED'], fromTime });
    expect(finals.length).toBeGreaterThan(2000);
    expect(finals.every((r) => FINAL.includes(r.status) && Date.parse(r.createdAt) >= fromTime * 1000)).toBe(true);
  });
});

describe('busy project: the stream runs in real time', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: false });
  });
  afterAll(() => sim.close());

  it('creates intents at the rate asked, each reaching a final status; perHour 0 stops it; bad settings are refused', async () => {
    expect((await control(sim, '/control/busy', { perHour: -1 })).status).toBe(400);
    expect((await control(sim, '/control/busy', { perHour: 36_000, minLifeMs: 500, maxLifeMs: 100 })).status).toBe(400);
    const started = await control(sim, '/control/busy', { perHour: 36_000, backfillMs: 0, minLifeMs: 300, maxLifeMs: 600 });
    expect(started).toEqual({ status: 200, json: { perHour: 36_000, backfilled: 0 } });
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, 3000));
    // 10 a second (about 30 in 3 s): bounded by the time that really passed, which a loaded machine stretches (the
    // stream catches up on its 200 ms tick, so arrivals up to one tick before the listing began are in it).
    const listedFrom = Date.now();
    const first = await allPages(sim, {});
    const listedTo = Date.now();
    expect(first.length).toBeGreaterThan(((listedFrom - 200 - t0) / 100) * 0.4);
    expect(first.length).toBeLessThan(((listedTo - t0) / 100) * 2);
    expect(first.every((r) => Date.parse(r.createdAt) >= t0 - 250)).toBe(true);
    // The ones more than 600 ms old (their longest life) when the listing began have finished: the listing read them
    // after that (measured from after the listing, a slow listing on a loaded machine read some of them younger).
    const old = first.filter((r) => Date.parse(r.createdAt) < listedFrom - 650);
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((r) => FINAL.includes(r.status))).toBe(true);

    // One still in flight: WaitIntentReceipt follows it to its end (REFUNDED is not `done`: short waits).
    await control(sim, '/control/wait-timeout', { ms: 1000 });
    const young = first.find((r) => !FINAL.includes(r.status)) ?? first[0]!;
    let states: string[] = [];
    for (let turn = 0; turn < 10; turn++) {
      const { json } = await rpc<{ done: boolean; receiptStates: string[]; intentReceipt: { status: string } }>(sim, 'WaitIntentReceipt', {
        intentId: young.intentId,
        lastReceiptStates: states,
      });
      states = json.receiptStates;
      if (json.done || json.intentReceipt.status === 'REFUNDED') break;
    }
    const end = await rpc<{ intentReceipt: { status: string } }>(sim, 'GetIntentReceipt', { intentId: young.intentId });
    expect(FINAL).toContain(end.json.intentReceipt.status);

    expect((await control(sim, '/control/busy', { perHour: 0 })).json).toEqual({ perHour: 0, backfilled: 0 });
    const count = (await allPages(sim, {})).length;
    await new Promise((r) => setTimeout(r, 800));
    expect((await allPages(sim, {})).length).toBe(count);
  });
});
