/**
 * The simulator on real local chains (issue 28): two anvils with the chain ids of Arbitrum One (42161, origin) and Base
 * (8453, destination), the repository's ERC-20 ("USDC", 6 decimals) on each, and every leg of a chain intent made as a
 * real transaction, so that its receipt names hashes the chains know. The chain always knows a transaction first: each
 * leg's transaction is sent {@link LEAD_MS} before the step in which the leg first appears, and a step that shows its
 * real hash waits until the send has ended (`stepShown` in ./lifecycle.ts).
 *
 * Chain scenarios (`createIntent(scenario)` with a {@link ChainWorld} attached):
 * - `chain-success`: deposit (user → intent address, Arbitrum One), origin (intent address → solver, Arbitrum One),
 *   destination (solver → user, Base), all as the receipt says;
 * - `chain-revert`: the destination transaction reverts on Base; the service says SUCCEEDED all the same;
 * - `chain-smaller`: the destination transfer moves 200 USDC where the receipt says 249.10;
 * - `chain-lagging`: the destination transfer is mined while the service shows it MINING and the intent EXECUTING
 *   for four more steps (the chain is ahead of the service);
 * - `chain-reorg`: as chain-success, then one step after SUCCEEDED is shown the Base chain re-orgs the destination's
 *   block away (tests that must first see the leg confirmed re-org on cue instead: {@link ChainWorld.reorgDestination});
 * - `chain-missing`: the service calls a destination hash mined that no chain ever had.
 */
import type { Address, Hash } from 'viem';
import { ACCOUNTS, type Anvil, mine, reorg, sendTransfer, startChains, type Token } from './chain/anvil';
import { LEGS, type Leg, legHash, type SimIntent, type Step, stepStart } from './lifecycle';
import { type SimToken, tokenBySymbol } from './tokens';

/** The scenarios played on the local chains. */
export const CHAIN_SCENARIOS = ['chain-success', 'chain-revert', 'chain-smaller', 'chain-lagging', 'chain-reorg', 'chain-missing'] as const;
export type ChainScenario = (typeof CHAIN_SCENARIOS)[number];

/** How long before its step a leg's transaction is sent (ms): the chain knows it before the service shows it. */
export const LEAD_MS = 400;

/** Raw USDC amounts (6 decimals): 250 in, 249.10 out, 200 for the smaller transfer. */
export const AMOUNTS = { origin: 250_000_000n, destination: 249_100_000n, smaller: 200_000_000n } as const;

const ok = { status: 'SUCCEEDED', mined: true };

/** The script of the lagging service: the destination is MINING (real hash) for four steps before SUCCEEDED. */
const LAGGING: Step[] = [
  { intent: 'COMMITTED' },
  { intent: 'EXECUTING', deposit: { status: 'PENDING', mined: false } },
  { intent: 'EXECUTING', span: 2, deposit: ok, origin: { status: 'RELAYING', mined: false, placeholder: true } },
  { intent: 'EXECUTING', span: 4, deposit: ok, origin: ok, destination: { status: 'MINING', mined: false } },
  { intent: 'SUCCEEDED', deposit: ok, origin: ok, destination: ok },
];

/** The script of a chain scenario, or undefined to use the success script. */
export function chainScript(scenario: ChainScenario): Step[] | undefined {
  return scenario === 'chain-lagging' ? LAGGING : undefined;
}

/** What the chain world keeps of one chain intent. Hashes appear as the transactions are sent. */
export interface ChainIntent {
  scenario: ChainScenario;
  hashes: Partial<Record<Leg, Hash>>;
  /** Legs whose transaction is being sent. */
  sending: Set<Leg>;
  /** Simulated time (ms) at which the destination's hash came back from its chain (the re-org counts from it). */
  destinationKnownAt?: number;
  /**
   * A failure of a send (also in the world's log): the receipt keeps a placeholder for that leg, its steps are no
   * longer held for it, and the later legs are never sent.
   */
  error?: string;
  /** The re-org of the destination, once it has begun. */
  reorg?: Promise<void>;
}

/** The local chains, their tokens and the chain intents being played. */
export class ChainWorld {
  readonly played = new Map<string, { intent: SimIntent; chain: ChainIntent }>();
  readonly errors: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private blockTimer: NodeJS.Timeout | undefined;
  /** Chains (by chainId) on which {@link mineEvery}'s timer mines nothing for now. */
  private readonly blocksHeld = new Set<number>();
  private readonly queues = new Map<Anvil, Promise<unknown>>();
  /** The simulated clock (ms) of {@link run}. */
  private now: () => number = Date.now;

