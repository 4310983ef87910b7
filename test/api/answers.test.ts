/**
 * Answers the service can send (issue 27): the client checks what it is given before anyone believes it. Each test
 * failed on the client before the fix it names.
 */
import { describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { SvcBadBodyError, SvcValidationError } from '@/lib/api/errors';

const KEY = 'ak_live_0123456789abcdef';
const ID = `0x${'a'.repeat(64)}`;
const OTHER = `0x${'b'.repeat(64)}`;

/** A client whose every call is answered with `body` (HTTP `status`). */
function answering(body: string, status = 200): SvcClient {
  return new SvcClient({
    baseUrl: 'https://svc.example',
    accessKey: KEY,
    fetch: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }),
  });
}

describe('GetIntent is checked to be about the intent asked (symptom 12)', () => {
  it('an answer about another intent is a malformed response naming the field, not another intent’s estimate', async () => {
    const client = answering(JSON.stringify({ intent: { intentId: OTHER, quote: { estimatedDuration: 86_400 } } }));
    const err = await client.getIntent({ intentId: ID }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcValidationError);
    expect(err).toMatchObject({ path: 'intent.intentId', operation: 'GetIntent' });
    expect((err as Error).message).toContain(OTHER);
  });

  it('the same intent in other letter case is the intent asked', async () => {
    const client = answering(
      JSON.stringify({ intent: { intentId: ID.toUpperCase().replace('0X', '0x'), quote: { estimatedDuration: 60 } } }),
    );
    expect((await client.getIntent({ intentId: ID })).intent.quote?.estimatedDuration).toBe(60);
  });
});

