/**
 * The busy-project mode: a steady stream of other owners' intents in the tracked intents' project, as the real
 * service sees thousands an hour. Arrivals are a Poisson process at `perHour`; each intent runs the success,
 * failure or refund script (85 / 10 / 5 %) from its creation to its final status over a lifetime drawn
 * log-uniformly between `minLifeMs` and `maxLifeMs`, so the intents finishing at any moment were created over a
 * spread of earlier times. When the mode starts, `backfillMs` of that stream is already there (some of it finished,
 * some still in flight), so that GetIntentHistory has thousands of rows from the first call.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { randomRawAmount } from './dataset';
import { addressOf, hexOf, SCRIPTS, type SimIntent, scriptLength, stepStart } from './lifecycle';
import { CATALOGUE, convertRaw, SIM_CHAINS } from './tokens';

/** Settings of the busy-project mode. Times in ms. */
export interface BusyOptions {
  /** Intents created per hour, which is also how many finish per hour once the stream runs (default 5 000). */
  perHour?: number;
  /** The stream's history present when the mode starts: intents created over this long before (default 1 hour). */
  backfillMs?: number;
  /** Shortest and longest time from creation to the final status (defaults 15 000 and 600 000). */
  minLifeMs?: number;
  maxLifeMs?: number;
  /** Seed of owners, routes, amounts, lifetimes and arrival times (default 1). */
  seed?: number;
}

/** Defaults of {@link BusyOptions}. */
export const BUSY_DEFAULTS = { perHour: 5000, backfillMs: 3_600_000, minLifeMs: 15_000, maxLifeMs: 600_000, seed: 1 } as const;

/** Owners of the busy stream: none is the simulator's demo owner (the tracked intents' owner). */
const OWNERS = 400;

/** Draws the busy stream's intents: arrival gaps and the intents themselves. */
export class BusyStream {
  readonly settings: Required<BusyOptions>;
  readonly #rng: ReturnType<typeof xoroshiro128plus>;
  readonly #seed: string;

  /** @param seed the simulator's seed, for ids and addresses. Throws an Error naming a setting that is not a number ≥ 0. */
  constructor(options: BusyOptions, seed: string) {
    this.#seed = seed;
    this.settings = { ...BUSY_DEFAULTS, ...options };
    for (const [name, v] of Object.entries(this.settings))
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${name} must be a number ≥ 0`);
    if (!(this.settings.minLifeMs > 0 && this.settings.maxLifeMs >= this.settings.minLifeMs))
      throw new Error('lifetimes must satisfy 0 < minLifeMs ≤ maxLifeMs');
    this.#rng = xoroshiro128plus(this.settings.seed);
  }

  /** Time to the next arrival (ms): exponential with mean 1 h / perHour; infinite at rate 0. */
  gap(): number {
    if (this.settings.perHour === 0) return Number.POSITIVE_INFINITY;
    return (-Math.log(1 - uniformFloat64(this.#rng)) * 3_600_000) / this.settings.perHour;
  }

  /** Arrival times (ms) of the stream over `[to - backfillMs, to]`, oldest first. */
  backfill(to: number): number[] {
    const times: number[] = [];
    for (let t = to - this.settings.backfillMs + this.gap(); t <= to; t += this.gap()) times.push(Math.floor(t));
    return times;
  }

  /** One of the stream's intents, created (and started) at `createdAt`, with the given numeric id. */
  intent(numericId: number, createdAt: number): SimIntent {
    const rng = this.#rng;
    const roll = uniformInt(rng, 0, 99);
    const script = roll < 85 ? SCRIPTS.success : roll < 95 ? SCRIPTS.failure : SCRIPTS.refund;
    const { minLifeMs, maxLifeMs } = this.settings;
    const lifeMs = minLifeMs * (maxLifeMs / minLifeMs) ** uniformFloat64(rng);
    const stepMs = Math.max(1, Math.round(lifeMs / scriptLength(script)));
    const originChain = SIM_CHAINS[uniformInt(rng, 0, SIM_CHAINS.length - 1)]!;
    const destinationChains = SIM_CHAINS.filter((c) => c !== originChain);
    const destinationChain = destinationChains[uniformInt(rng, 0, destinationChains.length - 1)]!;
    const origins = CATALOGUE.filter((t) => t.chainId === originChain);
    const destinations = CATALOGUE.filter((t) => t.chainId === destinationChain);
    const origin = origins[uniformInt(rng, 0, origins.length - 1)]!;
    const destination = destinations[uniformInt(rng, 0, destinations.length - 1)]!;
    const originAmount = randomRawAmount(rng, origin);
    return {
      intentId: `0x${hexOf(this.#seed, 'busy', numericId)}`,
      numericId,
      projectId: 1,
      ownerAddress: addressOf(this.#seed, 'busy-owner', uniformInt(rng, 0, OWNERS - 1)),
      origin,
      destination,
      originAmount,
      destinationAmount: convertRaw(BigInt(originAmount), origin, destination, 30).toString(),
      createdAt,
      startedAt: createdAt,
      stepMs,
      script,
      failureReason: 'execution reverted: insufficient output amount (slippage 0.50% exceeded)',
      estimatedDuration: Math.round(((scriptLength(script) - stepStart(script, 1)) * stepMs) / 1000),
    };
  }
}