  private constructor(
    readonly origin: { anvil: Anvil; token: Token },
    readonly destination: { anvil: Anvil; token: Token },
  ) {}

  /**
   * Starts the two anvils, deploys the token on each and funds the user with 1,000,000 USDC on Arbitrum One. Throws
   * what failed; the anvils started by then are stopped first (the caller gets nothing to close).
   */
  static async start(): Promise<ChainWorld> {
    const [origin, destination] = await startChains([42161, 8453]);
    const world = new ChainWorld(origin!, destination!);
    try {
      await sendTransfer(origin!.anvil, origin!.token, ACCOUNTS.user, 10n ** 12n);
    } catch (error) {
      await world.close().catch(() => {});
      throw error;
    }
    return world;
  }

  /** JSON-RPC URL of each chain, by chainId. */
  rpcUrls(): Record<number, string> {
    return { [this.origin.anvil.chainId]: this.origin.anvil.url, [this.destination.anvil.chainId]: this.destination.anvil.url };
  }

  /** The simulated tokens of a chain intent: the catalogue's USDC entries at the local contracts' addresses. */
  tokens(): { origin: SimToken; destination: SimToken } {
    return {
      origin: { ...tokenBySymbol(42161, 'USDC'), address: this.origin.token.address },
      destination: { ...tokenBySymbol(8453, 'USDC'), address: this.destination.token.address },
    };
  }

  /** Plays `intent` (already made with {@link tokens}, {@link ACCOUNTS}.user as owner) as `scenario`. */
  play(intent: SimIntent, scenario: ChainScenario): ChainIntent {
    const chain: ChainIntent = { scenario, hashes: {}, sending: new Set() };
    if (scenario === 'chain-missing') chain.hashes.destination = legHash(intent, 'destination') as Hash;
    this.played.set(intent.intentId, { intent, chain });
    return chain;
  }

  /** Sends the transactions that are due at simulated time `now` (ms), every `tickMs`, until {@link close}. */
  run(now: () => number, tickMs = 100): void {
    this.now = now;
    this.timer = setInterval(() => this.tick(now()), tickMs);
    this.timer.unref();
  }

  /**
   * Also mines an empty block on each chain every `ms` (as a live chain keeps making blocks), so that confirmations
   * grow and legs become final while nothing else happens. Off by default: the tests count blocks themselves.
   */
  mineEvery(ms: number): void {
    this.blockTimer = setInterval(() => {
      for (const { anvil } of [this.origin, this.destination]) {
        if (this.blocksHeld.has(anvil.chainId)) continue;
        void this.queued(anvil, () => mine(anvil, 1)).catch((error: unknown) => this.errors.push(String(error)));
      }
    }, ms);
    this.blockTimer.unref();
  }

  /**
   * Holds (`held`: true) or resumes {@link mineEvery}'s blocks on the chain `chainId`; a transaction is still mined
   * in a block of its own as it arrives. A test that must read a leg before it is final holds the blocks from the
   * send to that read, whatever the read's delay.
   */
  holdBlocks(chainId: number, held: boolean): void {
    if (held) this.blocksHeld.add(chainId);
    else this.blocksHeld.delete(chainId);
  }

  /** One turn: sends each leg that is about to appear in the receipt, and plays the re-orgs that are due. */
  tick(now: number): void {
    for (const { intent, chain } of this.played.values()) {
      for (const leg of LEGS) {
        if (chain.hashes[leg] || chain.sending.has(leg)) continue;
        const at = appearsAt(intent, leg);
        if (at === undefined || now + LEAD_MS < at || !this.earlierLegsSent(intent, chain, leg)) continue;
        chain.sending.add(leg);
        this.queued(leg === 'destination' ? this.destination.anvil : this.origin.anvil, () => this.send(intent, chain, leg)).then(
          (hash) => {
            chain.hashes[leg] = hash;
            if (leg === 'destination') chain.destinationKnownAt = this.now();
          },
          (error: unknown) => {
            chain.error = `${intent.intentId} ${leg}: ${String(error)}`;
            this.errors.push(chain.error);
          },
        );
      }
      // One step after SUCCEEDED is shown: at its scripted time, or once the destination's late send ended.
      const last = intent.script.length - 1;
      const shownAt = Math.max(intent.startedAt + stepStart(intent.script, last) * intent.stepMs, chain.destinationKnownAt ?? 0);
      if (chain.scenario === 'chain-reorg' && chain.hashes.destination && now >= shownAt + intent.stepMs) this.reorgOnce(chain);
    }
  }

