/**
 * What a stored verdict keeps of a leg seen in a block (docs/chain.md, "In the worker"): its block, the confirmations at
 * the time of the read, whether it was final, and for the destination what it moved, to whom and in which token — so that a leg stored final is
 * never read again, by a later check of this worker life or by the next life. Pure.
 */
import type { LegRef } from '../chain/legs';
import { transferAgain } from '../chain/transfer';
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
    ...('transfer' in check && check.transfer
      ? { received: `${check.transfer.amount}`, recipient: check.transfer.expected.to, token: check.transfer.expected.token }
      : {}),
  };
}

/**
 * The settled verdict `line` (the stored line of `ref`'s leg) keeps for `ref`, made for the same chain and
 * transaction: `final`, or `reverted` and final, with its block and confirmations, and for a destination the transfer
 * it moved compared with what `ref` expects now. Undefined when the line is of another chain or transaction, not
 * final, lacks a kept field (stored before they were kept, a destination stored without its transfer or without the
 * recipient and token it reached, a number that does not parse), or names another recipient or token than `ref`
 * expects now: that leg is read again.
 */
export function keptCheck(line: ChainVerdictLeg | undefined, ref: LegRef): LegCheck | undefined {
  if (line?.final !== true || line.chainId !== ref.chainId || line.txnHash?.toLowerCase() !== ref.txnHash) return undefined;
  const { kind, blockHash, confirmations, received, recipient: to, token } = line;
  if (!blockHash || confirmations === undefined) return undefined;
  try {
    // BigInt throws on a value that is not a number (or absent): the leg is then read again.
    const inBlock = { blockNumber: BigInt(line.blockNumber!), blockHash, confirmations };
    if (kind === 'reverted') return { kind, final: true, ...inBlock };
    const transfer = ref.transfer && to && token && transferAgain(BigInt(received!), { to, token }, ref.transfer);
    if (kind === 'final' && (!ref.transfer || transfer)) return { kind, ...inBlock, ...(transfer ? { transfer } : {}) };
  } catch {}
  return undefined;
}
