import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { classifyConnectionError, testConnection } from '@/lib/api/connection';
import { SvcAbortedError, SvcBadBodyError, SvcNetworkError, SvcServiceError, SvcTimeoutError, SvcValidationError } from '@/lib/api/errors';
import { SvcReadClient } from '@/lib/api/read-client';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const probe = (baseUrl: string, accessKey: string) => testConnection(new SvcClient({ baseUrl, accessKey }), 3000);

describe('Test connection', () => {
  it('says OK when the service answers and accepts the key', async () => {
    expect((await probe(sim.url, sim.accessKey)).kind).toBe('ok');
  });
  it('says the key was rejected (1101)', async () => {
    const r = await probe(sim.url, 'not-a-key');
    expect(r.kind).toBe('key-rejected');
    expect(r.message).toContain('1101');
  });
  it('says the key is not allowed from this origin (1103)', async () => {
    expect((await probe(sim.url, sim.restrictedAccessKey)).kind).toBe('origin-rejected');
  });
  it('says not reachable for a closed port', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    expect((await probe(`http://127.0.0.1:${port}`, 'k')).kind).toBe('unreachable');
  });
  it('says "not the service" for a web server that answers with HTML', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const r = await probe(`http://127.0.0.1:${port}`, 'k');
    await new Promise((res) => server.close(res));
    expect(r.kind).toBe('not-service');
  });
});

describe('classifyConnectionError: the answer shown for each failure of the probe', () => {
  const url = 'https://svc.example';
  const serviceError = (errorName: string, code: number, httpStatus: number) =>
    new SvcServiceError('GetIntentReceipt', { errorName, code, msg: 'the service says why', httpStatus });

  it('NotFound (8000) for the probe is OK, the same sentence as a receipt answered', async () => {
    const notFound = classifyConnectionError(serviceError('NotFound', 8000, 400), url);
    expect(notFound.kind).toBe('ok');
    expect(notFound.message).not.toBe('');
    const answered = { baseUrl: url, getIntentReceipt: async () => ({ intentReceipt: {} }) } as unknown as SvcReadClient;
    expect(await testConnection(answered)).toEqual(notFound);
  });

  it('the probe uses the time-out it is given (milliseconds), not the client default', async () => {
    const hanging = new SvcReadClient({
      baseUrl: url,
      accessKey: 'k',
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    });
    const r = await testConnection(hanging, 50);
    expect(r.kind).toBe('unreachable');
    expect(r.message).toContain(url);
  });

  it('InvalidOrigin (1103) has a sentence of its own', () => {
    const r = classifyConnectionError(serviceError('InvalidOrigin', 1103, 403), url);
    expect(r.kind).toBe('origin-rejected');
    expect(r.message).not.toBe('');
  });

  it('WebrpcBadRoute (-2) and WebrpcBadMethod (-3): something answered at the URL but not the service', () => {
    for (const [name, code, status] of [
      ['WebrpcBadRoute', -2, 404],
      ['WebrpcBadMethod', -3, 405],
    ] as const) {
      const r = classifyConnectionError(serviceError(name, code, status), url);
      expect(r.kind).toBe('not-service');
      expect(r.message).toContain(url);
      expect(r.message).toContain(name);
    }
  });

  it('another service error, listed or not, is shown with what the service said', () => {
    for (const [name, code, status] of [
      ['WebrpcBadRequest', -4, 400],
      ['Unavailable', 2002, 400],
      ['WebrpcEndpoint', 0, 400],
      // Codes the spec does not list (2, 3: not -2, -3) are not taken for a missing route.
      ['Unlisted', 2, 400],
      ['Unlisted', 3, 400],
    ] as const) {
      const r = classifyConnectionError(serviceError(name, code, status), url);
      expect(r.kind).toBe('service-error');
      expect(r.message).toContain('the service says why');
    }
  });

  it('nothing answered and no answer in time are both unreachable, said differently, with the URL', () => {
    const network = classifyConnectionError(new SvcNetworkError('GetIntentReceipt', url, 'refused'), url);
    const timeout = classifyConnectionError(new SvcTimeoutError('GetIntentReceipt', 10_000), url);
    expect(network.kind).toBe('unreachable');
    expect(timeout.kind).toBe('unreachable');
    expect(network.message).toContain(url);
    expect(timeout.message).toContain(url);
    expect(network.message).not.toBe(timeout.message);
  });

  it('an answer that is not the service JSON, or not its shape, is "not the service", with the reason', () => {
    const bad = new SvcBadBodyError('GetIntentReceipt', 200, 'an HTML page', '<html>');
    const shape = new SvcValidationError('GetIntentReceipt', 'intentReceipt', 'expected an object');
    for (const err of [bad, shape]) {
      const r = classifyConnectionError(err, url);
      expect(r.kind).toBe('not-service');
      expect(r.message).toContain(url);
      expect(r.message).toContain(err.message);
    }
  });

  it('a cancelled probe is a service error with its message', () => {
    const err = new SvcAbortedError('GetIntentReceipt');
    expect(classifyConnectionError(err, url)).toEqual({ kind: 'service-error', message: err.message });
  });

  it('never throws, whatever was thrown, and says what it was', () => {
    expect(classifyConnectionError(new Error('boom'), url).message).toContain('boom');
    expect(classifyConnectionError('a string thrown', url)).toMatchObject({ kind: 'service-error' });
    expect(classifyConnectionError('a string thrown', url).message).toContain('a string thrown');
    for (const thrown of [undefined, null]) expect(classifyConnectionError(thrown, url).kind).toBe('service-error');
  });
});
