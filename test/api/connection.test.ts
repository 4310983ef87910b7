import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { testConnection } from '@/lib/api/connection';
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
