import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import {
  isKeyRejected,
  isNotFound,
  SvcAbortedError,
  SvcBadBodyError,
  SvcNetworkError,
  SvcServiceError,
  SvcTimeoutError,
} from '@/lib/api/errors';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
let client: SvcClient;
beforeAll(async () => {
  sim = await startSimulator({ waitTimeoutMs: 2000, stepMs: 60_000 });
  client = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
});
afterAll(() => sim.close());
beforeEach(() => sim.clearFaults());

describe('SvcClient against the simulator over HTTP', () => {
  it('reads a receipt (GetIntentReceipt)', async () => {
    const id = sim.createIntent('success');
    const r = await client.getIntentReceipt({ intentId: id });
    expect(r.intentReceipt.intentId).toBe(id);
    expect(r.intentReceipt.status).toBe('COMMITTED');
    expect(r.intentReceipt.summary?.originTokenAmount).toBe('250000000');
  });

  it('WaitIntentReceipt answers at once for new states, and with done:false after the wait time-out', async () => {
    const id = sim.createIntent('success');
    const first = await client.waitIntentReceipt({ intentId: id, lastReceiptStates: [] });
    expect(first.done).toBe(false);
    expect(first.receiptStates).toEqual(['UNKNOWN', 'UNKNOWN', 'UNKNOWN']);
    const t0 = Date.now();
    const second = await client.waitIntentReceipt({ intentId: id, lastReceiptStates: first.receiptStates ?? [] });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    expect(second.done).toBe(false);
  });

  it('maps a wrong key to SvcServiceError AccessKeyNotFound (1101, HTTP 401)', async () => {
    const bad = new SvcClient({ baseUrl: sim.url, accessKey: 'wrong-key' });
    const err = await bad.getIntentReceipt({ intentId: '0x1' }).catch((e) => e);
    expect(err).toBeInstanceOf(SvcServiceError);
    expect(err).toMatchObject({ errorName: 'AccessKeyNotFound', code: 1101, httpStatus: 401 });
    expect(isKeyRejected(err)).toBe(true);
  });

  it('maps an unknown intent to NotFound (8000, HTTP 400)', async () => {
    const err = await client.getIntentReceipt({ intentId: `0x${'9'.repeat(64)}` }).catch((e) => e);
    expect(err).toMatchObject({ errorName: 'NotFound', code: 8000, httpStatus: 400 });
    expect(isNotFound(err)).toBe(true);
  });

  it('maps an unknown operation to WebrpcBadRoute (-2)', async () => {
    const err = await client.call('NoSuchOperation', {}, (await import('zod')).z.unknown()).catch((e) => e);
    expect(err).toMatchObject({ errorName: 'WebrpcBadRoute', code: -2, httpStatus: 404 });
  });

  it('maps 500, HTML 502, malformed and empty bodies, 429 with Retry-After, and resets', async () => {
    const id = sim.createIntent('success');
    sim.injectFault({ kind: 'http500' });
    expect(await client.getIntentReceipt({ intentId: id }).catch((e) => e)).toMatchObject({ code: -7, httpStatus: 500 });
    sim.injectFault({ kind: 'html502' });
    const html = await client.getIntentReceipt({ intentId: id }).catch((e) => e);
    expect(html).toBeInstanceOf(SvcBadBodyError);
    expect(html.message).toContain('HTML page');
    expect(html.httpStatus).toBe(502);
    sim.injectFault({ kind: 'malformed' });
    expect(await client.getIntentReceipt({ intentId: id }).catch((e) => e)).toBeInstanceOf(SvcBadBodyError);
    sim.injectFault({ kind: 'empty' });
    const empty = await client.getIntentReceipt({ intentId: id }).catch((e) => e);
    expect(empty.message).toContain('empty body');
    sim.injectFault({ kind: 'rate-limit', retryAfterSeconds: 7 });
    expect(await client.getIntentReceipt({ intentId: id }).catch((e) => e)).toMatchObject({
      code: 1007,
      httpStatus: 429,
      retryAfterSeconds: 7,
    });
    sim.injectFault({ kind: 'reset' });
    expect(await client.getIntentReceipt({ intentId: id }).catch((e) => e)).toBeInstanceOf(SvcNetworkError);
  });

  it('times out, and tells a caller abort apart from a time-out', async () => {
    const id = sim.createIntent('success');
    sim.injectFault({ kind: 'latency', ms: 1500 });
    const slow = await client.getIntentReceipt({ intentId: id }, { timeoutMs: 200 }).catch((e) => e);
    expect(slow).toBeInstanceOf(SvcTimeoutError);
    const controller = new AbortController();
    sim.injectFault({ kind: 'latency', ms: 1500 });
    const pending = client.getIntentReceipt({ intentId: id }, { signal: controller.signal }).catch((e) => e);
    controller.abort();
    expect(await pending).toBeInstanceOf(SvcAbortedError);
  });

  it('reports a closed port as a network error', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const err = await new SvcClient({ baseUrl: `http://127.0.0.1:${port}`, accessKey: 'k' })
      .getIntentReceipt({ intentId: '0x1' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(SvcNetworkError);
  });

  it('names the field of a response that fails validation', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ intentReceipt: { intentId: '0x1', status: 'SUCCEEDED', originTransaction: { chainId: 'one' } } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const err = await new SvcClient({ baseUrl: `http://127.0.0.1:${port}`, accessKey: 'k' })
      .getIntentReceipt({ intentId: '0x1' })
      .catch((e) => e);
    await new Promise((r) => server.close(r));
    expect(err.kind).toBe('validation');
    expect(err.path).toBe('intentReceipt.originTransaction.chainId');
  });

  it('accepts the wrapped webrpcError body and never puts the key in an error message', async () => {
    const key = 'secret-key-123';
    const server = createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ webrpcError: { code: 1103, name: 'InvalidOrigin', message: `key ${key} not allowed`, httpStatus: 403 } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const err = await new SvcClient({ baseUrl: `http://127.0.0.1:${port}`, accessKey: key })
      .getIntentReceipt({ intentId: '0x1' })
      .catch((e) => e);
    await new Promise((r) => server.close(r));
    expect(err).toMatchObject({ errorName: 'InvalidOrigin', code: 1103, httpStatus: 403 });
    expect(err.message).not.toContain(key);
    expect(err.message).toContain('[redacted]');
  });

  it('sends Content-Type and X-Access-Key on every call (the simulator accepts them)', async () => {
    const id = sim.createIntent('failure');
    await client.getIntentReceipt({ intentId: id });
    const logged = sim.requests().filter((r) => r.intentId === id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ operation: 'GetIntentReceipt', status: 200, outcome: 'answered' });
  });
});
