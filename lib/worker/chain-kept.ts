/**
 * What a stored verdict keeps of a leg seen in a block (docs/chain.md, "In the worker"): its block, the confirmations at
 * the time of the read, whether it was final, and for the destination what it moved — so that a leg stored final is
 * never read again, by a later check of this worker life or by the next life. Pure.
 */
import type { LegRef } from '../chain/legs';
import { transferOf } from '../chain/transfer';
import { isSettled, type LegCheck } from '../chain/verify';
import type { ChainVerdictLeg } from '../store';

/** The fields of {@link ChainVerdictLeg} kept for `check` (none for a leg not in a block). */
export function keptOf(check: LegCheck): Partial<ChainVerdictLeg> {
  if (!('blockHash' in check)) return {};
  const { blockNumber, blockHash, confirmations } = check;
  return {
    blockNumber: `${blockNumber}`,
    blockHash,
    confirmations,
    final: isSettled(check),
    ...('transfer' in check && check.transfer ? { received: `${check.transfer.amount}` } : {}),
  };
}

/**
 * The settled verdict `line` (the stored line of `ref`'s leg) keeps for `ref`, made for the same chain and
 * transaction: `final`, or `reverted` and final, with its block and confirmations, and for a destination the transfer
 * it moved compared with what `ref` expects now. Undefined when the line is of another chain or transaction, not
 * final, or lacks a kept field (stored before they were kept, a destination stored without its transfer, a number that
 * does not parse): that leg is read again.
 */
export function keptCheck(line: ChainVerdictLeg | undefined, ref: LegRef): LegCheck | undefined {
  if (line?.final !== true || line.chainId !== ref.chainId || line.txnHash?.toLowerCase() !== ref.txnHash) return undefined;
  const { kind, blockHash, confirmations, received } = line;
  if (!blockHash || confirmations === undefined) return undefined;
  try {
    // BigInt throws on a value that is not a number (or absent): the leg is then read again.
    const inBlock = { blockNumber: BigInt(line.blockNumber!), blockHash, confirmations };
    if (kind === 'reverted') return { kind, final: true, ...inBlock };
    if (kind === 'final' && (!ref.transfer || received))
      return { kind, ...inBlock, ...(ref.transfer ? { transfer: transferOf(BigInt(received!), ref.transfer) } : {}) };
  } catch {}
  return undefined;
}
