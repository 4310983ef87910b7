/**
 * SvcReadClient: each operation is POSTed to `/rpc/Svc/<Operation>` with the request the caller gave (spec §1), a
 * request its schema refuses is never sent (SvcValidationError naming the operation and the field), and rows of a
 * list answer that are set aside are logged with the operation.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { SvcValidationError } from '@/lib/api/errors';
import type { SvcReadClient } from '@/lib/api/read-client';

interface Sent {
  path: string;
  body: unknown;
}

/** A client whose fetch records each request and answers `answer` (HTTP 200, JSON). */
function clientAnswering(answer: unknown) {
  const sent: Sent[] = [];
  const client = new SvcClient({
    baseUrl: 'https://svc.example',
    accessKey: 'k',
    fetch: async (input, init) => {
      sent.push({ path: new URL(String(input)).pathname, body: JSON.parse(String(init?.body)) });
      return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, sent };
}

afterEach(() => vi.restoreAllMocks());

describe('SvcReadClient sends each operation to its route with the request given', () => {
  it('WaitIntentReceipt without lastReceiptStates sends an empty list (spec: "may be empty")', async () => {
    const { client, sent } = clientAnswering({ intentReceipt: null, receiptStates: [], done: false });
    await client.waitIntentReceipt({ intentId: '0xab' }).catch(() => undefined);
    expect(sent).toEqual([{ path: '/rpc/Svc/WaitIntentReceipt', body: { intentId: '0xab', lastReceiptStates: [] } }]);
  });

  it('GetIntentHistory read lightly goes to GetIntentHistory', async () => {
    const { client, sent } = clientAnswering({ intents: [] });
    const page = { pageSize: 10, column: 'createdAt' as const };
    expect((await client.getIntentHistoryLite({ byOwnerAddress: '0x1', page })).intents).toEqual([]);
    expect(sent).toEqual([{ path: '/rpc/Svc/GetIntentHistory', body: { byOwnerAddress: '0x1', page } }]);
  });

  it('a search by transaction hash is SearchIntents with byTransactionHash', async () => {
    const { client, sent } = clientAnswering({ intents: [{ intentId: '0xab' }] });
    expect((await client.searchByTransactionHash('0xfeed')).intents.map((r) => r.intentId)).toEqual(['0xab']);
    expect(sent).toEqual([{ path: '/rpc/Svc/SearchIntents', body: { byTransactionHash: '0xfeed' } }]);
  });

  it('SearchIntents goes to SearchIntents', async () => {
    const { client, sent } = clientAnswering({ intents: [] });
    await client.searchIntents({ byOwnerAddress: '0x1' });
    expect(sent).toEqual([{ path: '/rpc/Svc/SearchIntents', body: { byOwnerAddress: '0x1' } }]);
  });
});

describe('a request its schema refuses is not sent', () => {
  const cases: Array<[string, (c: SvcReadClient) => Promise<unknown>]> = [
    ['GetIntentHistory', (c) => c.getIntentHistory({ byProjectId: 'x' as unknown as number })],
    ['SearchIntents', (c) => c.searchIntents({ byProjectId: 'x' as unknown as number })],
    [
      'GetExactOutputRoutes',
      (c) => c.getExactOutputRoutes({ destinationChainId: 'x' as unknown as number, destinationTokenAddress: '0x' }),
    ],
    ['GetTokenPrices', (c) => c.getTokenPrices({ tokens: 'x' as unknown as [] })],
    ['GetIntent', (c) => c.getIntent({ intentId: 5 as unknown as string })],
    // SvcClient's operations that create intents are checked the same way.
    ['QuoteIntent', (c) => (c as SvcClient).quoteIntent({ ownerAddress: 5 } as never)],
    ['ExecuteIntent', (c) => (c as SvcClient).executeIntent({ intentId: 5 } as never)],
  ];
  for (const [operation, call] of cases) {
    it(`${operation}: SvcValidationError naming ${operation}, nothing sent`, async () => {
      const { client, sent } = clientAnswering({});
      const err = (await call(client).catch((e) => e)) as SvcValidationError;
      expect(err).toBeInstanceOf(SvcValidationError);
      expect(err.operation).toBe(operation);
      expect(err.path.startsWith('request.')).toBe(true);
      expect(err.message).toContain(`${operation} was not sent`);
      expect(sent).toEqual([]);
    });
  }

  it('names a nested field by its dotted path', async () => {
    const { client } = clientAnswering({});
    const err = await client.getTokenPrices({ tokens: [{ chainId: 'one' as unknown as number, tokenAddress: '0x' }] }).catch((e) => e);
    expect(err.path).toBe('request.tokens.0.chainId');
    expect(err.message).toContain('tokens.0.chainId is invalid');
  });
});

describe('rows set aside are logged with the operation, the others used', () => {
  const lists: Array<[string, (c: SvcReadClient) => Promise<{ intents: unknown[] }>]> = [
    ['GetIntentHistory', (c) => c.getIntentHistory()],
    ['GetIntentHistory', (c) => c.getIntentHistoryLite({ page: { pageSize: 5 } })],
    ['SearchIntents', (c) => c.searchIntents({ byOwnerAddress: '0x1' })],
    ['SearchIntents', (c) => c.searchByTransactionHash('0xfeed')],
  ];
  for (const [operation, call] of lists) {
    it(`${operation}: one row set aside is logged, none logs nothing`, async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const bad = clientAnswering({ intents: [42] });
      expect((await call(bad.client)).intents).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain(operation);
      expect(String(warn.mock.calls[0]?.[0])).toContain('1 row');
      warn.mockClear();
      await call(clientAnswering({ intents: [] }).client);
      expect(warn).not.toHaveBeenCalled();
    });
  }
});
