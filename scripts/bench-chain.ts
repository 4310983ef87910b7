/**
 * The bench's chain rows (`BENCH_PARTS=chain`, sizes `BENCH_CHAIN_SIZES`, default 1, 100 and 500; issue 28 item 5):
 * the production on-chain verifier (`createChainVerifierOnPlatform`, lib/worker/chain-wiring.ts, with its default RPC
 * budget of 30 requests a minute and burst 8 per origin) in Node against two real local chains (anvil with the chain
 * ids of Arbitrum One and Base, a block every 250 ms and 2 s, their real block times), each chain at its default
 * finality depth (480 and 60 confirmations: two minutes of blocks on each).
 *
 * Each intent's three legs are real transfers of the repository's ERC-20: deposit and origin on Arbitrum One, then the
 * destination on Base. The service's receipt shows the deposit and origin SUCCEEDED, then the destination's real hash
 * while the service still says EXECUTING for {@link LAG_MS} (it lags the chain), then SUCCEEDED. Each receipt change is
 * handed to the verifier as the tracker hands it (`changed(intentId)`). Intents start spread over {@link SPREAD_MS}.
 *
 * Figures: from the destination transaction's block (its send answered: anvil mines on send) to the verdict
 * "verified on-chain" stored for the popup, and to the "arrived ahead of the service" notification; JSON-RPC requests
 * a minute per chain (HTTP requests to its RPC origin, counted at the platform's fetch) over the row, and the most in
 * any 60 s. A row ends when every intent is verified or {@link AFTER_LAST_MS} after the last destination was mined.
 */
import './bench-i18n';
import type { IntentReceipt } from '../lib/api/schemas/receipt';
import { IntentReceipt as ReceiptSchema } from '../lib/api/schemas/receipt';
import type { Disagreement } from '../lib/chain/disagreement';
import type { Platform } from '../lib/platform';
import { CHAIN_PREFERENCES_KEY, CHAIN_VERDICT_PREFIX } from '../lib/store/chain';
import { realClock } from '../lib/time/clock';
import { createChainVerifierOnPlatform } from '../lib/worker/chain-wiring';
import { ACCOUNTS, type Anvil, mine, sendTransfer, startChains, type Token } from '../simulator/chain/anvil';
import { type Stats, stats } from './bench-desk';

const QUICK = process.env.BENCH_QUICK === '1';
/** Intents start spread over this (ms). */
export const SPREAD_MS = QUICK ? 10_000 : 30_000;
/** The service says SUCCEEDED this long (ms) after the destination is mined. */
export const LAG_MS = 10_000;
/** A row ends at most this long (ms) after the last destination transaction was mined. */
export const AFTER_LAST_MS = QUICK ? 150_000 : 240_000;
/** Block interval (ms) of each local chain: Arbitrum One's and Base's real block times. */
export const BLOCK_MS = { 42161: 250, 8453: 2_000 } as const;

/** What a chain row measured (times in ms). */
export interface ChainFigures {
  /** Intents verified on-chain within the row, of `intents`. */
  verified: number;
  /** Destination block → "verified on-chain" stored (ms), of the verified intents. */
  blockToVerifiedMs: Stats | null;
  /** Intents told "arrived" while the service said EXECUTING. */
  arrived: number;
  /** Destination block → the "arrived" notification (ms). */
  blockToArrivedMs: Stats | null;
  /** JSON-RPC requests a minute per chainId over the row, and the most in any 60 s. */
  requestsPerMinute: Record<number, number>;
  maxRequestsInAMinute: Record<number, number>;
  /** The chains' settings in this row. */
  blockMs: Record<number, number>;
  serviceLagMs: number;
  runMs: number;
}

type Chain = { anvil: Anvil; token: Token };

/** A storage.local in memory, with the moment each intent's stored verdict first said "verified". */
function memoryStorage(onVerified: (intentId: string) => void) {
  const data = new Map<string, unknown>();
  const local = {
    get: async (keys: string | string[] | null) => {
      if (keys === null) return Object.fromEntries(data);
      const out: Record<string, unknown> = {};
      for (const k of Array.isArray(keys) ? keys : [keys]) if (data.has(k)) out[k] = data.get(k);
      return out;
    },
    set: async (items: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(items)) {
        data.set(k, structuredClone(v));
        if (k.startsWith(CHAIN_VERDICT_PREFIX) && (v as { verified?: boolean }).verified) onVerified(k.slice(CHAIN_VERDICT_PREFIX.length));
      }
    },
    remove: async (keys: string | string[]) => {
      for (const k of Array.isArray(keys) ? keys : [keys]) data.delete(k);
    },
  };
  return { storage: { local }, permissions: {} } as unknown as Platform['browser'];
}

/** Requests a minute over the whole span, and the most in any 60 s window, of sorted times (ms). */
function rates(times: number[], from: number, to: number): { perMinute: number; maxInAMinute: number } {
  let max = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 60_000) j++;
    max = Math.max(max, i - j + 1);
  }
  return { perMinute: Math.round((times.length / Math.max(1, to - from)) * 60_000 * 10) / 10, maxInAMinute: max };
}

const pct = (samples: number[]) => stats(samples.map((v) => Math.round(v)));

