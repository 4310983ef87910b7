/**
 * What a stored verdict keeps of a leg seen in a block (docs/chain.md, "In the worker"): its block, the confirmations at
 * the time of the read, whether it was final, and for the destination what it moved — so that a leg stored final is
 * never read again, by a later check of this worker life or by the next life. Pure.
 */
import type { LegRef } from '../chain/legs';
import { transferOf } from '../chain/transfer';
import type { LegCheck } from '../chain/verify';
import type { ChainVerdictLeg } from '../store';

/** The fields of {@link ChainVerdictLeg} kept for `check` (none for a leg not in a block). */
export function keptOf(check: LegCheck): Partial<ChainVerdictLeg> {
  if (!('blockHash' in check)) return {};
  const received = 'transfer' in check && check.transfer ? { received: String(check.transfer.amount) } : {};
  return {
    blockNumber: String(check.blockNumber),
    blockHash: check.blockHash,
    confirmations: check.confirmations,
    final: check.kind === 'final' || (check.kind === 'reverted' && check.final),
    ...received,
  };
}

/**
 * The settled verdict a stored line keeps for `ref` (same leg, chain and transaction): `final`, or `reverted` and
 * final, with its block and confirmations, and for a destination the transfer it moved compared with what `ref`
 * expects now. Undefined when the line is of another transaction, not final, or lacks a kept field (stored before they
 * were kept, or a destination stored without its transfer): that leg is read again.
 */
export function keptCheck(line: ChainVerdictLeg | undefined, ref: LegRef): LegCheck | undefined {
  if (!line || line.leg !== ref.leg || line.chainId !== ref.chainId || line.txnHash?.toLowerCase() !== ref.txnHash) return undefined;
  const { blockNumber, blockHash, confirmations, final, received } = line;
  if (final !== true || !blockNumber || !/^\d+$/.test(blockNumber) || !blockHash || confirmations === undefined) return undefined;
  const inBlock = { blockNumber: BigInt(blockNumber), blockHash, confirmations };
  if (line.kind === 'reverted') return { kind: 'reverted', final: true, ...inBlock };
  if (line.kind !== 'final') return undefined;
  if (!ref.transfer) return { kind: 'final', ...inBlock };
  if (!received || !/^\d+$/.test(received)) return undefined;
  return { kind: 'final', ...inBlock, transfer: transferOf(BigInt(received), ref.transfer) };
}
