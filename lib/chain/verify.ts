/**
 * What the chain says about one leg of an intent (docs/chain.md): the pure decision from one observation of the chain
 * (the transaction's receipt, the head, the canonical hash of the receipt's block) and what the extension remembers
 * of earlier checks, to one {@link LegCheck}. No I/O, no clock: the transport (./rpc.ts) observes, the caller
 * measures durations on the monotonic clock.
 */
import { type ChainLog, checkTransfer, type ExpectedTransfer, type TransferCheck, transferAgain } from './transfer';

/** A transaction receipt as the chain gives it (viem's `getTransactionReceipt`, reduced to what is decided on). */
export interface ChainReceipt {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  blockHash: string;
  logs: readonly ChainLog[];
  /** The transaction's recipient (null for a contract creation). */
  to: string | null;
}

/** Where a transaction was seen in an earlier check (remembered so that a re-org can be told from "not yet"). */
export interface SeenBlock {
  blockNumber: bigint;
  blockHash: string;
}

/** One look at the chain for one transaction hash. */
export interface LegObservation {
  /** The receipt, or null when the chain does not know the hash (not mined yet, dropped, or re-orged out). */
  receipt: ChainReceipt | null;
  /** The chain's head block number at the time of the observation. */
  head: bigint;
  /** The chain id the endpoint answered for (`eth_chainId`); the verifier ignores an observation of another chain. */
  chainId?: number;
  /**
   * The hash of the canonical block at `receipt.blockNumber` now (null: the chain has no such block any more);
   * compared with `receipt.blockHash` to see that the receipt's block is still canonical. Unused without a receipt.
   */
  canonicalBlockHash?: string | null;
  /** The transaction's native value in wei (read only for a native-token destination leg). */
  value?: bigint;
}

/** What the verifier knows besides the observation. */
export interface LegContext {
  /** Confirmations at which the leg is final (the chain's finality depth, see KnownChain.finalityDepth). */
  finalityDepth: number;
  /** Where an earlier check saw the transaction (undefined: never seen). */
  seenBefore?: SeenBlock;
  /**
   * How long (ms, monotonic) the service has been saying this leg is mined (`txnMinedAt` set, or status SUCCEEDED /
   * FAILED); undefined while it does not say so.
   */
  serviceMinedForMs?: number;
  /** How long a transaction the service calls mined may stay unknown to the chain's RPC before it is `missing` (ms). */
  missingGraceMs: number;
  /** For the destination leg: the transfer the receipt promises. */
  transfer?: ExpectedTransfer;
}

/** Where a leg is in a block: its number and how many blocks confirm it (the including block counts as 1). */
export interface InBlock {
  blockNumber: bigint;
  confirmations: number;
  /** The block's hash, remembered as {@link SeenBlock} for the next check. */
  blockHash: string;
}

/**
 * The verdict on one leg:
 * - `not-seen`: the chain does not know the transaction (yet), and the service does not (yet, or not for long) call it
 *   mined;
 * - `confirmed`: in block `blockNumber` with `confirmations` < the finality depth, succeeded;
 * - `final`: succeeded, with at least the finality depth of confirmations (no more checks are needed);
 * - `reverted`: in a block, but the transaction reverted (`final` once past the depth);
 * - `missing`: the service has called it mined for longer than the grace, and the chain does not know it;
 * - `reorged`: it was seen in a block that is no longer canonical (or the receipt's block is not the canonical one).
 * `transfer` (destination leg) says what the transaction really moved.
 */
export type LegCheck =
  | { kind: 'not-seen' }
  | { kind: 'missing' }
  | { kind: 'reorged'; blockNumber: bigint }
  | ({ kind: 'reverted'; final: boolean } & InBlock)
  | ({ kind: 'confirmed' | 'final'; transfer?: TransferCheck } & InBlock);

/** Confirmations of a block at `blockNumber` when the head is `head` (0 when the head is behind it). */
export function confirmationsOf(blockNumber: bigint, head: bigint): number {
  return head < blockNumber ? 0 : Number(head - blockNumber) + 1;
}

/**
 * Decides what the chain says about a leg (docs/chain.md). Never throws. Rules, in order:
 * 1. No receipt: `reorged` if an earlier check saw it in a block; `missing` if the service has called it mined for
 *    at least `missingGraceMs`; `not-seen` otherwise.
 * 2. A receipt whose block is not the canonical block at its height: `reorged`.
 * 3. A reverted receipt: `reverted`, final past the depth.
 * 4. Otherwise `confirmed` (or `final` at `finalityDepth` confirmations), with the transfer check when expected.
 */
export function verifyLeg(observation: LegObservation, context: LegContext): LegCheck {
  const { receipt, head } = observation;
  if (!receipt) {
    if (context.seenBefore) return { kind: 'reorged', blockNumber: context.seenBefore.blockNumber };
    if (context.serviceMinedForMs !== undefined && context.serviceMinedForMs >= context.missingGraceMs) return { kind: 'missing' };
    return { kind: 'not-seen' };
  }
  const canonical = observation.canonicalBlockHash;
  if (canonical === null || (canonical !== undefined && canonical.toLowerCase() !== receipt.blockHash.toLowerCase())) {
    return { kind: 'reorged', blockNumber: receipt.blockNumber };
  }
  const confirmations = confirmationsOf(receipt.blockNumber, head);
  const inBlock: InBlock = { blockNumber: receipt.blockNumber, confirmations, blockHash: receipt.blockHash };
  const final = confirmations >= context.finalityDepth;
  if (receipt.status === 'reverted') return { kind: 'reverted', final, ...inBlock };
  const transfer = context.transfer
    ? checkTransfer(receipt.logs, context.transfer, { value: observation.value ?? 0n, txTo: receipt.to })
    : undefined;
  return { kind: final ? 'final' : 'confirmed', ...inBlock, ...(transfer ? { transfer } : {}) };
}

/** True when no further check can change the verdict: final, or reverted and final. */
export function isSettled(check: LegCheck): boolean {
  return check.kind === 'final' || (check.kind === 'reverted' && check.final);
}

/**
 * A settled verdict `check` judged against the transfer the receipt expects now (`expected`; undefined: none): a final
 * leg's transfer compared again from the amount it moved (its own, or one of `known`: what earlier reads of the same
 * final transaction counted for other recipients or tokens), without a read. Undefined when that cannot be told
 * without reading the chain again (`expected` names a recipient or token none of them was counted for).
 */
export function settledFor(
  check: LegCheck,
  expected: ExpectedTransfer | undefined,
  known: readonly TransferCheck[] = [],
): LegCheck | undefined {
  if (check.kind !== 'final' || (!check.transfer && !expected)) return check;
  const { transfer, ...inBlock } = check;
  if (!expected) return inBlock;
  for (const t of transfer ? [transfer, ...known] : known) {
    const again = transferAgain(t.amount, t.expected, expected);
    if (again) return { ...inBlock, transfer: again };
  }
  return undefined;
}
