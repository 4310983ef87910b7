/**
 * The access key goes only to the configured service origin: every call is built from the base URL, redirects are
 * refused (they would carry the key elsewhere), URLs inside answers are never fetched, and the key never shows in
 * an error.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
const elsewhere: Array<{ url?: string; headers: IncomingHttpHeaders }> = [];
const other = createServer((req, res) => {
  elsewhere.push({ url: req.url, headers: req.headers });
  res.end('{}');
});
let otherUrl: string;
beforeAll(async () => {
  sim = await startSimulator();
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim.close();
  await new Promise((r) => other.close(r));
});

describe('access key confinement', () => {
  it('sends every call, with the key, to the configured origin only — never to URLs found in answers', async () => {
    const seen: string[] = [];
    const api = new SvcClient({
      baseUrl: sim.url,
      accessKey: sim.accessKey,
      fetch: (input, init) => {
        seen.push(String(input));
        expect(new Headers(init?.headers).get('x-access-key')).toBe(sim.accessKey);
        return fetch(input, init);
      },
    });
    const routes = await api.getExactOutputRoutes({
      destinationChainId: 8453,
      destinationTokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    });
    expect(routes.tokens.some((t) => t.logoUri?.startsWith('https://'))).toBe(true);
    await api.getIntentHistory({ page: { pageSize: 5 } });
    await api.searchIntents({ byQueryString: '0x' });
    expect(seen.length).toBe(3);
    for (const url of seen) expect(new URL(url).origin).toBe(new URL(sim.url).origin);
    expect(elsewhere).toHaveLength(0);
  });

  it('refuses a redirect to another origin, so the key does not follow it', async () => {
    const redirecting = createServer((_req, res) => {
      res.writeHead(307, { location: `${otherUrl}/rpc/Svc/GetIntentReceipt` });
      res.end();
    });
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
    const err = await new SvcClient({ baseUrl: url, accessKey: 'super-secret-key' }).getIntentReceipt({ intentId: '0x1' }).catch((e) => e);
    await new Promise((r) => redirecting.close(r));
    expect(err.kind).toBe('network');
    expect(err.message).not.toContain('super-secret-key');
    expect(elsewhere.filter((e) => e.headers['x-access-key'])).toHaveLength(0);
  });
});