/** One chain row: `n` intents played on the two chains and verified by the production wiring. */
export async function chainRow(n: number): Promise<ChainFigures> {
  const [arb, base] = (await startChains([42161, 8453])) as [Chain, Chain];
  const miners = [
    setInterval(() => void mine(arb.anvil, 1).catch(() => {}), BLOCK_MS[42161]),
    setInterval(() => void mine(base.anvil, 1).catch(() => {}), BLOCK_MS[8453]),
  ];
  const requests = new Map<number, number[]>([
    [42161, []],
    [8453, []],
  ]);
  const chainOf = new Map([
    [new URL(arb.anvil.url).origin, 42161],
    [new URL(base.anvil.url).origin, 8453],
  ]);
  const minedAt = new Map<string, number>();
  const verifiedAt = new Map<string, number>();
  const arrivedAt = new Map<string, number>();
  const receipts = new Map<string, IntentReceipt>();
  const browser = memoryStorage((id) => {
    if (!verifiedAt.has(id)) verifiedAt.set(id, performance.now());
  });
  try {
    await sendTransfer(arb.anvil, arb.token, ACCOUNTS.user, 10n ** 12n);
    await browser.storage.local.set({
      [CHAIN_PREFERENCES_KEY]: { 42161: { enabled: true, rpcUrl: arb.anvil.url }, 8453: { enabled: true, rpcUrl: base.anvil.url } },
    });
    const verifier = createChainVerifierOnPlatform(
      {
        fetch: (input, init) => {
          const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
          requests.get(chainOf.get(new URL(url).origin) ?? 0)?.push(performance.now());
          return fetch(input, init);
        },
        clock: realClock,
        timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
        browser,
      },
      {
        intents: async () => [...receipts].map(([intentId, receipt]) => ({ intentId, receipt })),
        hasPermission: async () => true,
        notify: async (intentId: string, d: Disagreement) => {
          if (d.kind === 'arrived-early' && !arrivedAt.has(intentId)) arrivedAt.set(intentId, performance.now());
        },
      },
    );
    const publish = (receipt: IntentReceipt) => {
      receipts.set(receipt.intentId, receipt);
      void verifier.changed(receipt.intentId);
    };
    const start = performance.now();
    const lags: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      const due = start + (i * SPREAD_MS) / n - performance.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      const intentId = `0x${(i + 1).toString(16).padStart(64, '0')}`;
      const deposit = await sendTransfer(arb.anvil, arb.token, ACCOUNTS.intent, 250_000_000n, { from: ACCOUNTS.user });
      const origin = await sendTransfer(arb.anvil, arb.token, ACCOUNTS.deployer, 250_000_000n, { from: ACCOUNTS.intent });
      publish(receiptOf(intentId, 'EXECUTING', base.token, { deposit, origin }));
      const destination = await sendTransfer(base.anvil, base.token, ACCOUNTS.user, 249_100_000n);
      minedAt.set(intentId, performance.now());
      publish(receiptOf(intentId, 'EXECUTING', base.token, { deposit, origin, destination }));
      lags.push(
        new Promise((r) =>
          setTimeout(() => {
            publish(receiptOf(intentId, 'SUCCEEDED', base.token, { deposit, origin, destination }));
            r();
          }, LAG_MS),
        ),
      );
    }
    await Promise.all(lags);
    const lastMined = Math.max(...minedAt.values());
    while (verifiedAt.size < n && performance.now() < lastMined + AFTER_LAST_MS) await new Promise((r) => setTimeout(r, 500));
    const end = performance.now();
    const since = (at: Map<string, number>) => [...at].map(([id, t]) => t - minedAt.get(id)!);
    const figures = (id: 42161 | 8453) => rates(requests.get(id)!, start, end);
    return {
      verified: verifiedAt.size,
      blockToVerifiedMs: pct(since(verifiedAt)),
      arrived: arrivedAt.size,
      blockToArrivedMs: pct(since(arrivedAt)),
      requestsPerMinute: { 42161: figures(42161).perMinute, 8453: figures(8453).perMinute },
      maxRequestsInAMinute: { 42161: figures(42161).maxInAMinute, 8453: figures(8453).maxInAMinute },
      blockMs: { ...BLOCK_MS },
      serviceLagMs: LAG_MS,
      runMs: Math.round(end - start),
    };
  } finally {
    for (const m of miners) clearInterval(m);
    receipts.clear();
    await Promise.all([arb.anvil.stop(), base.anvil.stop()]);
  }
}

/** The receipt the service shows: deposit and origin SUCCEEDED; the destination MINING until the service says SUCCEEDED. */
function receiptOf(
  intentId: string,
  status: 'EXECUTING' | 'SUCCEEDED',
  token: Token,
  hashes: { deposit: string; origin: string; destination?: string },
): IntentReceipt {
  const done = { status: 'SUCCEEDED', txnMinedAt: '2026-11-26T00:00:00Z' };
  return ReceiptSchema.parse({
    intentId,
    status,
    depositTransaction: { chainId: 42161, txnHash: hashes.deposit, ...done },
    originTransaction: { chainId: 42161, txnHash: hashes.origin, ...done },
    ...(hashes.destination
      ? {
          destinationTransaction: {
            chainId: 8453,
            txnHash: hashes.destination,
            tokenAmount: '249100000',
            ...(status === 'SUCCEEDED' ? done : { status: 'MINING' }),
          },
        }
      : {}),
    summary: {
      destinationToAddress: ACCOUNTS.user,
      destinationTokenAddress: token.address,
      destinationTokenMetadata: { symbol: 'USDC', decimals: 6 },
    },
  });
}
