/**
 * What the chain-verification tests share (test/worker/chain-*.test.ts): one intent's receipt and its destination
 * transfer on Base (249.1 USDC to TO), the chain's answers to a read of a leg, a scripted chain reader, and the worker's
 * verifier and verification service built over it (lib/chain/verifier.ts, lib/worker/chain-verify.ts) on a clock the
 * test moves by hand; for the tests on the production wiring, a platform, the stored chain preferences, a simulated
 * Base holding the transfer and the stored verdict. Each test file keeps its own specific setup.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { IntentReceipt } from '@/lib/api/schemas/receipt';
import { RpcBudget, type RpcBudgetOptions } from '@/lib/chain/budget';
import type { LegRef } from '@/lib/chain/legs';
import type { ChainReader } from '@/lib/chain/rpc';
import { TRANSFER_TOPIC } from '@/lib/chain/transfer';
import { type ChainSetting, LegVerifier } from '@/lib/chain/verifier';
import type { LegCheck, LegObservation } from '@/lib/chain/verify';
import { type Platform, realTimers } from '@/lib/platform';
import type { ChainVerdict, ChainVerdictLeg } from '@/lib/store';
import { chainVerdictKey, readChainVerdict } from '@/lib/store/chain';
import { keptOf } from '@/lib/worker/chain-kept';
import { type ChainVerification, type ChainVerificationDeps, createChainVerification, type ToldStore } from '@/lib/worker/chain-verify';
import { CHAIN_PREFERENCES_KEY } from '@/lib/worker/chain-wiring';
import type { Anvil, Token } from '../../simulator/chain/anvil';
import { settle as settleRounds } from '../tracker/fakes';
import { SimChain } from '../world/chain-sim';

/** Base's chain id, where the destination leg (and the origin leg, when there is one) of {@link receipt} is. */
export const BASE_CHAIN_ID = 8453;
/** The destination's recipient (`destinationToAddress`), lower case. */
export const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
/** The destination token (USDC on Base, 6 decimals), lower case. */
export const TOKEN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
/** The destination leg's transaction hash. */
export const DEST_HASH = `0x${'d'.repeat(64)}` as const;
/** The origin leg's transaction hash (with `withOrigin`, {@link ReceiptOptions}). */
export const ORIGIN = `0x${'b'.repeat(64)}`;
/** The hash of block 100, where every observation below puts the transaction. */
export const BLOCK = `0x${'1a'.repeat(32)}`;
/** The amount the receipt names and the chain's transfer moves, in raw token units: 249.1 USDC. */
export const AMOUNT = 249_100_000n;
/** Arbitrum One's RPC URL in the tests on the production wiring (simulated chains behind the platform's fetch). */
export const ARB_RPC = 'https://arb.rpc.example';
/** Base's RPC URL in the tests on the production wiring. */
export const BASE_RPC = 'https://base.rpc.example';

/** An address as a 32-byte log topic (left-padded with zeros). */
const pad = (address: string) => `0x${'0'.repeat(24)}${address.slice(2)}`;

/** What {@link receipt} may change of its intent. */
export interface ReceiptOptions {
  /** Default `'0xintent'`. */
  intentId?: string;
  /** The destination leg's transaction (default {@link DEST_HASH}). */
  txnHash?: string;
  /** The destination leg's status (default `'SUCCEEDED'` when the intent's is, else `'MINING'`). */
  destinationStatus?: string;
  /** The amount the destination should receive, raw token units as a decimal string (default `'249100000'`). */
  tokenAmount?: string;
  /** When the service says the destination was mined (ISO 8601); none by default. */
  txnMinedAt?: string;
  /** An origin leg ({@link ORIGIN}, SUCCEEDED) besides the destination (default: none). */
  withOrigin?: boolean;
  /** The origin leg's chain, with `withOrigin` (default Base). */
  originChainId?: number;
  /** A destination leg (default true; false: the service names none yet). */
  withDestination?: boolean;
  /** The recipient (default {@link TO}). */
  to?: string;
  /** The destination token, 6 decimals, shown as USDC (default {@link TOKEN}). */
  token?: string;
}