  /**
   * Re-orgs the destination's block of the chain intent `intentId` away now (once per intent): for a test that must
   * first see the leg confirmed, whatever the load — a re-org on the scenario's clock can come before the extension
   * has read the leg at all. Throws when the intent is not a chain intent or its destination is not sent yet.
   */
  async reorgDestination(intentId: string): Promise<void> {
    const chain = this.played.get(intentId)?.chain;
    if (!chain?.hashes.destination) throw new Error(`${intentId}: no destination transaction on the chain to re-org away`);
    await this.reorgOnce(chain);
  }

  /** The destination's re-org: begun at the first call, the same promise after (a failure also goes to the log). */
  private reorgOnce(chain: ChainIntent): Promise<void> {
    const hash = chain.hashes.destination;
    if (chain.reorg || !hash) return chain.reorg ?? Promise.resolve();
    chain.reorg = this.queued(this.destination.anvil, () => this.reorgAway(hash));
    chain.reorg.catch((error: unknown) => this.errors.push(String(error)));
    return chain.reorg;
  }

  /**
   * True once every leg before `leg` (deposit, origin, destination, refund) that the script has is sent: the intent
   * address pays the origin leg out of the deposit, so the deposit must be mined first (automine mines a transaction
   * before its hash is returned).
   */
  private earlierLegsSent(intent: SimIntent, chain: ChainIntent, leg: Leg): boolean {
    return LEGS.slice(0, LEGS.indexOf(leg)).every((l) => chain.hashes[l] || appearsAt(intent, l) === undefined);
  }

  /** Stops sending and stops both anvils. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.blockTimer);
    await Promise.all([this.origin.anvil.stop(), this.destination.anvil.stop()]);
  }

  /** Runs `job` after the chain's earlier sends: anvil's accounts are shared, and concurrent sends race for nonces. */
  private queued<T>(anvil: Anvil, job: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(anvil) ?? Promise.resolve();
    const next = previous.then(job, job);
    this.queues.set(
      anvil,
      next.catch(() => undefined),
    );
    return next;
  }

  private send(intent: SimIntent, chain: ChainIntent, leg: Leg): Promise<Hash> {
    const { origin, destination } = this;
    const amount = BigInt(leg === 'destination' ? intent.destinationAmount : intent.originAmount);
    switch (leg) {
      case 'deposit':
        return sendTransfer(origin.anvil, origin.token, ACCOUNTS.intent, amount, { from: ACCOUNTS.user });
      case 'origin':
        return sendTransfer(origin.anvil, origin.token, ACCOUNTS.deployer, amount, { from: ACCOUNTS.intent });
      case 'refund':
        return sendTransfer(origin.anvil, origin.token, ACCOUNTS.user, amount, { from: ACCOUNTS.intent });
      case 'destination':
        if (chain.scenario === 'chain-revert')
          return sendTransfer(destination.anvil, destination.token, ACCOUNTS.user, amount, { revert: true });
        return sendTransfer(
          destination.anvil,
          destination.token,
          ACCOUNTS.user,
          chain.scenario === 'chain-smaller' ? AMOUNTS.smaller : amount,
        );
    }
  }

  /** Re-orgs the destination chain deep enough that the block of `hash` is replaced, and one block more is mined. */
  private async reorgAway(hash: Hash): Promise<void> {
    const { anvil } = this.destination;
    const receipt = await anvil.public.getTransactionReceipt({ hash });
    const head = await anvil.public.getBlockNumber({ cacheTime: 0 });
    await reorg(anvil, Number(head - receipt.blockNumber) + 1);
    await mine(anvil, 1);
  }
}

/** Simulated time (ms) of the first step at which the receipt shows `leg`; undefined: never. */
export function appearsAt(intent: SimIntent, leg: Leg): number | undefined {
  const i = intent.script.findIndex((s) => s[leg] !== undefined);
  return i < 0 ? undefined : intent.startedAt + stepStart(intent.script, i) * intent.stepMs;
}

/** The owner (and `destinationToAddress`) and the intent address of every chain intent. */
export const CHAIN_ACCOUNTS: { owner: Address; intentAddress: Address } = { owner: ACCOUNTS.user, intentAddress: ACCOUNTS.intent };
