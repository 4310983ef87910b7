/**
 * The simulator's data set, generated from a fixed seed so that tests are reproducible: 320 intents over 3
 * projects, 24 owner addresses and 7 chains, every IntentStatus and every deployed TransactionStatus, same-chain and
 * cross-chain routes, failures with reasons, refunds with a refund leg, and intents whose intent address still holds
 * funds (some of them terminal: the recoverable ones).
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { addressOf, hexOf, type Leg, type SimIntent, staticStep } from './lifecycle';
import { CATALOGUE, convertRaw, SIM_CHAINS, type SimToken } from './tokens';

/** Size and shape of the data set. */
export const DATASET = {
  seed: 20261121,
  intents: 320,
  projects: [1, 2, 3],
  owners: 24,
  /** Creation times spread over the 30 days before this instant (ms). */
  endsAt: Date.UTC(2026, 10, 20, 12, 0, 0),
  spanMs: 30 * 86_400_000,
} as const;

/** Reasons a leg fails, as the deployed service words them. */
const REASONS = [
  'execution reverted: insufficient output amount (slippage 0.50% exceeded)',
  'execution reverted: ERC20: transfer amount exceeds balance',
  'relayer: meta-transaction expired before inclusion',
  'bridge: route provider rejected the transfer (amount below minimum)',
  'out of gas',
];

/**
 * Every (intent status, legs) shape used, chosen round-robin then at random, so that each IntentStatus and each
 * deployed TransactionStatus occurs.
 */
const SHAPES: Array<{ status: string; legs: Partial<Record<Leg, string>>; balance?: boolean }> = [
  { status: 'SUCCEEDED', legs: { deposit: 'SUCCEEDED', origin: 'SUCCEEDED', destination: 'SUCCEEDED' } },
  { status: 'FAILED', legs: { deposit: 'SUCCEEDED', origin: 'FAILED' }, balance: true },
  { status: 'FAILED', legs: { deposit: 'SUCCEEDED', origin: 'REVERTED' } },
  { status: 'FAILED', legs: { deposit: 'SUCCEEDED', origin: 'SUCCEEDED', destination: 'ERRORED' }, balance: true },
  { status: 'REFUNDED', legs: { deposit: 'SUCCEEDED', origin: 'FAILED', refund: 'SUCCEEDED' } },
  { status: 'ABORTED', legs: { deposit: 'SUCCEEDED', origin: 'ABORTED' }, balance: true },
  { status: 'EXECUTING', legs: { deposit: 'SUCCEEDED', origin: 'PENDING' } },
  { status: 'EXECUTING', legs: { deposit: 'SUCCEEDED', origin: 'RELAYING' } },
  { status: 'EXECUTING', legs: { deposit: 'SUCCEEDED', origin: 'SENT' } },
  { status: 'EXECUTING', legs: { deposit: 'SUCCEEDED', origin: 'SUCCEEDED', destination: 'MINING' }, balance: true },
  { status: 'EXECUTING', legs: { deposit: 'SUCCEEDED', origin: 'ON_HOLD' } },
  { status: 'COMMITTED', legs: { deposit: 'UNKNOWN' } },
  { status: 'QUOTED', legs: {} },
  { status: 'INVALID', legs: { deposit: 'UNKNOWN' } },
  { status: 'SUCCEEDED', legs: { deposit: 'SUCCEEDED', origin: 'SUCCEEDED', destination: 'SUCCEEDED' } },
  { status: 'SUCCEEDED', legs: { deposit: 'SUCCEEDED', origin: 'SUCCEEDED', destination: 'SUCCEEDED' } },
];

/** A raw amount of `token` worth between 5 and 25 000 USD (decimal string). */
export function randomRawAmount(rng: ReturnType<typeof xoroshiro128plus>, token: SimToken): string {
  const usd = uniformInt(rng, 5, 25_000);
  const cents = uniformInt(rng, 0, 99);
  const usdMicro = BigInt(usd) * 1_000_000n + BigInt(cents) * 10_000n;
  const priceMicro = BigInt(Math.round(token.priceUsd * 1e6));
  return ((usdMicro * 10n ** BigInt(token.decimals)) / priceMicro).toString();
}

/** Generates the data set. Pure: the same seed gives the same intents. */
export function generateDataset(seed: number = DATASET.seed): SimIntent[] {
  const rng = xoroshiro128plus(seed);
  const pick = <T>(items: readonly T[]): T => items[uniformInt(rng, 0, items.length - 1)]!;
  const owners = Array.from({ length: DATASET.owners }, (_, i) => addressOf(seed, 'owner', i));
  const out: SimIntent[] = [];
  const start = DATASET.endsAt - DATASET.spanMs;
  for (let i = 0; i < DATASET.intents; i++) {
    const shape = i < SHAPES.length ? SHAPES[i]! : pick(SHAPES);
    const originChain = pick(SIM_CHAINS);
    const sameChain = i >= SHAPES.length && uniformInt(rng, 0, 6) === 0;
    const destinationChain = sameChain ? originChain : pick(SIM_CHAINS.filter((c) => c !== originChain));
    const origin = pick(CATALOGUE.filter((t) => t.chainId === originChain));
    const destination = pick(CATALOGUE.filter((t) => t.chainId === destinationChain && (!sameChain || t !== origin)));
    const originAmount = randomRawAmount(rng, origin);
    const destinationAmount = convertRaw(BigInt(originAmount), origin, destination, 30).toString();
    const numericId = 1 + i;
    // Creation times increase with the id on the whole, but not strictly: a later id may have an earlier time.
    const createdAt = start + Math.floor((i / DATASET.intents) * DATASET.spanMs) + uniformInt(rng, 0, 3 * 3600) * 1000 + (i % 1000);
    const intentId = `0x${hexOf(seed, 'intent', i)}`;
    const intent: SimIntent = {
      intentId,
      numericId,
      projectId: pick(DATASET.projects),
      ownerAddress: pick(owners),
      origin,
      destination,
      originAmount,
      destinationAmount,
      createdAt: Math.floor(createdAt / 1000) * 1000 + (numericId % 1000),
      startedAt: createdAt,
      stepMs: 60_000,
      script: [staticStep(shape.status, shape.legs, sameChain)],
      failureReason: pick(REASONS),
      estimatedDuration: uniformInt(rng, 20, 600),
    };
    if (shape.balance && uniformInt(rng, 0, 1) === 0) {
      const left = (BigInt(originAmount) * BigInt(uniformInt(rng, 10, 100))) / 100n;
      intent.balance = { token: origin, amount: left.toString() };
    }
    out.push(intent);
  }
  return out;
}
