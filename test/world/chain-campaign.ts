/**
 * The on-chain verifier's world runs (issue 28's "RPC faults, re-orgs" in the campaign): the production wiring
 * (`createChainVerifierOnPlatform`, lib/worker/chain-wiring.ts, with its real RPC budget, cadence and viem transport)
 * on a platform whose time, timers and `fetch` are simulated, against two simulated chains (./chain-sim.ts: Arbitrum
 * One for the deposit and origin legs, Base for the destination). A schedule draws the intent's story (the amount
 * that arrives, a reverting or missing destination, how long the service lags the chain), re-orgs of Base (which may
 * drop the destination and include it again), RPC faults per request (HTTP 500, JSON-RPC error, time-out) and spans
 * during which Base's RPC URL answers for another chain. The oracle ({@link checkChainRun}) checks what the user is
 * told against the simulated truth at that moment: never "verified on-chain" unless the destination is final on the
 * canonical chain with the exact amount and the service says SUCCEEDED; each disagreement told at most once, and only
 * when it is true then; every leg with a verdict by the end of the run; and, when the story ends well, "verified".
 */
import fc from 'fast-check';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { MAX_CHECK_MS } from '@/lib/chain/cadence';
import type { Disagreement } from '@/lib/chain/disagreement';
import type { Platform } from '@/lib/platform';
import { CHAIN_PREFERENCES_KEY, CHAIN_VERDICT_PREFIX } from '@/lib/store/chain';
import type { ChainVerdict } from '@/lib/store/types';
import { createChainVerifierOnPlatform } from '@/lib/worker/chain-wiring';
import { type RpcFault, reorgsArb, rpcFaultsArb, rpcFetch, SimChain } from './chain-sim';

/** One run's story and faults (times in ms of simulated time). */
export interface ChainSchedule {
  story: 'exact' | 'smaller' | 'reverted' | 'missing';
  /** How long after the destination is mined the service says SUCCEEDED. */
  lagMs: number;
  /** Re-orgs of Base: when (after the destination is mined), how deep, and after how many blocks a dropped tx is back (null: never). */
  reorgs: Array<{ afterMs: number; depth: number; backAfterBlocks: number | null }>;
  /** Share of RPC requests that fail, and how. */
  faultRate: number;
  faults: RpcFault[];
  /** Spans during which Base's RPC URL answers for another chain. */
  wrongChain: Array<{ fromMs: number; forMs: number }>;
}

/** The schedules drawn. */
export const chainScheduleArb: fc.Arbitrary<ChainSchedule> = fc.record({
  story: fc.constantFrom('exact', 'exact', 'smaller', 'reverted', 'missing'),
  lagMs: fc.constantFrom(0, 5_000, 30_000, 120_000),
  reorgs: reorgsArb,
  ...rpcFaultsArb,
  wrongChain: fc.array(fc.record({ fromMs: fc.integer({ min: 0, max: 200_000 }), forMs: fc.integer({ min: 1_000, max: 90_000 }) }), {
    maxLength: process.env.CHAIN_WORLD_NO_WRONG ? 0 : 1,
  }),
});

const ARB = 'http://127.0.0.1:8545';
const BASE = 'http://127.0.0.1:8546';
const DEPTH = { 42161: 20, 8453: 10 } as const;
const BLOCK_MS = { 42161: 1_000, 8453: 2_000 } as const;
const RUN_MS = 8 * 60_000;
const ID = `0x${'5'.repeat(64)}`;
const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const AMOUNT = 249_100_000n;
const HASH = { deposit: `0x${'a1'.repeat(32)}`, origin: `0x${'b2'.repeat(32)}`, destination: `0x${'c3'.repeat(32)}` };
/** The destination is mined at this time. */
const DEST_AT = 12_000;

/** What a run observed. */
export interface ChainRunResult {
  violations: string[];
  told: string[];
  verifiedAt?: number;
  requests: number;
}