describe('the ETA baseline and the details look-up take nothing from another intent (symptom 12)', () => {
  it('a GetIntent answer about another intent with a day’s estimate sets no baseline; the details are empty', async () => {
    const { createBaselineFinder } = await import('@/lib/worker/eta-baseline');
    const { intentDetails } = await import('@/lib/worker/details');
    const client = new SvcClient({
      baseUrl: 'https://svc.example',
      accessKey: KEY,
      fetch: async (input) => {
        const op = String(input).split('/').at(-1);
        const body =
          op === 'GetIntent'
            ? { intent: { intentId: OTHER, quote: { estimatedDuration: 86_400 }, fees: { totalFeeUsd: 99 } } }
            : { intents: [] };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const set: unknown[] = [];
    const record = { intentId: ID, addedAt: 0, lastStates: [], phase: 'tracking' as const, notification: 'none' as const };
    const ensure = createBaselineFinder({
      client: async () => client,
      tracker: { get: async (id) => (id === ID ? record : undefined), setBaseline: async (_id, b) => void set.push(b) },
    });
    await ensure(ID);
    expect(set).toEqual([]);
    expect(await intentDetails(client, ID)).toEqual({});
  });
});

describe('integers above 2^53 in number fields, and one bad row of a page (symptom 11)', () => {
  const MAX_UINT256 = (2n ** 256n - 1n).toString();
  const entry = `{"deadline":${MAX_UINT256},"permitDeadline":${MAX_UINT256},"userNonce":18446744073709551617,"permitAmount":${MAX_UINT256}}`;
  const receipt = (id: string, status = '"EXECUTING"') =>
    `{"intentId":"${id}","status":${status},"depositTransaction":{"txnHash":"0x1","depositIntentEntry":${entry}},"id":9007199254740993}`;

  it('a receipt whose deadline is 2^256−1 and nonce 2^64+1 is read (raw amounts exact, the others as numbers)', async () => {
    const res = await answering(`{"intentReceipt":${receipt(ID)}}`).getIntentReceipt({ intentId: ID });
    const e = res.intentReceipt.depositTransaction?.depositIntentEntry;
    expect(e?.deadline).toBe(2 ** 256);
    expect(e?.userNonce).toBe(2 ** 64);
    expect(e?.permitAmount).toBe(MAX_UINT256);
    expect(res.intentReceipt.status).toBe('EXECUTING');
  });

  it('a history page keeps its rows with such integers and sets a malformed row aside, naming it and why', async () => {
    const row = (id: string, status = '"SUCCEEDED"') => `{"intentId":"${id}","status":${status},"receipt":${receipt(id, status)}}`;
    const third = `0x${'c'.repeat(64)}`;
    const body = `{"intents":[${row(ID)},${row(OTHER, '5')},${row(third)}],"nextPage":{"after":1700000000000,"more":true}}`;
    const full = await answering(body).getIntentHistory({});
    expect(full.intents.map((r) => r.intentId)).toEqual([ID, third]);
    expect(full.setAside).toEqual([{ index: 1, intentId: OTHER, reason: expect.stringMatching(/^status: /) }]);
    expect(full.nextPage?.after).toBe(1_700_000_000_000);
    const lite = await answering(body).getIntentHistoryLite({ page: { pageSize: 20 } });
    expect(lite.intents.map((r) => r.intentId)).toEqual([ID, third]);
    expect(lite.setAside?.map((r) => r.index)).toEqual([1]);
    expect(lite.nextPage?.more).toBe(true);
  });

  it('SearchIntents keeps its good rows the same way', async () => {
    const body = `{"intents":[{"intentId":"${ID}","salt":${MAX_UINT256},"quote":{"estimatedDuration":60}},{"intentId":7}]}`;
    const res = await answering(body).searchIntents({ byOwnerAddress: '0x1' });
    expect(res.intents.map((i) => i.intentId)).toEqual([ID]);
    expect(res.setAside).toEqual([{ index: 1, reason: expect.stringMatching(/^intentId: /) }]);
    const lite = await answering(body).searchByTransactionHash(`0x${'d'.repeat(64)}`);
    expect(lite.intents.map((i) => i.intentId)).toEqual([ID]);
  });
});

describe('the snippet of an unusable body never keeps part of the key (issue 27, low)', () => {
  it('a key across the snippet’s cut is redacted, not cut to its prefix', async () => {
    for (const at of [190, 195, 199]) {
      const body = `<html>${'x'.repeat(at - 6)}${KEY}</html>`;
      const err = await answering(body, 502)
        .getIntentReceipt({ intentId: ID })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SvcBadBodyError);
      const snippet = (err as SvcBadBodyError).snippet;
      expect(snippet.length).toBeLessThanOrEqual(200);
      expect(snippet).not.toContain(KEY.slice(0, 4));
      expect(snippet.slice(at)).toBe('[redacted]'.slice(0, 200 - at));
    }
  });
});

describe('SvcNumber', () => {
  it('reads numbers and integer strings; refuses other strings', async () => {
    const { SvcNumber } = await import('@/lib/api/schemas/fields');
    expect(SvcNumber.parse(42)).toBe(42);
    expect(SvcNumber.parse('18446744073709551616')).toBe(2 ** 64);
    expect(SvcNumber.parse('-9007199254740993')).toBe(-(2 ** 53));
    for (const bad of ['', 'abc', '1.5e3', ' 12', '0x10']) expect(SvcNumber.safeParse(bad).success).toBe(false);
  });
});

describe('the tracker reads and tells an intent whose receipt holds integers above 2^53 (symptom 11)', () => {
  it('SUCCEEDED with deadline 2^256−1, through the real client, is notified', async () => {
    const { Tracker } = await import('@/lib/tracker/engine');
    const { MemoryStore } = await import('@/lib/store/memory');
    const { EventClock, RecordingNotifier } = await import('../tracker/fakes');
    const MAX = (2n ** 256n - 1n).toString();
    const receipt = `{"intentId":"${ID}","status":"SUCCEEDED","depositTransaction":{"depositIntentEntry":{"deadline":${MAX},"userNonce":${MAX}}}}`;
    const client = new SvcClient({
      baseUrl: 'https://svc.example',
      accessKey: KEY,
      fetch: async (input) => {
        const op = String(input).split('/').at(-1);
        const body =
          op === 'GetIntentHistory'
            ? `{"intents":[{"intentId":"${ID}","status":"SUCCEEDED","receipt":${receipt}},{"intentId":5}]}`
            : op === 'WaitIntentReceipt'
              ? `{"intentReceipt":${receipt},"receiptStates":["SUCCEEDED"],"done":true}`
              : `{"intentReceipt":${receipt}}`;
        return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    const clock = new EventClock();
    const notifier = new RecordingNotifier();
    const store = new MemoryStore();
    const tracker = new Tracker({ store, clock, notifier, transport: async () => client, random: () => 1 });
    await tracker.track(ID);
    await clock.advance(10_000);
    expect(notifier.shown.map((t) => [t.intentId, t.status])).toEqual([[ID, 'SUCCEEDED']]);
    tracker.stop();
  });
});
