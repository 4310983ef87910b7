/**
 * The not-in-history mode (GetIntentHistory never lists the scripted intents, which still answer GetIntentReceipt
 * and WaitIntentReceipt), per intent and for the whole simulator; a zero wait time-out; and the CLI flags that turn
 * the modes on, over HTTP.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../simulator/server';

type Page = { intents: Array<{ intentId: string; status: string }>; nextPage?: { after: number } };

const rpcAt = async <T>(url: string, key: string, operation: string, body: unknown): Promise<{ status: number; json: T }> => {
  const res = await fetch(`${url}/rpc/Svc/${operation}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Access-Key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
};
const controlAt = async (url: string, path: string, body: unknown) => {
  const res = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

/** The intentIds of every row of a history query, following nextPage. */
async function listed(url: string, key: string, request: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  let after: number | undefined;
  for (;;) {
    const { json } = await rpcAt<Page>(url, key, 'GetIntentHistory', {
      ...request,
      page: { pageSize: 100, ...(after !== undefined ? { after } : {}) },
    });
    ids.push(...json.intents.map((i) => i.intentId));
    if (!json.nextPage) return ids;
    after = json.nextPage.after;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('not in history', () => {
  let sim: Simulator;
  const rpc = <T>(operation: string, body: unknown) => rpcAt<T>(sim.url, sim.accessKey, operation, body);
  const create = async (body: Record<string, unknown>) => (await controlAt(sim.url, '/control/intents', body)).json.intentId as string;
  beforeAll(async () => {
    sim = await startSimulator({ waitTimeoutMs: 2000 });
  });
  afterAll(() => sim.close());

  it('per intent: "inHistory": false keeps it out of every history page while receipts answer, before and after it ends', async () => {
    const hidden = await create({ scenario: 'success', stepMs: 100, inHistory: false });
    const shown = await create({ scenario: 'success', stepMs: 100 });
    const all = await listed(sim.url, sim.accessKey);
    expect(all).toContain(shown);
    expect(all).not.toContain(hidden);
    expect(all.length).toBe(320 + 1);

    const receipt = await rpc<{ intentReceipt: { intentId: string } }>('GetIntentReceipt', { intentId: hidden });
    expect(receipt.json.intentReceipt.intentId).toBe(hidden);
    let states: string[] = [];
    let done = false;
    for (let turn = 0; turn < 10 && !done; turn++) {
      const wait = await rpc<{ done: boolean; receiptStates: string[] }>('WaitIntentReceipt', {
        intentId: hidden,
        lastReceiptStates: states,
      });
      expect(wait.status).toBe(200);
      ({ done } = wait.json);
      states = wait.json.receiptStates;
    }
    expect(done).toBe(true);
    await sleep(100); // `shown` was created a little later, so it ends a little later
    const finals = await listed(sim.url, sim.accessKey, { byStatuses: ['SUCCEEDED'], fromTime: Math.floor(Date.now() / 1000) - 60 });
    expect(finals).toEqual([shown]);
    expect(
      await listed(sim.url, sim.accessKey, { byOwnerAddress: sim.intents().find((i) => i.intentId === hidden)!.ownerAddress }),
    ).toEqual([shown]);
  });

  it('for the simulator: scriptedInHistory false hides every scripted intent without an inHistory of its own', async () => {
    const before = await create({ scenario: 'stuck', stepMs: 50 });
    expect(await listed(sim.url, sim.accessKey)).toContain(before);
    expect((await controlAt(sim.url, '/control/history', { scriptedInHistory: 'no' })).status).toBe(400);
    expect((await controlAt(sim.url, '/control/history', { scriptedInHistory: false })).json).toEqual({ scriptedInHistory: false });
    const after = await create({ scenario: 'failure', stepMs: 50 });
    const forced = await create({ scenario: 'failure', stepMs: 50, inHistory: true });
    await sleep(300);
    const all = await listed(sim.url, sim.accessKey);
    const scripted = sim.intents().filter((i) => i.scripted);
    expect(scripted.length).toBe(5);
    expect(all.filter((id) => scripted.some((i) => i.intentId === id))).toEqual([forced]);
    // The data set is still there.
    expect(all.length).toBe(320 + 1);
    const failed = await rpc<{ intentReceipt: { status: string } }>('GetIntentReceipt', { intentId: after });
    expect(failed.json.intentReceipt.status).toBe('FAILED');

    sim.setScriptedInHistory(true);
    expect(await listed(sim.url, sim.accessKey)).toEqual(expect.arrayContaining([before, after, forced]));
  });

  it('refuses a bad inHistory or createdAgoMs', async () => {
    expect((await controlAt(sim.url, '/control/intents', { inHistory: 'false' })).status).toBe(400);
    expect((await controlAt(sim.url, '/control/intents', { createdAgoMs: -5 })).status).toBe(400);
  });
});

describe('wait time-out 0', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ dataset: false });
  });
  afterAll(() => sim.close());

  it('WaitIntentReceipt answers at once, done false, without holding', async () => {
    expect((await controlAt(sim.url, '/control/wait-timeout', { ms: -1 })).status).toBe(400);
    expect((await controlAt(sim.url, '/control/wait-timeout', { ms: 'soon' })).status).toBe(400);
    expect((await controlAt(sim.url, '/control/wait-timeout', { ms: 0 })).json).toEqual({ waitTimeoutMs: 0 });
    const intentId = sim.createIntent('stuck', 20);
    await sleep(100);
    const first = await rpcAt<{ receiptStates: string[] }>(sim.url, sim.accessKey, 'WaitIntentReceipt', {
      intentId,
      lastReceiptStates: [],
    });
    for (let k = 0; k < 3; k++) {
      const same = await rpcAt<{ done: boolean; receiptStates: string[] }>(sim.url, sim.accessKey, 'WaitIntentReceipt', {
        intentId,
        lastReceiptStates: first.json.receiptStates,
      });
      expect(same.json).toMatchObject({ done: false, receiptStates: first.json.receiptStates });
    }
    const waits = sim.requests().filter((e) => e.operation === 'WaitIntentReceipt');
    expect(waits).toHaveLength(4);
    // Each turn answered on its first look: no "hold" line in any trace.
    for (const w of waits) expect(w.trace?.map((line) => line.split(' ')[1])).toEqual(['answer']);
  });
});

describe('CLI flags', () => {
  it('--busy-per-hour, --busy-backfill-ms and --not-in-history start the modes', async () => {
    const child = spawn(
      'node',
      ['--import', 'tsx', 'simulator/cli.ts', '--busy-per-hour', '3600', '--busy-backfill-ms', '600000', '--not-in-history', '--demo', '2'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const ready = await new Promise<{ url: string; accessKey: string; intents: string[] }>((resolve) => {
        createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
      });
      const ids = await listed(ready.url, ready.accessKey, { fromTime: Math.floor(Date.now() / 1000) - 3600 });
      // 3 600 an hour over 10 minutes: about 600 (standard deviation about 25), and not the demo intents.
      expect(ids.length).toBeGreaterThan(480);
      expect(ids.length).toBeLessThan(720);
      expect(ids.filter((id) => ready.intents.includes(id))).toEqual([]);
      const receipt = await rpcAt<{ intentReceipt: { intentId: string } }>(ready.url, ready.accessKey, 'GetIntentReceipt', {
        intentId: ready.intents[0],
      });
      expect(receipt.json.intentReceipt.intentId).toBe(ready.intents[0]);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
