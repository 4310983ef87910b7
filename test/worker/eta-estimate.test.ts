/**
 * An integer above 2^53 in GetIntent's `quote.estimatedDuration` (2^256 − 1, read as the nearest number, 1.16e77 s)
 * is no estimate (the world campaign's `bigIntIntent` family found a record keeping it, so the stuck warning and the
 * countdown waited 10^69 years): the route's median is looked for instead, and a baseline is never made of it.
 */
import { describe, expect, it } from 'vitest';
import { GetIntentResponse } from '@/lib/api/schemas/intent';
import { baselineOf, stuckLimitMs } from '@/lib/eta';
import { createBaselineFinder } from '@/lib/worker/eta-baseline';
import { etaClient, memoryTracker } from './helpers';

const ID = `0x${'1'.padStart(64, '0')}`;
const BIG = '115792089237316195423570985008687907853269984665640564039457584007913129639935';

/** A GetIntent answer as the wire gives it: `estimatedDuration` a bare integer `digits`, parsed by the schema. */
function answer(digits: string) {
  const text = `{"intent":{"intentId":"${ID}","originChainId":42161,"destinationChainId":8453,"quote":{"estimatedDuration":${digits}}}}`;
  return GetIntentResponse.parse(JSON.parse(text));
}

describe('an estimate of 2^256 − 1 seconds', () => {
  it('is not kept as the baseline; the route median is asked for instead', async () => {
    const { tracker } = memoryTracker();
    const { client, asked } = etaClient(() => answer(BIG));
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => 0 });
    await tracker.track(ID);
    await find(ID);
    const record = (await tracker.list()).find((t) => t.intentId === ID)!;
    expect(record.estimatedDuration).toBeUndefined();
    expect(asked).toEqual(['GetIntent', 'GetIntentHistory']);
  });

  it('an ordinary estimate (20 minutes) is still kept', async () => {
    const { tracker } = memoryTracker();
    const client = { getIntent: (async () => answer('1200')) as never, getIntentHistory: (async () => ({ intents: [] })) as never };
    const find = createBaselineFinder({ client: async () => client, tracker, monotonic: () => 0 });
    await tracker.track(ID);
    await find(ID);
    expect((await tracker.list())[0]!.estimatedDuration).toBe(1200);
  });

  it('a record that kept one has no baseline from it: the stuck limit is the 15-minute floor', () => {
    expect(baselineOf({ estimatedDuration: Number(BIG) })).toBeUndefined();
    expect(stuckLimitMs(baselineOf({ estimatedDuration: Number(BIG), routeDuration: 600 }), 15 * 60_000)).toBe(20 * 60_000);
    expect(baselineOf({ estimatedDuration: 86_400 })).toEqual({ seconds: 86_400, source: 'quote' });
  });
});