/** The service's receipt of an intent at `status` (e.g. `'EXECUTING'`, `'SUCCEEDED'`): a destination leg on Base. */
export const receipt = (status: string, o: ReceiptOptions = {}): IntentReceipt =>
  IntentReceipt.parse({
    intentId: o.intentId ?? '0xintent',
    status,
    ...(o.withOrigin ? { originTransaction: { chainId: o.originChainId ?? BASE_CHAIN_ID, txnHash: ORIGIN, status: 'SUCCEEDED' } } : {}),
    ...(o.withDestination === false
      ? {}
      : {
          destinationTransaction: {
            chainId: BASE_CHAIN_ID,
            txnHash: o.txnHash ?? DEST_HASH,
            status: o.destinationStatus ?? (status === 'SUCCEEDED' ? 'SUCCEEDED' : 'MINING'),
            tokenAmount: o.tokenAmount ?? '249100000',
            ...(o.txnMinedAt === undefined ? {} : { txnMinedAt: o.txnMinedAt }),
          },
        }),
    summary: {
      destinationToAddress: o.to ?? TO,
      destinationTokenAddress: o.token ?? TOKEN,
      destinationTokenMetadata: { symbol: 'USDC', decimals: 6 },
    },
  });

/** The chain's answers to a read of one leg, each seen with the chain's head at block `head`. */
export interface Observations {
  /** The destination's transfer, exactly what {@link receipt} expects ({@link AMOUNT} of TOKEN to TO), in block 100. */
  received(head: bigint): LegObservation;
  /** A transaction in block 100 with no transfer to compare (e.g. the origin leg). */
  inBlock(head: bigint): LegObservation;
  /** The chain does not know the transaction (not mined yet, or re-orged out). */
  gone(head: bigint): LegObservation;
}

/**
 * The chain's answers, naming the chain they came from (`eth_chainId`) when `chainId` is given (e.g. 8453), else
 * none (the verifier then takes them as the leg's chain).
 */
export function observations(chainId?: number): Observations {
  const from = chainId === undefined ? {} : { chainId };
  const received = (head: bigint): LegObservation => ({
    receipt: {
      status: 'success',
      blockNumber: 100n,
      blockHash: BLOCK,
      to: TOKEN,
      logs: [{ address: TOKEN, topics: [TRANSFER_TOPIC, pad(TOKEN), pad(TO)], data: `0x${AMOUNT.toString(16).padStart(64, '0')}` }],
    },
    head,
    ...from,
    canonicalBlockHash: BLOCK,
  });
  return {
    received,
    inBlock: (head) => ({ ...received(head), receipt: { ...received(head).receipt!, logs: [] } }),
    gone: (head) => ({ receipt: null, head, ...from }),
  };
}

/** A promise and its resolve and reject, for the test to settle when it likes. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** One answer of a scripted chain: an observation, or a function answering one when it likes. */
export type Answer = LegObservation | (() => Promise<LegObservation>);

/**
 * A chain reader answering from a script: `answers` in turn (whatever the hash), or per transaction hash in turn.
 * The arrays are the caller's, emptied as they are read; a read with no answer left rejects ("no more answers").
 * `asked` lists the hashes read, in order.
 */
export function scriptedReader(answers: Answer[] | Record<string, Answer[]>): ChainReader & { readonly asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    observe: async (hash) => {
      asked.push(hash);
      const answer = Array.isArray(answers) ? answers.shift() : answers[hash]?.shift();
      if (answer === undefined) throw new Error('no more answers');
      return typeof answer === 'function' ? answer() : answer;
    },
  };
}

/** The chain settings with only Base enabled, at `rpcUrl` and final at `finalityDepth` confirmations. */
export const baseOnly =
  (rpcUrl: string, finalityDepth: number) =>
  (chainId: number): ChainSetting | undefined =>
    chainId === BASE_CHAIN_ID ? { rpcUrl, finalityDepth } : undefined;

/** A told-set in memory (`keys`): what the worker keeps in storage.local so that a disagreement is told once. */
export function toldSet(keys = new Set<string>()): ToldStore & { readonly keys: Set<string> } {
  return { keys, has: async (k) => keys.has(k), add: async (k) => void keys.add(k) };
}