/** A deterministic coin from `seed` (mulberry32). */
function coin(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs one schedule; `seed` draws which requests fail. */
export async function runChainWorld(s: ChainSchedule, seed: number): Promise<ChainRunResult> {
  const arb = new SimChain(42161);
  const base = new SimChain(8453);
  const random = coin(seed);
  let now = 0;
  const queue: Array<{ at: number; seq: number; fn: () => void | Promise<void> }> = [];
  let seq = 0;
  const at = (t: number, fn: () => void | Promise<void>) => {
    queue.push({ at: t, seq: seq++, fn });
    return seq - 1;
  };
  const cancelled = new Set<number>();
  let requests = 0;
  let inFlight = 0;
  /** Requests that never answer (the `timeout` fault), until their time-out aborts them. */
  let hanging = 0;
  const wrongNow = () => s.wrongChain.some((w) => now >= w.fromMs && now < w.fromMs + w.forMs);
  // When each receipt was asked for, and when a request met a fault: a leg the verifier kept asking about through
  // faults until the end is excused its missing verdict (as in ./chain-family.ts).
  const asks = new Map<string, number[]>();
  const faultsAt = new Set<number>();
  /** When a request first found the destination final while the service says SUCCEEDED. */
  let finalAt: number | undefined;
  let faulted = false;
  let fault: RpcFault | undefined;
  const inner = rpcFetch(
    new Map([
      [ARB, arb],
      [BASE, base],
    ]),
    () => {
      const f = random() < s.faultRate ? s.faults[Math.floor(random() * s.faults.length)] : undefined;
      faulted = f !== undefined;
      fault = f;
      return f;
    },
  );
  const wrong = rpcFetch(new Map([[BASE, base]]), () => 'wrongChain');
  const fetchFn: typeof fetch = async (input, init) => {
    requests++;
    // A request that never answers waits on its time-out's timer, not on the loop below: it is counted as hanging.
    let counted = true;
    inFlight++;
    try {
      faulted = String(input).startsWith(BASE) && wrongNow();
      fault = undefined;
      const answer = (faulted ? wrong : inner)(input, init);
      if (fault === 'timeout') {
        counted = false;
        inFlight--;
        hanging++;
        answer.catch(() => {}).finally(() => hanging--);
      }
      if (faulted) faultsAt.add(now);
      const truth = truthOfDestination();
      if (finalAt === undefined && status === 'SUCCEEDED' && truth && truth.confirmations >= DEPTH[8453]) finalAt = now;
      const body = JSON.parse(String(init?.body)) as { method: string; params?: unknown[] };
      const hash = String(body.params?.[0] ?? '').toLowerCase();
      if (body.method === 'eth_getTransactionReceipt') asks.set(hash, [...(asks.get(hash) ?? []), now]);
      return await answer;
    } finally {
      if (counted) inFlight--;
    }
  };
  /**
   * The verifier asked about `hash` within the cadence's longest delay (and a margin) of the end, and every ask from
   * `from` (ms) on met a fault: the leg's verdict is as old as its last clean answer before `from`.
   */
  const stillFaulted = (hash: string, from = 0) => {
    const times = asks.get(hash.toLowerCase()) ?? [];
    return times.some((t) => t >= RUN_MS - MAX_CHECK_MS - 15_000) && times.filter((t) => t >= from).every((t) => faultsAt.has(t));
  };

  // The truth as the user may be told it, and what the user was told.
  let status = 'EXECUTING' as 'EXECUTING' | 'SUCCEEDED';
  let receipt: IntentReceipt | undefined;
  let everDropped = false;
  let destMinedAt: number | undefined;
  const violations: string[] = [];
  const told: string[] = [];
  let verifiedAt: number | undefined;
  const truthOfDestination = () => {
    const tx = base.tx(HASH.destination);
    return tx ? { tx, confirmations: base.head - tx.block + 1 } : undefined;
  };
  const data = new Map<string, unknown>([
    [
      CHAIN_PREFERENCES_KEY,
      {
        42161: { enabled: true, rpcUrl: ARB, finalityDepth: DEPTH[42161] },
        8453: { enabled: true, rpcUrl: BASE, finalityDepth: DEPTH[8453] },
      },
    ],
  ]);
  const local = {
    get: async (keys: string | null) => (keys === null ? Object.fromEntries(data) : data.has(keys) ? { [keys]: data.get(keys) } : {}),
    set: async (items: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(items)) {
        data.set(k, structuredClone(v));
        if (k.startsWith(CHAIN_VERDICT_PREFIX) && (v as ChainVerdict).verified && verifiedAt === undefined) {
          verifiedAt = now;
          const truth = truthOfDestination();
          if (
            !(
              status === 'SUCCEEDED' &&
              truth &&
              truth.tx.status === 'success' &&
              truth.tx.amount === AMOUNT &&
              truth.confirmations >= DEPTH[8453]
            )
          )
            violations.push(
              `"verified on-chain" at ${now} ms while the truth is ${JSON.stringify({ status, ...truth, tx: truth?.tx.block })}`,
            );
        }
      }
    },
    remove: async (key: string) => void data.delete(key),
  };
  const platform = {
    fetch: fetchFn,
    clock: { now: () => 1_800_000_000_000 + now, monotonic: () => now, sleep: async () => {} },
    timers: {
      setTimeout: (fn: () => void, ms: number) => at(now + Math.max(0, ms), fn),
      clearTimeout: (h: unknown) => void (typeof h === 'number' && cancelled.add(h)),
    },
    browser: { storage: { local }, permissions: {} } as unknown as Platform['browser'],
  } as unknown as Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'>;

  const verifier = createChainVerifierOnPlatform(platform, {
    intents: async () => (receipt ? [{ intentId: ID, receipt }] : []),
    hasPermission: async () => true,
    notify: async (_id, d: Disagreement) => {
      const key = `${d.kind}:${d.leg}`;
      if (told.includes(key)) violations.push(`${key} told twice (at ${now} ms)`);
      told.push(key);
      const why = falseDisagreement(d, truthOfDestination(), { status, story: s.story, everDropped, destMinedAt, now });
      if (why) violations.push(`${key} told at ${now} ms, but ${why}`);
    },
  });

  const publish = (r: IntentReceipt) => {
    receipt = r;
    return verifier.changed(ID);
  };
  const leg = (chainId: number, txnHash: string, mined: boolean, extra: object = {}) => ({
    chainId,
    txnHash,
    ...(mined ? { status: 'SUCCEEDED', txnMinedAt: '2027-01-15T08:00:00Z' } : { status: 'MINING' }),
    ...extra,
  });
  const receiptNow = (withDestination: boolean) =>
    IntentReceipt.parse({
      intentId: ID,
      status,
      depositTransaction: leg(42161, HASH.deposit, true),
      originTransaction: leg(42161, HASH.origin, true),
      ...(withDestination
        ? {
            destinationTransaction: leg(8453, HASH.destination, status === 'SUCCEEDED', {
              tokenAmount: AMOUNT.toString(),
              tokenAddress: TOKEN,
            }),
          }
        : {}),
      summary: { destinationToAddress: TO, destinationTokenAddress: TOKEN, destinationTokenMetadata: { symbol: 'USDC', decimals: 6 } },
    });
  const destinationTx = () => ({
    hash: HASH.destination,
    status: s.story === 'reverted' ? ('reverted' as const) : ('success' as const),
    token: TOKEN,
    to: TO,
    amount: s.story === 'smaller' ? 200_000_000n : AMOUNT,
  });

  // The story.
  for (const id of [42161, 8453] as const)
    for (let t = BLOCK_MS[id]; t < RUN_MS; t += BLOCK_MS[id]) at(t, () => (id === 42161 ? arb : base).mine());
  at(1_000, () => void arb.include({ hash: HASH.deposit, status: 'success', token: TOKEN, to: TO, amount: 250_000_000n }));
  at(6_000, () => void arb.include({ hash: HASH.origin, status: 'success', token: TOKEN, to: TO, amount: 250_000_000n }));
  at(1_500, () => publish(receiptNow(false)));
  at(6_500, () => publish(receiptNow(false)));
  at(DEST_AT, () => {
    destMinedAt = now;
    if (s.story !== 'missing') base.include(destinationTx());
  });
  at(DEST_AT + 200, () => publish(receiptNow(true)));
  at(DEST_AT + 200 + s.lagMs, () => {
    status = 'SUCCEEDED';
    return publish(receiptNow(true));
  });
  for (const r of s.reorgs)
    at(DEST_AT + r.afterMs, () => {
      const dropped = base.reorg(r.depth);
      if (dropped.length > 0) everDropped = true;
      if (r.backAfterBlocks !== null)
        for (const tx of dropped) at(now + r.backAfterBlocks * BLOCK_MS[8453] + 1, () => void (base.tx(tx.hash) || base.include(tx)));
    });

  // Simulated time: events in order, each followed by every request it started.
  while (queue.length > 0) {
    queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = queue.shift()!;
    if (next.at > RUN_MS) break;
    if (cancelled.has(next.seq)) continue;
    now = next.at;
    // The event and every request it started: until it is done, or waits only on a request that never answers (its
    // time-out is a timer in the queue).
    let done = false;
    let failed: { err: unknown } | undefined;
    void Promise.resolve(next.fn()).then(
      () => {
        done = true;
      },
      (err: unknown) => {
        done = true;
        failed = { err };
      },
    );
    for (let idle = 0; idle < 3; idle = inFlight > 0 || (!done && hanging === 0) ? 0 : idle + 1) await new Promise((r) => setImmediate(r));
    if (failed) throw failed.err;
  }

  const last = receipt && verifier.last(ID);
  const truth = truthOfDestination();
  const shouldVerify = s.story === 'exact' && truth && truth.confirmations >= DEPTH[8453] && status === 'SUCCEEDED';
  if (shouldVerify && !last?.verified && !stillFaulted(HASH.destination, finalAt ?? RUN_MS))
    violations.push(
      `never "verified on-chain" though the destination is final with the exact amount (last: ${JSON.stringify(last?.legs.map((l) => l.text))})`,
    );
  // Every leg has a verdict by the end: none left behind by a failed or skipped first check.
  const legs = last?.legs.map((l) => l.leg) ?? [];
  const missing = (['deposit', 'origin', 'destination'] as const).filter((l) => !legs.includes(l));
  if (missing.some((l) => !stillFaulted(HASH[l]))) violations.push(`legs without a verdict at the end: only ${JSON.stringify(legs)}`);
  return { violations, told, requests, ...(verifiedAt !== undefined ? { verifiedAt } : {}) };
}

/** Why telling `d` now is false, or undefined when the truth bears it out. */
function falseDisagreement(
  d: Disagreement,
  truth: { tx: { status: string; amount: bigint }; confirmations: number } | undefined,
  ctx: { status: string; story: ChainSchedule['story']; everDropped: boolean; destMinedAt: number | undefined; now: number },
): string | undefined {
  switch (d.kind) {
    case 'amount-differs':
      return truth && truth.tx.amount !== AMOUNT ? undefined : 'the canonical chain has the exact amount, or no transfer';
    case 'destination-reverted':
      return truth?.tx.status === 'reverted' ? undefined : 'the destination did not revert';
    case 'arrived-early':
      return ctx.status === 'EXECUTING' && truth && truth.tx.status === 'success' && truth.tx.amount === AMOUNT
        ? undefined
        : 'it has not arrived';
    case 'destination-missing':
      return truth ? 'the destination is on the canonical chain' : undefined;
    case 'reorged':
      return d.leg === 'destination' && ctx.everDropped ? undefined : 'no re-org ever dropped that leg';
  }
}
