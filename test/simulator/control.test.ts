/** The simulator's control API, over HTTP as tests and the demo use it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peakConcurrency, type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: false });
});
afterAll(() => sim.close());

const post = async (path: string, body: unknown, key?: string) => {
  const res = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key ? { 'X-Access-Key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
};

describe('control API', () => {
  it('creates intents by scenario, logs requests, moves the clock and injects faults per operation', async () => {
    const { intentId } = JSON.parse((await post('/control/intents', { scenario: 'stuck', stepMs: 50 })).text) as { intentId: string };
    expect(intentId).toMatch(/^0x[0-9a-f]{64}$/);
    const ok = await post('/rpc/Svc/GetIntentReceipt', { intentId }, sim.accessKey);
    expect(ok.status).toBe(200);

    await post('/control/faults', { operation: 'GetIntentReceipt', fault: { kind: 'html502' }, count: 2 });
    const f1 = await post('/rpc/Svc/GetIntentReceipt', { intentId }, sim.accessKey);
    const f2 = await post('/rpc/Svc/GetIntentReceipt', { intentId }, sim.accessKey);
    const f3 = await post('/rpc/Svc/GetIntentReceipt', { intentId }, sim.accessKey);
    expect([f1.status, f2.status, f3.status]).toEqual([502, 502, 200]);
    expect(f1.text).toContain('<html>');

    await post('/control/faults', { operation: 'WaitIntentReceipt', fault: { kind: 'rate-limit', retryAfterSeconds: 3 } });
    const other = await post('/rpc/Svc/GetIntentReceipt', { intentId }, sim.accessKey);
    expect(other.status).toBe(200);
    const limited = await post('/rpc/Svc/WaitIntentReceipt', { intentId, lastReceiptStates: [] }, sim.accessKey);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(JSON.parse(limited.text)).toMatchObject({ error: 'RateLimited', code: 1007, status: 429 });

    const before = sim.now();
    const { now } = JSON.parse((await post('/control/clock', { advanceMs: 60_000 })).text) as { now: number };
    expect(now - before).toBeGreaterThanOrEqual(60_000);

    await post('/control/wait-timeout', { ms: 50 });
    const t0 = Date.now();
    const first = JSON.parse((await post('/rpc/Svc/WaitIntentReceipt', { intentId, lastReceiptStates: [] }, sim.accessKey)).text);
    const held = await post('/rpc/Svc/WaitIntentReceipt', { intentId, lastReceiptStates: first.receiptStates }, sim.accessKey);
    expect(JSON.parse(held.text).done).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2000);

    const log = JSON.parse(await (await fetch(`${sim.url}/control/requests`)).text()) as Array<{ operation: string; status: number }>;
    expect(log.map((e) => e.status)).toEqual([200, 502, 502, 200, 200, 429, 200, 200]);
  });

  it('refuses an unknown scenario', async () => {
    const res = await post('/control/intents', { scenario: 'teleport' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('unknown scenario teleport');
  });
});

describe('peakConcurrency', () => {
  it('counts the most requests open at once; one that ends as another starts does not overlap it; an open one runs on', () => {
    const e = (start: number, end?: number) => ({ operation: 'WaitIntentReceipt', start, ...(end !== undefined ? { end } : {}) });
    expect(peakConcurrency([])).toBe(0);
    expect(peakConcurrency([e(0, 10), e(10, 20), e(20, 30)])).toBe(1);
    expect(peakConcurrency([e(0, 10), e(5, 15), e(6, 7), e(12, 20)])).toBe(3);
    expect(peakConcurrency([e(0), e(100, 110), e(200, 210)])).toBe(2);
  });
});
