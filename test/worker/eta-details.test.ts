/**
 * The worker's look-ups for the ETA and the receipt view, against the simulator over HTTP: the baseline found once
 * (the quote's estimate, else the route median from history), and the details (fee total, token prices, what the
 * intent address still holds).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RequestBudget } from '@/lib/api/budget';
import { SvcClient } from '@/lib/api/client';
import { intentDetails } from '@/lib/worker/details';
import { createBaselineFinder } from '@/lib/worker/eta-baseline';
import { intentAt, snapshotAt } from '../../simulator/lifecycle';
import { peakConcurrency, type Simulator, startSimulator } from '../../simulator/server';
import { memoryTracker } from './helpers';

let sim: Simulator;
let client: SvcClient;
beforeAll(async () => {
  sim = await startSimulator({ dataset: false });
  client = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
});
afterAll(() => sim?.close());

const simIntent = (intentId: string) => sim.intents().find((i) => i.intentId === intentId)!;
const calls = (operation: string) => sim.requests().filter((r) => r.operation === operation).length;

describe('createBaselineFinder', () => {
  it('keeps the quote’s estimatedDuration (seconds) on the record, asking GetIntent once', async () => {
    const { tracker } = memoryTracker();
    const find = createBaselineFinder({ client: async () => client, tracker });
    const id = sim.createIntent('success', 3_000, undefined, { estimatedDuration: 95 });
    await tracker.track(id);
    const before = calls('GetIntent');
    await find(id);
    await find(id);
    expect((await tracker.list()).find((t) => t.intentId === id)).toMatchObject({ estimatedDuration: 95 });
    expect(calls('GetIntent') - before).toBe(1);
    // The simulator's default estimate is the execution time at the quoted pace: 1 + 2 + 1 steps of 3 s.
    const plain = sim.createIntent('success', 3_000);
    await tracker.track(plain);
    await find(plain);
    expect((await tracker.list()).find((t) => t.intentId === plain)?.estimatedDuration).toBe(12);
  });

  it('without a quote estimate: the median of recent SUCCEEDED intents on the same chain pair', async () => {
    const { tracker } = memoryTracker();
    const find = createBaselineFinder({ client: async () => client, tracker });
    // Finished intents on Arbitrum → Base: execution lasts 4 steps of the success script (20 s, 40 s, 48 s).
    for (const stepMs of [5_000, 10_000, 12_000]) sim.createIntent('success', stepMs, undefined, { createdAgoMs: 3_600_000 });
    sim.createIntent('failure', 1_000, undefined, { createdAgoMs: 3_600_000 }); // another pair, and failed
    const id = sim.createIntent('success', 2_000, undefined, { estimatedDuration: null });
    expect((intentAt(simIntent(id), sim.now()).quote as Record<string, unknown>).estimatedDuration).toBeUndefined();
    await tracker.track(id);
    await find(id);
    const record = (await tracker.list()).find((t) => t.intentId === id);
    expect(record?.estimatedDuration).toBeUndefined();
    expect(record?.routeDuration).toBe(40);
  });

  it('looks up many new intents one at a time', async () => {
    const { tracker } = memoryTracker();
    const find = createBaselineFinder({ client: async () => client, tracker });
    // No quote estimates: each needs GetIntent, then GetIntentHistory (over the finished intents of the test above).
    const ids = Array.from({ length: 8 }, () => sim.createIntent('success', 2_000, undefined, { estimatedDuration: null }));
    for (const id of ids) await tracker.track(id);
    const from = sim.requests().length;
    await Promise.all(ids.map((id) => find(id)));
    const log = sim.requests().slice(from);
    expect(log.filter((r) => r.operation === 'GetIntent')).toHaveLength(8);
    expect(peakConcurrency(log)).toBe(1);
    expect((await tracker.list()).map((t) => t.routeDuration)).toEqual(ids.map(() => 40));
  });

  it('sends nothing more for an intent removed while its GetIntent runs (I4)', async () => {
    const { tracker } = memoryTracker();
    const id = sim.createIntent('success', 2_000, undefined, { estimatedDuration: null });
    await tracker.track(id);
    // The user removes the intent while the first look-up is answered.
    const removing = {
      getIntent: async (...args: Parameters<SvcClient['getIntent']>) => {
        const answer = await client.getIntent(...args);
        await tracker.remove(id);
        return answer;
      },
      getIntentHistory: (...args: Parameters<SvcClient['getIntentHistory']>) => client.getIntentHistory(...args),
    };
    const from = sim.requests().length;
    await createBaselineFinder({ client: async () => removing, tracker })(id);
    expect(
      sim
        .requests()
        .slice(from)
        .map((r) => r.operation),
    ).toEqual(['GetIntent']);
  });

  it('sends nothing for an intent removed while its look-up waits for a place in the worker’s budget (I4)', async () => {
    const { tracker } = memoryTracker();
    const budget = new RequestBudget({ perMinute: 60_000 });
    const busy = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey, budget, lane: 'background' });
    const id = sim.createIntent('success', 2_000, undefined, { estimatedDuration: null });
    await tracker.track(id);
    // Four places held by others.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: 4 }, () => budget.run('tracker', () => held));
    const from = sim.requests().length;
    const looking = createBaselineFinder({ client: async () => busy, tracker })(id);
    // Until the look-up waits for a place (a fixed 20 ms could pass first on a loaded machine).
    await vi.waitFor(() => expect(budget.waiting).toBe(1), { timeout: 10_000, interval: 10 });
    await tracker.remove(id);
    release();
    await Promise.all([looking, ...holders]);
    expect(sim.requests().slice(from)).toEqual([]);
  });

  it('leaves alone what is final or not configured, and never throws', async () => {
    const { tracker } = memoryTracker();
    const id = sim.createIntent('success', 1_000, undefined, { estimatedDuration: 30 });
    await tracker.track(id);
    await createBaselineFinder({ client: async () => undefined, tracker })(id);
    expect((await tracker.list())[0]?.estimatedDuration).toBeUndefined();
    const broken = new SvcClient({ baseUrl: sim.url, accessKey: 'wrong' });
    await expect(createBaselineFinder({ client: async () => broken, tracker })(id)).resolves.toBeUndefined();
    expect((await tracker.list())[0]?.estimatedDuration).toBeUndefined();
  });
});

describe('intentDetails', () => {
  it('gives the fee total from the intent and the USD prices of both tokens', async () => {
    const id = sim.createIntent('success', 1_000);
    const details = await intentDetails(client, id);
    const intent = intentAt(simIntent(id), sim.now()) as { fees: { totalFeeUsd: number } };
    expect(details.feeUsd).toBe(intent.fees.totalFeeUsd);
    expect(details.prices).toEqual({ origin: simIntent(id).origin.priceUsd, destination: simIntent(id).destination.priceUsd });
    expect(details.holdings).toBeUndefined(); // only asked for intents that ended without delivering
  });

  it('for a refund, asks history with balances and finds nothing held; an unknown intent gives nothing', async () => {
    const id = sim.createIntent('refund', 100, undefined, { createdAgoMs: 60_000 });
    expect(snapshotAt(simIntent(id), sim.now()).status).toBe('REFUNDED');
    const details = await intentDetails(client, id);
    expect(details.holdings).toEqual([]);
    expect(await intentDetails(client, `0x${'9'.repeat(64)}`)).toEqual({});
  });
});

describe('intentDetails with the data set', () => {
  let full: Simulator;
  beforeAll(async () => {
    full = await startSimulator();
  });
  afterAll(() => full?.close());

  it('says what a failed intent’s address still holds (includeBalances)', async () => {
    const now = full.now();
    const held = full.intents().find((i) => i.balance && ['FAILED', 'ABORTED'].includes(snapshotAt(i, now).status))!;
    const details = await intentDetails(new SvcClient({ baseUrl: full.url, accessKey: full.accessKey }), held.intentId);
    const tokens = details.holdings?.flatMap((h) => h.tokens ?? []) ?? [];
    expect(tokens.map((t) => [t.balance, t.symbol])).toContainEqual([held.balance!.amount, held.balance!.token.symbol]);
  });
});
