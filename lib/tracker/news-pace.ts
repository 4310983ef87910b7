/**
 * How many of one intent's answers may count as news. News is what makes the tracker hurry: a long-poll that brought
 * news gives its token back and is followed at once by the next, and the sweeper keeps its busy pace after it. A
 * service whose status or leg states cycle through more states than the flapping memory holds (`rememberState`,
 * `FLAP_MEMORY_STATES`), or never repeat one, would otherwise be news on every answer: hundreds of requests a
 * minute from one intent (I5).
 *
 * So each intent may bring at most {@link NEWS_PER_STATUS} news while in one status; the count starts again only when
 * its status moves forward in QUOTED → COMMITTED → EXECUTING (which a status can do at most three times: a status
 * behind the believed one is stale, `isStatusBehind`). An answer past that is recorded as usual (the record shows
 * what the service said) but paced like an unchanged one: its intent's requests fall back to the idle pace whatever
 * the sequence of states, and a desk of such intents stays within the idle rate of I5. A final status is never held
 * back (the engine does not ask): it ends tracking anyway. Counting, not timing: no clock is read.
 */
import { progressRank } from './policy';

/**
 * News one intent may bring while in one status: an honest intent's leg steps (deposit, origin and destination each
 * through PENDING, SENT, MINING, SUCCEEDED, retries included) fit with room to spare.
 */
export const NEWS_PER_STATUS = 32;

/** The per-intent news counts of one tracker (in memory: a new worker starts every count again). */
export class NewsPace {
  readonly #counts = new Map<string, { rank: number; news: number }>();

  constructor(readonly perStatus: number = NEWS_PER_STATUS) {}

  /**
   * True when an answer of `intentId` showing `status` (a non-final one) may count as news, and counts it; false when
   * the intent brought {@link NEWS_PER_STATUS} news since its status last moved forward.
   */
  admit(intentId: string, status: string): boolean {
    const rank = progressRank(status);
    const c = this.#counts.get(intentId);
    const count = c && rank <= c.rank ? c : { rank: Math.max(rank, c?.rank ?? -1), news: 0 };
    const admitted = count.news < this.perStatus;
    this.#counts.set(intentId, admitted ? { rank: count.rank, news: count.news + 1 } : count);
    return admitted;
  }

  /** Forgets an intent (removed, or no longer tracked). */
  forget(intentId: string): void {
    this.#counts.delete(intentId);
  }
}