/** How {@link chainVerification} builds the verifier and the service. */
export interface ChainVerificationOptions {
  /** Reads every chain (e.g. {@link scriptedReader}); the verifier's fetch is never called. */
  reader: ChainReader;
  /** The enabled chains (default: Base only, at https://rpc.example.org, final at 10 confirmations). */
  setting?: (chainId: number) => ChainSetting | undefined;
  /** The RPC budget's tuning (default `{ burst: 100 }`: ample); `{}` for the production defaults. */
  budget?: Omit<RpcBudgetOptions, 'monotonic'>;
  /** Which disagreements were told (default: none ever, nothing remembered; {@link toldSet} remembers). */
  told?: ToldStore;
  /** The notification pipeline (default: takes every telling, shows nothing). */
  notify?: ChainVerificationDeps['notify'];
}

/** The verifier and service factories of {@link chainVerification}, and the hand of their clock. */
export interface ChainVerificationHarness {
  /** A new verifier (a new worker life's: no memory of any leg, its own budget) on the shared clock and reader. */
  newVerifier(): LegVerifier;
  /** A new service over `verifier` (default: a new one), with the options' setting, told-set and pipeline. */
  newService(verifier?: LegVerifier): ChainVerification;
  /** Moves the monotonic clock (starting at 0) on by `ms` milliseconds (default a minute); returns the new time. */
  later(ms?: number): number;
}

/**
 * The worker's verifier (LegVerifier on real timers, its reader `o.reader` for every RPC URL) and its verification
 * service (createChainVerification), on a monotonic clock moved by `later`.
 */
export function chainVerification(o: ChainVerificationOptions): ChainVerificationHarness {
  let now = 0;
  const setting = o.setting ?? baseOnly('https://rpc.example.org', 10);
  const newVerifier = () =>
    new LegVerifier({
      timers: realTimers,
      fetch: () => Promise.reject(new Error('scripted')),
      monotonic: () => now,
      setting,
      budget: new RpcBudget({ monotonic: () => now, ...(o.budget ?? { burst: 100 }) }),
      reader: () => o.reader,
    });
  return {
    newVerifier,
    newService: (verifier = newVerifier()) =>
      createChainVerification({
        verifier,
        setting,
        told: o.told ?? { has: async () => false, add: async () => {} },
        notify: o.notify ?? (async () => {}),
      }),
    later: (ms = 60_000) => (now += ms),
  };
}

/**
 * A platform for the production wiring (createChainVerifierOnPlatform) on `fetch` (e.g. test/world/chain-sim.ts
 * `rpcFetch`), WXT's fakeBrowser, a clock whose `now` and `monotonic` both read `clock` (ms; default always 0) and
 * timers that never fire.
 */
export function quietPlatform(
  fetch: Platform['fetch'],
  clock: () => number = () => 0,
): Pick<Platform, 'fetch' | 'clock' | 'timers' | 'browser'> {
  return {
    fetch,
    clock: { now: clock, monotonic: clock, sleep: async () => {} },
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    browser: fakeBrowser as unknown as Platform['browser'],
  };
}

/**
 * Resets fakeBrowser, then turns Arbitrum One ({@link ARB_RPC}, final at 20 confirmations; unless `arbitrum` is
 * false) and Base ({@link BASE_RPC}, final at `baseDepth` confirmations) on in the stored chain preferences.
 */
export async function armedChains(baseDepth: number, { arbitrum = true } = {}): Promise<void> {
  fakeBrowser.reset();
  await fakeBrowser.storage.local.set({
    [CHAIN_PREFERENCES_KEY]: {
      ...(arbitrum ? { 42161: { enabled: true, rpcUrl: ARB_RPC, finalityDepth: 20 } } : {}),
      8453: { enabled: true, rpcUrl: BASE_RPC, finalityDepth: baseDepth },
    },
  });
}

