/**
 * The transactions each tracked intent's legs named in this worker life that the chain verifier may remember
 * (lib/worker/chain-verify.ts): what removing the intent must make the verifier forget. A leg's transaction renamed by
 * the service is kept beside the new one, so that a verdict of the first is not taken up again by the intent tracked
 * anew, nor by another intent naming it (docs/chain.md). Legs of a chain not turned on, which the verifier does not
 * remember either, are not kept: a desk's thousands with no chain verified cost nothing here (docs/memory.md).
 */
import type { LegRef } from '../chain/legs';

/** A transaction a leg named: what the verifier's memory is keyed by. */
export type NamedTransaction = Pick<LegRef, 'chainId' | 'txnHash'>;

/** Per intent, the transactions its legs named. */
export class NamedTransactions {
  readonly #of = new Map<string, NamedTransaction[]>();

  /** Adds the transactions of `refs` (each once) to `intentId`'s; `refs` empty adds nothing and makes no entry. */
  add(intentId: string, refs: readonly NamedTransaction[]): void {
    if (refs.length === 0) return;
    const named = this.#of.get(intentId) ?? [];
    for (const { chainId, txnHash } of refs)
      if (!named.some((n) => n.chainId === chainId && n.txnHash === txnHash)) named.push({ chainId, txnHash });
    this.#of.set(intentId, named);
  }

  /** Every transaction `intentId`'s legs named (none: an empty list), forgotten here. */
  take(intentId: string): NamedTransaction[] {
    const named = this.#of.get(intentId) ?? [];
    this.#of.delete(intentId);
    return named;
  }
}
