/**
 * Scripted intent lifecycles of the simulator. An intent created with a scenario at time `createdAt` is at step
 * `floor((now - createdAt) / stepMs)` of its script (clamped to the last step); each step is a full receipt in the
 * deployed wire form (string amounts, `type` on legs, extra fields).
 */
import { createHash } from 'node:crypto';

/** Scenarios the simulator can run. */
export const SCENARIOS = ['success', 'failure'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** A token of the simulated world. Raw amounts are in the token's smallest unit. */
export interface SimToken {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
}

export const TOKENS = {
  usdcArbitrum: { chainId: 42161, address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', symbol: 'USDC', name: 'USD Coin', decimals: 6 },
  usdcBase: { chainId: 8453, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', symbol: 'USDC', name: 'USD Coin', decimals: 6 },
  wethOptimism: { chainId: 10, address: '0x4200000000000000000000000000000000000006', symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
  ethArbitrum: { chainId: 42161, address: '0x0000000000000000000000000000000000000000', symbol: 'ETH', name: 'Ether', decimals: 18 },
} satisfies Record<string, SimToken>;

/** The parameters of one simulated intent. Amounts are raw decimal strings. */
export interface SimIntent {
  intentId: string;
  numericId: number;
  projectId: number;
  scenario: Scenario;
  ownerAddress: string;
  origin: SimToken;
  destination: SimToken;
  originAmount: string;
  destinationAmount: string;
  /** Simulated-clock time of creation (ms) and the time between steps (ms). */
  createdAt: number;
  stepMs: number;
  /** Reason carried by the failed origin leg (failure scenario). */
  failureReason: string;
}

/** Hex digest of the parts, used for deterministic ids, addresses and hashes. */
export function hexOf(...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** A placeholder transaction hash (ends in zeros, wire notes): the leg is not on-chain yet. */
function placeholderHash(seed: string): string {
  return `0x${hexOf(seed).slice(0, 40)}${'0'.repeat(24)}`;
}

type LegState = { status: string; mined: boolean; placeholder?: boolean; reason?: string };
type Step = { intent: string; deposit?: LegState; origin?: LegState; destination?: LegState };

const SCRIPTS: Record<Scenario, Step[]> = {
  success: [
    { intent: 'COMMITTED' },
    { intent: 'EXECUTING', deposit: { status: 'PENDING', mined: false } },
    { intent: 'EXECUTING', deposit: { status: 'SUCCEEDED', mined: true }, origin: { status: 'RELAYING', mined: false, placeholder: true } },
    {
      intent: 'EXECUTING',
      deposit: { status: 'SUCCEEDED', mined: true },
      origin: { status: 'SUCCEEDED', mined: true },
      destination: { status: 'PENDING', mined: false, placeholder: true },
    },
    {
      intent: 'SUCCEEDED',
      deposit: { status: 'SUCCEEDED', mined: true },
      origin: { status: 'SUCCEEDED', mined: true },
      destination: { status: 'SUCCEEDED', mined: true },
    },
  ],
  failure: [
    { intent: 'COMMITTED' },
    { intent: 'EXECUTING', deposit: { status: 'PENDING', mined: false } },
    { intent: 'EXECUTING', deposit: { status: 'SUCCEEDED', mined: true }, origin: { status: 'RELAYING', mined: false, placeholder: true } },
    { intent: 'FAILED', deposit: { status: 'SUCCEEDED', mined: true }, origin: { status: 'FAILED', mined: false, placeholder: true, reason: 'FAIL' } },
  ],
};

/** Number of steps of a scenario (the last one is final). */
export function stepCount(scenario: Scenario): number {
  return SCRIPTS[scenario].length;
}

/** What the wait operation compares and answers with. */
export interface Snapshot {
  receipt: Record<string, unknown>;
  /** TransactionStatus of [deposit, origin, destination] (UNKNOWN where a leg does not exist yet). */
  states: string[];
  done: boolean;
  step: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The receipt of `intent` at simulated time `now` (ms). */
export function snapshotAt(intent: SimIntent, now: number): Snapshot {
  const script = SCRIPTS[intent.scenario];
  const step = Math.max(0, Math.min(script.length - 1, Math.floor((now - intent.createdAt) / intent.stepMs)));
  const s = script[step]!;
  const stepTime = (i: number) => intent.createdAt + i * intent.stepMs;
  const updatedAt = iso(stepTime(step));
  const intentAddress = `0x${hexOf(intent.intentId, 'intent-address').slice(0, 40)}`;
  const leg = (kind: 'deposit' | 'origin' | 'destination', state: LegState | undefined, legId: number) => {
    if (!state) return undefined;
    const token = kind === 'destination' ? intent.destination : intent.origin;
    const firstStep = script.findIndex((x) => x[kind] !== undefined);
    const minedStep = script.findIndex((x) => x[kind]?.mined);
    return {
      id: intent.numericId * 10 + legId,
      intentId: intent.intentId,
      type: kind.toUpperCase(),
      chainId: token.chainId,
      fromAddress: kind === 'deposit' ? intent.ownerAddress : intentAddress,
      toAddress: kind === 'destination' ? intent.ownerAddress : intentAddress,
      tokenAddress: token.address,
      tokenAmount: kind === 'destination' ? intent.destinationAmount : intent.originAmount,
      status: state.status,
      ...(state.reason ? { statusReason: intent.failureReason } : {}),
      bridgeGas: '0',
      txnHash: state.placeholder ? placeholderHash(`${intent.intentId}${kind}`) : `0x${hexOf(intent.intentId, kind)}`,
      ...(state.mined ? { txnMinedAt: iso(stepTime(minedStep)) } : {}),
      statusUpdatedAt: updatedAt,
      createdAt: iso(stepTime(firstStep)),
      updatedAt,
    };
  };
  const deposit = leg('deposit', s.deposit, 1);
  const origin = leg('origin', s.origin, 2);
  const destination = leg('destination', s.destination, 3);
  const meta = (t: SimToken) => ({ chainId: t.chainId, tokenAddress: t.address, name: t.name, symbol: t.symbol, decimals: t.decimals, logoUri: '' });
  const receipt: Record<string, unknown> = {
    id: intent.numericId,
    projectId: intent.projectId,
    intentId: intent.intentId,
    status: s.intent,
    ownerAddress: intent.ownerAddress,
    originChainId: intent.origin.chainId,
    destinationChainId: intent.destination.chainId,
    ...(deposit ? { depositTransactionId: deposit.id, depositTransaction: deposit } : {}),
    ...(origin ? { originTransactionId: origin.id, originTransaction: origin } : {}),
    ...(destination ? { destinationTransactionId: destination.id, destinationTransaction: destination } : {}),
    summary: {
      intentId: intent.intentId,
      status: s.intent,
      tradeType: 'EXACT_INPUT',
      ownerAddress: intent.ownerAddress,
      originChainId: intent.origin.chainId,
      destinationChainId: intent.destination.chainId,
      routeProviders: ['RELAY'],
      originIntentAddress: intentAddress,
      originTokenAddress: intent.origin.address,
      originTokenAmount: intent.originAmount,
      quotedOriginTokenAmount: intent.originAmount,
      originTokenMetadata: meta(intent.origin),
      destinationIntentAddress: intentAddress,
      destinationTokenAddress: intent.destination.address,
      destinationTokenAmount: intent.destinationAmount,
      quotedDestinationTokenAmount: intent.destinationAmount,
      destinationTokenMetadata: meta(intent.destination),
      destinationToAddress: intent.ownerAddress,
      destinationHasCallData: false,
      destinationHasCallValue: false,
      memo: '',
      createdAt: iso(intent.createdAt),
      expiresAt: iso(intent.createdAt + 10 * 60_000),
      ...(step >= 1 ? { startedAt: iso(stepTime(1)) } : {}),
      ...(step === script.length - 1 ? { finishedAt: updatedAt } : {}),
    },
    createdAt: iso(intent.createdAt),
    updatedAt,
  };
  const done = s.intent === 'SUCCEEDED' || s.intent === 'FAILED';
  return {
    receipt,
    states: [deposit?.status ?? 'UNKNOWN', origin?.status ?? 'UNKNOWN', destination?.status ?? 'UNKNOWN'],
    done,
    step,
  };
}

/** Simulated time (ms) of the next step after `now`, or undefined when the script is over. */
export function nextStepAt(intent: SimIntent, now: number): number | undefined {
  const step = Math.floor((now - intent.createdAt) / intent.stepMs);
  if (step >= stepCount(intent.scenario) - 1) return undefined;
  return intent.createdAt + (Math.max(0, step) + 1) * intent.stepMs;
}