/**
 * A simulated Base (test/world/chain-sim.ts) on which each of `hashes` (default {@link DEST_HASH}) moved {@link AMOUNT}
 * of TOKEN to TO, each in a block of its own, followed by `blocks` more blocks.
 */
export function paidBase(blocks: number, ...hashes: string[]): SimChain {
  const base = new SimChain(BASE_CHAIN_ID);
  for (const hash of hashes.length > 0 ? hashes : [DEST_HASH])
    base.include({ hash, status: 'success', token: TOKEN, to: TO, amount: AMOUNT });
  base.mine(blocks);
  return base;
}

/** Intent `intentId`'s chain verdict as stored in storage.local (fakeBrowser) and read back; undefined when none. */
export async function storedVerdict(intentId: string): Promise<ChainVerdict | undefined> {
  const key = chainVerdictKey(intentId);
  return readChainVerdict((await fakeBrowser.storage.local.get(key))[key]);
}

/** Lets every promise chain that can go on go on (50 turns of the task queue); a request the test holds stays held. */
export const settle = (): Promise<void> => settleRounds(50);

/** A real local chain with Base's chain id and the repository's ERC-20 on it, for a whole test file ({@link anvilOnBase}). */
export interface AnvilOnBase {
  /** The chain (`url`: its RPC URL), set once the file's `beforeAll` has run. */
  readonly anvil: Anvil;
  /** The ERC-20 deployed on it ("USDC", 6 decimals). */
  readonly token: Token;
  /**
   * Sends {@link AMOUNT} (raw units: 249.1 USDC) of `token` from anvil's deployer to its user (ACCOUNTS.user, {@link TO}
   * checksummed), waits until it is mined and returns its transaction hash.
   */
  paid(): Promise<`0x${string}`>;
}

/**
 * A real local chain with Base's chain id (anvil, simulator/chain/anvil.ts) and the repository's ERC-20 deployed on
 * it: started before the file's tests, stopped after them; fakeBrowser is reset before each test. Call at the top of a
 * test file.
 */
export function anvilOnBase(): AnvilOnBase {
  let sim: typeof import('../../simulator/chain/anvil');
  const chain = {
    paid: async () => {
      const hash = await sim.sendTransfer(chain.anvil, chain.token, sim.ACCOUNTS.user, AMOUNT);
      await sim.mined(chain.anvil, hash);
      return hash;
    },
  } as { anvil: Anvil; token: Token; paid(): Promise<`0x${string}`> };
  beforeAll(async () => {
    sim = await import('../../simulator/chain/anvil');
    chain.anvil = await sim.startAnvil(BASE_CHAIN_ID);
    chain.token = await sim.deployToken(chain.anvil);
  }, 30_000);
  afterAll(() => chain.anvil?.stop());
  beforeEach(() => fakeBrowser.reset());
  return chain;
}

/** What a destination leg should receive ({@link AMOUNT} of TOKEN to TO), as a LegRef's `transfer`. */
export const EXPECTED = { token: TOKEN, to: TO, amount: AMOUNT };
/** The destination leg ({@link DEST_HASH} on Base, mined says the service) expecting {@link EXPECTED}. */
export const DESTINATION: LegRef = {
  leg: 'destination',
  chainId: BASE_CHAIN_ID,
  txnHash: DEST_HASH,
  serviceMined: true,
  transfer: EXPECTED,
};

/** A final verdict of the destination in block `blockNumber` ({@link BLOCK}), {@link EXPECTED} received in full. */
export const finalReceived = (blockNumber: bigint, confirmations: number): LegCheck => ({
  kind: 'final',
  blockNumber,
  blockHash: BLOCK,
  confirmations,
  transfer: { kind: 'received', amount: AMOUNT, expected: EXPECTED },
});

/** The line a stored verdict keeps of leg `ref` checked `check` (lib/worker/chain-kept.ts), through JSON as storage.local keeps it. */
export const keptLine = (ref: LegRef, check: LegCheck): ChainVerdictLeg => ({
  leg: ref.leg,
  chainId: ref.chainId,
  txnHash: ref.txnHash,
  kind: check.kind,
  text: '',
  ...JSON.parse(JSON.stringify(keptOf(check))),
});
