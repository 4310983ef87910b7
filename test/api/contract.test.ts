/**
 * Contract suite: the whole client (SvcClient) against the simulator over real HTTP — every operation, every filter,
 * pagination over the whole data set, and the error paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { SvcServiceError } from '@/lib/api/errors';
import { iterateIntentHistory } from '@/lib/api/history-pages';
import { LEG_KINDS, legOf } from '@/lib/api/legs';
import type { IntentHistory } from '@/lib/api/schemas/history';
import { INTENT_STATUSES } from '@/lib/api/status';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
let api: SvcClient;
let all: IntentHistory[];

beforeAll(async () => {
  sim = await startSimulator({ waitTimeoutMs: 1000 });
  api = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
  all = [];
  for await (const h of iterateIntentHistory(api, { page: { pageSize: 100 } })) all.push(h);
});
afterAll(() => sim.close());

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as SvcServiceError,
  );
const ids = (rows: Array<{ intentId: string }>) => rows.map((r) => r.intentId);
const collect = async (request: Parameters<typeof iterateIntentHistory>[1], limits?: Parameters<typeof iterateIntentHistory>[2]) => {
  const out: IntentHistory[] = [];
  for await (const h of iterateIntentHistory(api, request, limits)) out.push(h);
  return out;
};

describe('data set', () => {
  it('is large and varied: ≥300 intents, ≥3 projects, ≥20 owners, ≥6 chains', () => {
    expect(all.length).toBeGreaterThanOrEqual(300);
    const receipts = all.map((h) => h.receipt!);
    expect(new Set(receipts.map((r) => r.projectId)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(receipts.map((r) => r.ownerAddress)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(receipts.flatMap((r) => [r.originChainId, r.destinationChainId])).size).toBeGreaterThanOrEqual(6);
  });

  it('holds every IntentStatus and every deployed TransactionStatus, same-chain and cross-chain, refunds, reasons', () => {
    expect(new Set(all.map((h) => h.status))).toEqual(new Set(INTENT_STATUSES));
    const legStatuses = new Set(all.flatMap((h) => LEG_KINDS.map((k) => legOf(h.receipt!, k)?.status).filter(Boolean)));
    for (const s of [
      'UNKNOWN',
      'ON_HOLD',
      'PENDING',
      'RELAYING',
      'SENT',
      'ERRORED',
      'MINING',
      'SUCCEEDED',
      'FAILED',
      'ABORTED',
      'REVERTED',
    ]) {
      expect(legStatuses, s).toContain(s);
    }
    const receipts = all.map((h) => h.receipt!);
    expect(receipts.some((r) => r.originChainId === r.destinationChainId)).toBe(true);
    expect(receipts.some((r) => r.originChainId !== r.destinationChainId)).toBe(true);
    expect(receipts.some((r) => r.status === 'REFUNDED' && r.refundTransaction?.status === 'SUCCEEDED')).toBe(true);
    expect(receipts.filter((r) => r.status === 'FAILED').every((r) => LEG_KINDS.some((k) => legOf(r, k)?.statusReason))).toBe(true);
    expect(receipts.some((r) => r.summary?.originTokenMetadata?.symbol === 'USDC' && r.summary.originTokenMetadata.decimals === 6)).toBe(
      true,
    );
    expect(receipts.some((r) => r.summary?.originTokenMetadata?.symbol === 'ETH' && r.summary.originTokenMetadata.decimals === 18)).toBe(
      true,
    );
  });

  it('is the same on every start (fixed seed)', async () => {
    const again = await startSimulator();
    try {
      const first = await new SvcClient({ baseUrl: again.url, accessKey: again.accessKey }).getIntentHistory({ page: { pageSize: 5 } });
      expect(ids(first.intents)).toEqual(ids(all.slice(0, 5)));
    } finally {
      await again.close();
    }
  });
});

describe('GetIntentHistory', () => {
  it('pages through the whole data set newest first, each intent exactly once, in order', () => {
    expect(new Set(ids(all)).size).toBe(all.length);
    const numeric = all.map((h) => h.receipt!.id!);
    expect(numeric).toEqual([...numeric].sort((a, b) => b - a));
  });

  it('uses 20 as the default page size and clamps a larger one to 100, saying so in nextPage', async () => {
    const first = await api.getIntentHistory();
    expect(first.intents).toHaveLength(20);
    expect(first.nextPage).toMatchObject({ column: 'id', pageSize: 20, more: true });
    const big = await api.getIntentHistory({ page: { pageSize: 500 } });
    expect(big.intents).toHaveLength(100);
    expect(big.nextPage?.pageSize).toBe(100);
  });

  it('pages on createdAt ascending as well, every intent once in time order', async () => {
    const rows = await collect({ page: { column: 'createdAt', sort: [{ column: 'createdAt', order: 'ASC' }], pageSize: 37 } });
    expect(rows).toHaveLength(all.length);
    const times = rows.map((r) => Date.parse(r.createdAt!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(ids(rows))).toEqual(new Set(ids(all)));
  });

  it('goes back a page with `before`', async () => {
    const p1 = await api.getIntentHistory({ page: { pageSize: 10 } });
    const p2 = await api.getIntentHistory({ page: { pageSize: 10, after: p1.nextPage!.after! } });
    const back = await api.getIntentHistory({ page: { pageSize: 10, before: p2.intents[0]!.receipt!.id! } });
    expect(ids(back.intents)).toEqual(ids(p1.intents));
  });

  it('skips and repeats nothing while new intents arrive between pages', async () => {
    const own = await startSimulator();
    try {
      const ownApi = new SvcClient({ baseUrl: own.url, accessKey: own.accessKey });
      const seen: string[] = [];
      let created = 0;
      for await (const h of iterateIntentHistory(ownApi, { page: { pageSize: 25 } })) {
        seen.push(h.intentId);
        if (seen.length % 25 === 0 && created < 5) {
          own.createIntent('success');
          created++;
        }
      }
      expect(created).toBe(5);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(ids(all));
    } finally {
      await own.close();
    }
  });

  it('filters by status, and byStatuses takes precedence over byStatus', async () => {
    const failed = await collect({ byStatus: 'FAILED' });
    expect(failed.length).toBe(all.filter((h) => h.status === 'FAILED').length);
    expect(failed.every((h) => h.status === 'FAILED')).toBe(true);
    const two = await collect({ byStatus: 'FAILED', byStatuses: ['REFUNDED', 'ABORTED'] });
    expect(two.length).toBe(all.filter((h) => h.status === 'REFUNDED' || h.status === 'ABORTED').length);
    expect(new Set(two.map((h) => h.status))).toEqual(new Set(['REFUNDED', 'ABORTED']));
  });

  it('filters by project, owner, chains and tokens', async () => {
    const sample = all[40]!.receipt!;
    const cases: Array<[Parameters<typeof collect>[0], (h: IntentHistory) => boolean]> = [
      [{ byProjectId: 2 }, (h) => h.receipt!.projectId === 2],
      [{ byOwnerAddress: sample.ownerAddress!.toUpperCase().replace('0X', '0x') }, (h) => h.receipt!.ownerAddress === sample.ownerAddress],
      [{ originChainId: 42161 }, (h) => h.receipt!.originChainId === 42161],
      [{ destinationChainId: 8453 }, (h) => h.receipt!.destinationChainId === 8453],
      [
        { originTokenAddress: sample.summary!.originTokenAddress! },
        (h) => h.receipt!.summary!.originTokenAddress!.toLowerCase() === sample.summary!.originTokenAddress!.toLowerCase(),
      ],
      [
        { destinationTokenAddress: sample.summary!.destinationTokenAddress!, destinationChainId: sample.destinationChainId! },
        (h) =>
          h.receipt!.destinationChainId === sample.destinationChainId &&
          h.receipt!.summary!.destinationTokenAddress!.toLowerCase() === sample.summary!.destinationTokenAddress!.toLowerCase(),
      ],
    ];
    for (const [request, predicate] of cases) {
      const rows = await collect(request);
      const expected = all.filter(predicate);
      expect(expected.length, JSON.stringify(request)).toBeGreaterThan(0);
      expect(ids(rows), JSON.stringify(request)).toEqual(ids(expected));
    }
  });

  it('takes fromTime/toTime as inclusive Unix seconds on createdAt', async () => {
    const pivot = all[100]!;
    const t = Math.floor(Date.parse(pivot.createdAt!) / 1000);
    const from = await collect({ fromTime: t });
    const to = await collect({ toTime: t });
    const sec = (h: IntentHistory) => Math.floor(Date.parse(h.createdAt!) / 1000);
    expect(ids(from)).toEqual(ids(all.filter((h) => sec(h) >= t)));
    expect(ids(to)).toEqual(ids(all.filter((h) => sec(h) <= t)));
    expect(ids(from)).toContain(pivot.intentId);
    expect(ids(to)).toContain(pivot.intentId);
  });

  it('fills balances with includeBalances, and onlyRecoverable keeps terminal intents with funds left', async () => {
    const withBalances = await collect({ includeBalances: true });
    expect(withBalances.every((h) => typeof h.hasBalance === 'boolean')).toBe(true);
    const holding = withBalances.filter((h) => h.hasBalance);
    expect(holding.length).toBeGreaterThan(0);
    for (const h of holding) {
      const token = h.balances![0]!.tokens![0]!;
      expect(BigInt(token.balance!)).toBeGreaterThan(0n);
      expect(token.symbol).toBeTruthy();
    }
    const recoverable = await collect({ onlyRecoverable: true, includeBalances: true });
    const terminal = ['SUCCEEDED', 'FAILED', 'ABORTED', 'REFUNDED', 'INVALID'];
    expect(ids(recoverable)).toEqual(ids(holding.filter((h) => terminal.includes(h.status))));
    expect(recoverable.length).toBeGreaterThan(0);
    expect(holding.some((h) => !terminal.includes(h.status))).toBe(true);
  });

  it('stops at the page and item caps', async () => {
    expect(await collect({ page: { pageSize: 10 } }, { maxPages: 3 })).toHaveLength(30);
    expect(await collect({ page: { pageSize: 10 } }, { maxItems: 15 })).toHaveLength(15);
  });

  it('rejects a bad page column with InvalidArgument (2000)', async () => {
    expect(await errorOf(api.getIntentHistory({ page: { column: 'owner' } }))).toMatchObject({ code: 2000, httpStatus: 400 });
  });
});

describe('SearchIntents', () => {
  const sample = () =>
    all.find((h) => h.receipt!.destinationTransaction?.txnHash && !/0{10,}$/.test(h.receipt!.destinationTransaction.txnHash))!;

  it('finds by intentId, project and owner (AND)', async () => {
    const s = sample();
    const byId = await api.searchIntents({ byIntentId: s.intentId });
    expect(ids(byId.intents)).toEqual([s.intentId]);
    expect(byId.intents[0]!.quote?.fromAmount).toBe(s.receipt!.summary!.originTokenAmount);
    const both = await api.searchIntents({ byOwnerAddress: s.receipt!.ownerAddress!, byProjectId: s.receipt!.projectId! });
    expect(ids(both.intents)).toEqual(
      ids(all.filter((h) => h.receipt!.ownerAddress === s.receipt!.ownerAddress && h.receipt!.projectId === s.receipt!.projectId)),
    );
    const none = await api.searchIntents({ byIntentId: s.intentId, byProjectId: 99 });
    expect(none.intents).toHaveLength(0);
  });

  it('finds by the hash of any leg, and accepts the older byDepositTransactionHash', async () => {
    const s = sample();
    const dest = await api.searchIntents({ byTransactionHash: s.receipt!.destinationTransaction!.txnHash! });
    expect(ids(dest.intents)).toEqual([s.intentId]);
    const dep = await api.call(
      'SearchIntents',
      { byDepositTransactionHash: s.receipt!.depositTransaction!.txnHash! },
      (await import('@/lib/api/schemas/intent')).SearchIntentsResponse,
    );
    expect(ids(dep.intents)).toEqual([s.intentId]);
  });

  it('finds by intent addresses and by query-string prefix, case-insensitively', async () => {
    const s = sample();
    const address = s.receipt!.summary!.originIntentAddress!;
    expect(ids((await api.searchIntents({ byOriginIntentAddress: address.toUpperCase().replace('0X', '0x') })).intents)).toEqual([
      s.intentId,
    ]);
    expect(ids((await api.searchIntents({ byDestinationIntentAddress: address })).intents)).toEqual([s.intentId]);
    const prefix = s.intentId.slice(0, 12).toUpperCase().replace('0X', '0x');
    expect(ids((await api.searchIntents({ byQueryString: prefix })).intents)).toContain(s.intentId);
    const owner = s.receipt!.ownerAddress!;
    const byOwnerPrefix = await api.searchIntents({ byQueryString: owner.slice(0, 10) });
    expect(ids(byOwnerPrefix.intents)).toEqual(expect.arrayContaining(ids(all.filter((h) => h.receipt!.ownerAddress === owner))));
  });

  it('answers InvalidArgument (2000) without any filter', async () => {
    expect(await errorOf(api.searchIntents({}))).toMatchObject({ errorName: 'InvalidArgument', code: 2000, httpStatus: 400 });
  });
});

describe('QuoteIntent → CommitIntent → ExecuteIntent', () => {
  const request = {
    ownerAddress: '0x1111111111111111111111111111111111111111',
    originChainId: 42161,
    originTokenAddress: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    destinationChainId: 8453,
    destinationTokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    originTokenAmount: '100000000',
  };

  it('quotes, commits the intent exactly as quoted, executes it, and the receipt moves on', async () => {
    const quote = await api.quoteIntent(request);
    expect(quote.intent.status).toBe('QUOTED');
    expect(quote.intent.quote?.fromAmount).toBe('100000000');
    expect(BigInt(quote.intent.quote!.toAmount!)).toBeLessThan(100000000n);
    const committed = await api.commitIntent(quote.quoted);
    expect(committed.intentId).toBe(quote.intent.intentId);
    expect((await api.getIntent({ intentId: committed.intentId })).intent.status).toBe('COMMITTED');
    const executed = await api.executeIntent({ intentId: committed.intentId, depositTransactionHash: `0x${'7'.repeat(64)}` });
    expect(executed).toEqual({ intentId: committed.intentId, intentStatus: 'EXECUTING' });
    const receipt = await api.getIntentReceipt({ intentId: committed.intentId });
    expect(receipt.intentReceipt.status).toBe('EXECUTING');
  });

  it('quotes an exact output amount', async () => {
    const quote = await api.quoteIntent({
      ...request,
      originTokenAmount: undefined,
      destinationTokenAmount: '50000000',
      tradeType: 'EXACT_OUTPUT',
    });
    expect(quote.intent.quote?.toAmount).toBe('50000000');
    expect(BigInt(quote.intent.quote!.fromAmount!)).toBeGreaterThan(50000000n);
  });

  it('rejects a modified intent, naming the field (InvalidArgument 2000), and a second commit (IntentStatus 2004)', async () => {
    const quote = await api.quoteIntent(request);
    const tampered = {
      ...quote.quoted,
      wire: quote.quoted.wire.replace(`"toAmount":"${quote.intent.quote!.toAmount}"`, '"toAmount":"999999999"'),
    };
    expect(tampered.wire).not.toBe(quote.quoted.wire);
    const err = await errorOf(api.commitIntent(tampered));
    expect(err).toMatchObject({ code: 2000 });
    expect(err?.msg).toContain('quote.toAmount');
    await api.commitIntent(quote.quoted);
    expect(await errorOf(api.commitIntent(quote.quoted))).toMatchObject({ errorName: 'IntentStatus', code: 2004, httpStatus: 422 });
  });

  it('fails ExecuteIntent more than 10 minutes after the commit with QuoteExpired (7001)', async () => {
    const quote = await api.quoteIntent(request);
    await api.commitIntent(quote.quoted);
    sim.advanceClock(10 * 60_000 + 1000);
    expect(await errorOf(api.executeIntent({ intentId: quote.intent.intentId }))).toMatchObject({ errorName: 'QuoteExpired', code: 7001 });
  });

  it('rejects an unsupported chain (8008) and an unknown token (2000)', async () => {
    expect(await errorOf(api.quoteIntent({ ...request, originChainId: 31337 }))).toMatchObject({ code: 8008 });
    expect(await errorOf(api.quoteIntent({ ...request, originTokenAddress: `0x${'9'.repeat(40)}` }))).toMatchObject({ code: 2000 });
  });
});

describe('GetExactOutputRoutes and GetTokenPrices', () => {
  const usdcBase = { destinationChainId: 8453, destinationTokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' };

  it('lists featured tokens first by featureIndex, filters by origin chain and token', async () => {
    const { tokens } = await api.getExactOutputRoutes(usdcBase);
    expect(tokens.length).toBeGreaterThan(5);
    const firstPlain = tokens.findIndex((t) => !t.featured);
    expect(tokens.slice(firstPlain).every((t) => !t.featured)).toBe(true);
    const featured = tokens.slice(0, firstPlain).map((t) => t.featureIndex);
    expect(featured).toEqual([...featured].sort((a, b) => a - b));
    const arbitrum = await api.getExactOutputRoutes({ ...usdcBase, originChainId: 42161 });
    expect(arbitrum.tokens.length).toBeGreaterThan(0);
    expect(arbitrum.tokens.every((t) => t.chainId === 42161)).toBe(true);
    const one = await api.getExactOutputRoutes({
      ...usdcBase,
      originChainId: 42161,
      originTokenAddress: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
    });
    expect(one.tokens.map((t) => t.symbol)).toEqual(['USDC']);
  });

  it('answers an empty list for an unknown destination token', async () => {
    expect((await api.getExactOutputRoutes({ destinationChainId: 8453, destinationTokenAddress: `0x${'5'.repeat(40)}` })).tokens).toEqual(
      [],
    );
  });

  it('prices known tokens and leaves unknown ones without a price', async () => {
    const { tokenPrices } = await api.getTokenPrices({
      tokens: [
        { chainId: 8453, tokenAddress: usdcBase.destinationTokenAddress },
        { chainId: 8453, tokenAddress: `0x${'5'.repeat(40)}` },
      ],
    });
    expect(tokenPrices[0]!.priceUsd).toBe(1);
    expect(tokenPrices[1]!.priceUsd).toBeUndefined();
  });
});

describe('scenarios and error paths', () => {
  it('runs refund, stuck and not-found-until-later lifecycles', async () => {
    const refund = sim.createIntent('refund', 100);
    const stuck = sim.createIntent('stuck', 100);
    const later = sim.createIntent('not-found-until-later', 200);
    expect(await errorOf(api.getIntentReceipt({ intentId: later }))).toMatchObject({ code: 8000 });
    await new Promise((r) => setTimeout(r, 700));
    const r = (await api.getIntentReceipt({ intentId: refund })).intentReceipt;
    expect(r.status).toBe('REFUNDED');
    expect(r.refundTransaction?.status).toBe('SUCCEEDED');
    expect(r.originTransaction?.statusReason).toBeTruthy();
    expect((await api.getIntentReceipt({ intentId: stuck })).intentReceipt.status).toBe('EXECUTING');
    expect((await api.getIntentReceipt({ intentId: later })).intentReceipt.intentId).toBe(later);
  });

  it('answers every operation with the Webrpc header, and a wrong key with AccessKeyNotFound on each', async () => {
    const res = await fetch(`${sim.url}/rpc/Svc/GetTokenPrices`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Access-Key': sim.accessKey },
      body: '{"tokens":[]}',
    });
    expect(res.headers.get('webrpc')).toMatch(/^webrpc@/);
    const bad = new SvcClient({ baseUrl: sim.url, accessKey: 'nope' });
    const calls = [
      bad.getIntentHistory(),
      bad.searchIntents({ byProjectId: 1 }),
      bad.getIntent({ intentId: all[0]!.intentId }),
      bad.getExactOutputRoutes({ destinationChainId: 1, destinationTokenAddress: '0x' }),
      bad.getTokenPrices({ tokens: [] }),
      bad.executeIntent({ intentId: all[0]!.intentId }),
    ];
    for (const call of calls) expect(await errorOf(call)).toMatchObject({ errorName: 'AccessKeyNotFound', code: 1101, httpStatus: 401 });
  });

  it('names the request field the client refuses to send', async () => {
    const err = await api
      .getExactOutputRoutes({ destinationChainId: 'eight' as unknown as number, destinationTokenAddress: '0x' })
      .catch((e) => e);
    expect(err.kind).toBe('validation');
    expect(err.path).toBe('request.destinationChainId');
    expect(err).not.toBeInstanceOf(SvcServiceError);
  });
});
