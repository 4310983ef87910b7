/**
 * Simulated intents and their lifecycles. An intent runs a script of steps, each lasting `span` × `stepMs` (the
 * bridge leg takes longer than a deposit, as on real routes); at simulated time `now` it is at the step whose time
 * has come (clamped to the last step). Each step names the intent status and the state
 * of each leg. `snapshotAt` renders the IntentReceipt (spec §2.2, deployed wire form: string amounts, `type` on
 * legs, extra fields); `intentAt` renders the Intent (spec §2.7).
 */
import { createHash } from 'node:crypto';
import { type SimToken, usdOf } from './tokens';

/** Scenarios the control API can start. */
export const SCENARIOS = ['success', 'failure', 'refund', 'slow', 'stuck', 'not-found-until-later'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** State of one leg at one step. */
export interface LegState {
  status: string;
  mined: boolean;
  /** The hash is a placeholder (not on-chain). */
  placeholder?: boolean;
  /** The leg carries the intent's failure reason. */
  reason?: boolean;
}

/** One step of a script. */
export interface Step {
  intent: string;
  /** How long the step lasts, in units of the intent's `stepMs` (default 1). */
  span?: number;
  deposit?: LegState;
  origin?: LegState;
  destination?: LegState;
  refund?: LegState;
}

export const LEGS = ['deposit', 'origin', 'destination', 'refund'] as const;
export type Leg = (typeof LEGS)[number];

/** One simulated intent. Amounts are raw decimal strings; times are simulated-clock ms. */
export interface SimIntent {
  intentId: string;
  numericId: number;
  projectId: number;
  ownerAddress: string;
  origin: SimToken;
  destination: SimToken;
  originAmount: string;
  destinationAmount: string;
  createdAt: number;
  /** When the script starts (createdAt, or the ExecuteIntent time for quoted intents). */
  startedAt: number;
  stepMs: number;
  script: Step[];
  failureReason: string;
  /** The service answers NotFound before this time (not-found-until-later). */
  visibleAt?: number;
  /** Made by `createIntent` (a test's or the demo's intent), not by the data set, QuoteIntent or the busy stream. */
  scripted?: boolean;
  /** Whether GetIntentHistory lists it: false models an intent of another project; unset follows the simulator. */
  inHistory?: boolean;
  /** Funds left at the intent address (for includeBalances / onlyRecoverable). */
  balance?: { token: SimToken; amount: string };
  /** Quote's estimated duration in seconds (from execution start to the end); absent: the quote has none. */
  estimatedDuration?: number;
  /** For intents made by QuoteIntent: the quoted Intent as sent (wire JSON text) and commit time. */
  quotedWire?: string;
  committedAt?: number;
  /**
   * An intent played on the local chains (./chains.ts): its legs' real transaction hashes, as they are sent, and the
   * failure of a send (`error`). A step that shows a leg's real hash waits until the chain has that transaction
   * ({@link stepShown}); once a send has failed, nothing waits and the leg shows a placeholder.
   */
  onChain?: { hashes: Partial<Record<Leg, string>>; error?: string };
  /** The intent address, when it is not derived from the intentId (a chain intent's is an anvil account). */
  intentAddress?: string;
}

/** Hex digest of the parts, used for deterministic ids, addresses and hashes. */
export function hexOf(...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** A 0x address derived from the parts. */
export function addressOf(...parts: Array<string | number>): string {
  return `0x${hexOf(...parts).slice(0, 40)}`;
}

const done = (status: string): LegState => ({ status, mined: status === 'SUCCEEDED' });
const ok: LegState = { status: 'SUCCEEDED', mined: true };

/** The script of each scenario. */
export const SCRIPTS: Record<'success' | 'failure' | 'refund' | 'stuck', Step[]> = {
  success: [
    { intent: 'COMMITTED' },
    { intent: 'EXECUTING', deposit: { status: 'PENDING', mined: false } },
    { intent: 'EXECUTING', span: 2, deposit: ok, origin: { status: 'RELAYING', mined: false, placeholder: true } },
    { intent: 'EXECUTING', deposit: ok, origin: ok, destination: { status: 'PENDING', mined: false, placeholder: true } },
    { intent: 'SUCCEEDED', deposit: ok, origin: ok, destination: ok },
  ],
  failure: [
    { intent: 'COMMITTED' },
    { intent: 'EXECUTING', deposit: { status: 'PENDING', mined: false } },
    { intent: 'EXECUTING', span: 2, deposit: ok, origin: { status: 'RELAYING', mined: false, placeholder: true } },
    { intent: 'FAILED', deposit: ok, origin: { status: 'FAILED', mined: false, placeholder: true, reason: true } },
  ],
  refund: [
    { intent: 'COMMITTED' },
    { intent: 'EXECUTING', deposit: { status: 'PENDING', mined: false } },
    { intent: 'EXECUTING', span: 2, deposit: ok, origin: { status: 'RELAYING', mined: false, placeholder: true } },
    {
      intent: 'EXECUTING',
      span: 2,
      deposit: ok,
      origin: { status: 'REVERTED', mined: true, reason: true },
      refund: { status: 'PENDING', mined: false },
    },
    { intent: 'REFUNDED', deposit: ok, origin: { status: 'REVERTED', mined: true, reason: true }, refund: ok },
  ],
  stuck: [
    { intent: 'COMMITTED' },
    { intent: 'EXECUTING', deposit: ok },
    { intent: 'EXECUTING', deposit: ok, origin: { status: 'ON_HOLD', mined: false, placeholder: true } },
  ],
};

/** Single-step scripts for intents of the data set, by final state. */
export function staticStep(status: string, legStates: Partial<Record<Leg, string>>, sameChain: boolean): Step {
  const step: Step = { intent: status };
  for (const leg of LEGS) {
    const s = legStates[leg];
    if (!s || (sameChain && leg === 'destination')) continue;
    const failed = ['FAILED', 'REVERTED', 'ERRORED', 'ABORTED'].includes(s);
    step[leg] = {
      ...done(s),
      mined: s === 'SUCCEEDED' || s === 'REVERTED',
      placeholder: !['SUCCEEDED', 'REVERTED', 'MINING', 'SENT'].includes(s),
      reason: failed,
    };
  }
  return step;
}

/** When step `i` of `script` starts, in units of `stepMs` after the script's start (the sum of the earlier spans). */
export function stepStart(script: readonly Step[], i: number): number {
  let t = 0;
  for (let k = 0; k < i && k < script.length; k++) t += script[k]!.span ?? 1;
  return t;
}

/** Units of `stepMs` from the script's start to its last step (its final state). */
export function scriptLength(script: readonly Step[]): number {
  return stepStart(script, script.length - 1);
}

/**
 * Whether step `i` of `intent` may be shown: always, but for an intent on the local chains, whose step naming a leg's
 * real hash (not a placeholder) waits until the chain has that transaction. The service reports a transaction it has
 * seen, never one still being sent: under load a send may end after the step's time (a receipt said SUCCEEDED with the
 * destination's placeholder, and the extension had nothing to verify). A failed send (`onChain.error`) holds nothing.
 */
export function stepShown(intent: SimIntent, i: number): boolean {
  const chain = intent.onChain;
  const step = intent.script[i];
  if (!chain || !step || chain.error !== undefined) return true;
  return LEGS.every((leg) => !step[leg] || step[leg].placeholder || chain.hashes[leg] !== undefined);
}

/**
 * Step index of an intent at `now`: the last step whose time has come, and that may be shown ({@link stepShown}; a
 * step held back holds every later one). A step shown late keeps its scripted time in the receipt's timestamps.
 */
export function stepIndex(intent: SimIntent, now: number): number {
  const elapsed = (now - intent.startedAt) / intent.stepMs;
  let i = 0;
  while (i < intent.script.length - 1 && stepStart(intent.script, i + 1) <= elapsed && stepShown(intent, i + 1)) i++;
  return i;
}

/** How often a wait held by a step not yet shown ({@link stepShown}) looks again (ms). */
export const SHOWN_RECHECK_MS = 50;

/** IntentStatus at `now` (what `snapshotAt(...).status` says, without building the receipt). */
export function statusAt(intent: SimIntent, now: number): string {
  return intent.script[stepIndex(intent, now)]!.intent;
}

/**
 * Simulated time of the next step after `now`, or undefined when the script is over. A next step whose time has come
 * but that is not shown yet ({@link stepShown}) is looked at again {@link SHOWN_RECHECK_MS} from `now`.
 */
export function nextStepAt(intent: SimIntent, now: number): number | undefined {
  const step = stepIndex(intent, now);
  if (step >= intent.script.length - 1) return undefined;
  const at = intent.startedAt + stepStart(intent.script, step + 1) * intent.stepMs;
  return at > now ? at : now + SHOWN_RECHECK_MS;
}

/** One turn of WaitIntentReceipt: answer now, or hold until `until` (the next step; undefined once the script is over). */
export type WaitTurn = { answer: Snapshot } | { hold: Snapshot; until: number | undefined };

/**
 * Decides one turn of WaitIntentReceipt at simulated time `t` (ms): answer when the intent is done or its leg
 * states differ from `lastStates`, else hold until the next step. Both halves read the same `t`: computed from two
 * clock readings, a step boundary falling between them made the wait hold to its deadline although the intent had
 * just reached its final step.
 */
export function waitTurn(intent: SimIntent, lastStates: readonly string[], t: number): WaitTurn {
  const snap = snapshotAt(intent, t);
  const changed = snap.states.length !== lastStates.length || snap.states.some((s, i) => s !== lastStates[i]);
  if (snap.done || changed) return { answer: snap };
  return { hold: snap, until: nextStepAt(intent, t) };
}

/** What the wait operation compares and answers with. */
export interface Snapshot {
  receipt: Record<string, unknown>;
  /** TransactionStatus of [deposit, origin, destination] (UNKNOWN where a leg does not exist yet). */
  states: string[];
  /** SUCCEEDED or FAILED: WaitIntentReceipt answers at once with done:true. */
  done: boolean;
  status: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The intent address (origin and destination share it in this simulation). */
export function intentAddressOf(intent: SimIntent): string {
  return intent.intentAddress ?? addressOf(intent.intentId, 'intent-address');
}

/** Transaction hash of a leg (the real-looking one, even where the receipt shows a placeholder). */
export function legHash(intent: SimIntent, leg: Leg): string {
  return `0x${hexOf(intent.intentId, leg)}`;
}

function tokenMetadata(t: SimToken) {
  return { chainId: t.chainId, tokenAddress: t.address, name: t.name, symbol: t.symbol, decimals: t.decimals, logoUri: t.logoUri };
}

/** The receipt of `intent` at simulated time `now` (ms). */
export function snapshotAt(intent: SimIntent, now: number): Snapshot {
  const index = stepIndex(intent, now);
  const s = intent.script[index]!;
  const stepTime = (i: number) => Math.min(now, intent.startedAt + stepStart(intent.script, i) * intent.stepMs);
  const updatedAt = iso(index === 0 ? intent.createdAt : stepTime(index));
  const intentAddress = intentAddressOf(intent);
  const leg = (kind: Leg, legId: number) => {
    const state = s[kind];
    if (!state) return undefined;
    const token = kind === 'destination' ? intent.destination : intent.origin;
    const firstStep = intent.script.findIndex((x) => x[kind] !== undefined);
    const minedStep = intent.script.findIndex((x) => x[kind]?.mined);
    const hash = legHash(intent, kind);
    const real = intent.onChain ? intent.onChain.hashes[kind] : hash;
    return {
      id: intent.numericId * 10 + legId,
      intentId: intent.intentId,
      type: kind.toUpperCase(),
      chainId: token.chainId,
      fromAddress: kind === 'deposit' ? intent.ownerAddress : intentAddress,
      toAddress: kind === 'destination' || kind === 'refund' ? intent.ownerAddress : intentAddress,
      tokenAddress: token.address,
      tokenAmount: kind === 'destination' ? intent.destinationAmount : intent.originAmount,
      status: state.status,
      ...(state.reason ? { statusReason: intent.failureReason } : {}),
      bridgeGas: '0',
      txnHash: state.placeholder || !real ? `${hash.slice(0, 42)}${'0'.repeat(24)}` : real,
      ...(state.mined ? { txnMinedAt: iso(stepTime(Math.max(0, minedStep))) } : {}),
      statusUpdatedAt: updatedAt,
      createdAt: iso(Math.max(intent.createdAt, stepTime(Math.max(0, firstStep)))),
      updatedAt,
    };
  };
  const legs = { deposit: leg('deposit', 1), origin: leg('origin', 2), destination: leg('destination', 3), refund: leg('refund', 4) };
  const receipt: Record<string, unknown> = {
    id: intent.numericId,
    projectId: intent.projectId,
    intentId: intent.intentId,
    status: s.intent,
    ownerAddress: intent.ownerAddress,
    originChainId: intent.origin.chainId,
    destinationChainId: intent.destination.chainId,
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
      originTokenMetadata: tokenMetadata(intent.origin),
      destinationIntentAddress: intentAddress,
      destinationTokenAddress: intent.destination.address,
      destinationTokenAmount: intent.destinationAmount,
      quotedDestinationTokenAmount: intent.destinationAmount,
      destinationTokenMetadata: tokenMetadata(intent.destination),
      destinationToAddress: intent.ownerAddress,
      destinationHasCallData: false,
      destinationHasCallValue: false,
      memo: '',
      createdAt: iso(intent.createdAt),
      expiresAt: iso(intent.createdAt + 10 * 60_000),
      ...(index >= 1 ? { startedAt: iso(stepTime(1)) } : {}),
      ...(index === intent.script.length - 1 && intent.script.length > 1 ? { finishedAt: updatedAt } : {}),
    },
    createdAt: iso(intent.createdAt),
    updatedAt,
  };
  for (const kind of LEGS) {
    const tx = legs[kind];
    if (tx) {
      receipt[`${kind}TransactionId`] = tx.id;
      receipt[`${kind}Transaction`] = tx;
    }
  }
  return {
    receipt,
    states: [legs.deposit?.status ?? 'UNKNOWN', legs.origin?.status ?? 'UNKNOWN', legs.destination?.status ?? 'UNKNOWN'],
    done: s.intent === 'SUCCEEDED' || s.intent === 'FAILED',
    status: s.intent,
  };
}

/** Transaction hashes of every leg the intent has at `now` (placeholders excluded). */
export function hashesAt(intent: SimIntent, now: number): string[] {
  const snap = snapshotAt(intent, now).receipt;
  return LEGS.map((l) => (snap[`${l}Transaction`] as { txnHash?: string } | undefined)?.txnHash).filter(
    (h): h is string => !!h && !/0{10,}$/.test(h),
  );
}

/**
 * The Intent object (spec §2.7) of a simulated intent at `now`, in the deployed wire form. Quoted intents return
 * exactly what QuoteIntent sent (their status moved on).
 */
export function intentAt(intent: SimIntent, now: number): Record<string, unknown> {
  const status = snapshotAt(intent, now).status;
  if (intent.quotedWire) return { ...(JSON.parse(intent.quotedWire) as Record<string, unknown>), status };
  return buildIntent(intent, status);
}

/** Builds the full Intent object of spec §2.7 for `intent` in `status`. */
export function buildIntent(intent: SimIntent, status: string): Record<string, unknown> {
  const o = intent.origin;
  const d = intent.destination;
  const intentAddress = intentAddressOf(intent);
  const fromUsd = usdOf(BigInt(intent.originAmount), o);
  const toUsd = usdOf(BigInt(intent.destinationAmount), d);
  const feeUsd = Math.round((fromUsd - toUsd) * 100) / 100;
  const minOut = ((BigInt(intent.destinationAmount) * 995n) / 1000n).toString();
  const gas = (chainId: number) => ({
    chainId,
    totalGasLimit: 350_000,
    gasPrice: 1_200_000_000,
    nativeTokenSymbol: 'ETH',
    totalFeeAmount: '420000000000000',
    totalFeeUsd: '1.34',
    metaTxnFeeDetails: {
      metaTxnId: hexOf(intent.intentId, 'meta', chainId).slice(0, 32),
      estimatedGasLimit: 300_000,
      feeNative: 360_000_000_000_000,
    },
    metaTxnGasQuote: '0x',
    nativeTokenPriceUsd: 3200,
  });
  const impact = (v: number) => ({ priceImpact: v, priceImpactUsd: Math.round(v * fromUsd) / 100 });
  const calls = (chainId: number) => ({
    chainId,
    calls: [
      {
        to: intentAddress,
        value: '0',
        data: `0x${hexOf(intent.intentId, 'call', chainId).slice(0, 16)}`,
        gasLimit: 200_000,
        delegateCall: false,
        onlyFallback: false,
        behaviorOnError: 1,
      },
    ],
    space: 0,
    nonce: intent.numericId,
  });
  return {
    id: intent.numericId,
    projectId: intent.projectId,
    intentId: intent.intentId,
    status,
    quoteRequest: {
      ownerAddress: intent.ownerAddress,
      originChainId: o.chainId,
      originTokenAddress: o.address,
      destinationChainId: d.chainId,
      destinationTokenAddress: d.address,
      destinationToAddress: intent.ownerAddress,
      originTokenAmount: intent.originAmount,
      onlyNativeGasFee: false,
      options: { swapProviderFallback: true, bridgeProviderFallback: true, slippageTolerance: 0.005 },
    },
    ownerAddress: intent.ownerAddress,
    originChainId: o.chainId,
    destinationChainId: d.chainId,
    originTokenAddress: o.address,
    destinationTokenAddress: d.address,
    originIntentAddress: intentAddress,
    salt: intent.numericId * 7919,
    depositTransaction: {
      toAddress: intentAddress,
      tokenAddress: o.address,
      amount: intent.originAmount,
      chainId: o.chainId,
      to: o.address,
      data: '0x',
      value: '0',
      decimals: o.decimals,
    },
    originCalls: calls(o.chainId),
    originPrecondition: {
      type: 'erc20-balance',
      chainId: o.chainId,
      ownerAddress: intentAddress,
      tokenAddress: o.address,
      minAmount: intent.originAmount,
    },
    originMetaTxn: {
      id: hexOf(intent.intentId, 'origin-meta').slice(0, 32),
      chainId: o.chainId,
      walletAddress: intentAddress,
      contract: intentAddress,
      input: '0x',
      bridgeGas: '0',
    },
    quote: {
      routeProviders: ['RELAY'],
      routeProvidersRequestIds: [hexOf(intent.intentId, 'relay').slice(0, 24)],
      routeProvidersFeeUsd: [feeUsd],
      fromAmount: intent.originAmount,
      fromAmountMin: intent.originAmount,
      fromAmountUsd: fromUsd,
      fromAmountMinUsd: fromUsd,
      toAmount: intent.destinationAmount,
      toAmountMin: minOut,
      toAmountUsd: toUsd,
      toAmountMinUsd: Math.round(toUsd * 99.5) / 100,
      maxSlippage: 0.005,
      priceImpact: 0.12,
      priceImpactUsd: Math.round(fromUsd * 0.12) / 100,
      priceImpactDetails: {
        executionPriceImpact: impact(0.05),
        marketPriceImpact: impact(0.02),
        providerFeesPriceImpact: impact(0.03),
        svcFeesPriceImpact: impact(0.02),
        netPriceImpact: impact(0.12),
      },
      ...(intent.estimatedDuration !== undefined ? { estimatedDuration: intent.estimatedDuration } : {}),
    },
    fees: {
      originGas: gas(o.chainId),
      destinationGas: gas(d.chainId),
      provider: {
        quoteProvider: 'RELAY',
        quoteProviderFee: '1000',
        quoteProviderFeeUsd: 0.001,
        svcFee: '2000',
        svcFeeUsd: 0.002,
        quoteProviderWithSvcFee: '3000',
        providerWithSvcFeeUsd: 0.003,
        totalFeeAmount: '3000',
        totalFeeUsd: 0.003,
      },
      feeTokenAddress: o.address,
      feeTokenAmount: '3000',
      feeTokenUsd: 0.003,
      feeTokenTotal: '3000',
      gasFeeTotal: '420000000000000',
      gasFeeUsd: 1.34,
      svcFeeTotal: '2000',
      svcFeeUsd: 0.002,
      collectorFeeTotal: '0',
      collectorFeeUsd: 0,
      providerFeeTotal: '1000',
      providerFeeUsd: 0.001,
      totalFeeAmount: '3000',
      totalFeeUsd: feeUsd,
    },
    svcVersion: 'v3',
    svcContracts: {
      svcIntentEntrypointAddress: addressOf('entrypoint'),
      svcRouterAddress: addressOf('router'),
      svcRouterShimAddress: addressOf('router-shim'),
      svcUtilsAddress: addressOf('utils'),
    },
    expiresAt: iso(intent.createdAt + 10 * 60_000),
    destinationIntentAddress: intentAddress,
    passthrough: false,
    destinationCalls: calls(d.chainId),
    destinationPrecondition: {
      type: 'erc20-balance',
      chainId: d.chainId,
      ownerAddress: intent.ownerAddress,
      tokenAddress: d.address,
      minAmount: minOut,
    },
    destinationMetaTxn: {
      id: hexOf(intent.intentId, 'dest-meta').slice(0, 32),
      chainId: d.chainId,
      walletAddress: intentAddress,
      contract: intentAddress,
      input: '0x',
      bridgeGas: '0',
    },
    gasFeeOptions: {
      gasEstimate: { totalGas: 350_000, gasPrice: '1200000000', nativeCost: '420000000000000', nativeCostUsd: 1.34 },
      feeOptions: [
        {
          tokenAddress: o.address,
          tokenSymbol: o.symbol,
          tokenDecimals: o.decimals,
          amount: '3000',
          amountUsd: 0.003,
          feeCollectorAddress: addressOf('collector'),
          is2612: true,
          isPassthroughEligible: false,
        },
      ],
      expiresAt: iso(intent.createdAt + 10 * 60_000),
      feeCollectorAddress: addressOf('collector'),
    },
    updatedAt: iso(intent.createdAt),
    createdAt: iso(intent.createdAt),
  };
}
