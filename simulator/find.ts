/** Lookups over a running simulator's intents, for tests. */
import { snapshotAt } from './lifecycle';
import type { Simulator } from './server';

/** An intent whose destination leg has a real (non-placeholder) transaction hash now, with that hash. */
export function intentWithDestinationHash(sim: Simulator): { intentId: string; hash: string } {
  const now = sim.now();
  for (const i of sim.intents()) {
    const d = (snapshotAt(i, now).receipt as { destinationTransaction?: { txnHash: string } }).destinationTransaction;
    if (d && !/0{10,}$/.test(d.txnHash)) return { intentId: i.intentId, hash: d.txnHash };
  }
  throw new Error('the simulator has no intent with a destination hash');
}
