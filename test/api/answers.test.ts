/**
 * Answers the service can send (issue 27): the client checks what it is given before anyone believes it. Each test
 * failed on the client before the fix it names.
 */
import { describe, expect, it } from 'vitest';
import { SvcClient } from '@/lib/api/client';
import { SvcValidationError } from '@/lib/api/errors';

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
      tracker: { list: async () => [record], setBaseline: async (_id, b) => void set.push(b) },
    });
    await ensure(ID);
    expect(set).toEqual([]);
    expect(await intentDetails(client, ID)).toEqual({});
  });
});
