/**
 * What a new worker life (or a failed read) owes the on-chain verification (docs/chain.md, "In the worker"): which
 * tracked receipts must be checked again because their stored verdict does not cover them, and a retry with backoff
 * on the platform's timers for a read that failed. Pure but for the timers.
 */

import type { IntentReceipt } from '../api/schemas/receipt';
import { type LegRef, verifiableLegs } from '../chain/legs';
import type { Timers } from '../platform';
import type { ChainVerdict, ChainVerdictLeg } from '../store';

/**
 * Whether `receipt` must be checked again in this worker life, given its stored `verdict` (undefined: none) and the
 * chains turned on and granted (`enabled`): yes when it has a verifiable leg on such a chain and the verdict is absent,
 * not settled, made for another service status (the status decides "verified" and the disagreements), or lacks one of
 * those legs as it is now (its chain and transaction: a service that names another transaction is checked anew). A settled verdict of the same status and legs costs nothing again (a new life would ask the chains anew).
 */
export function needsCheck(receipt: IntentReceipt, verdict: ChainVerdict | undefined, enabled: (chainId: number) => boolean): boolean {
  const legs = verifiableLegs(receipt).filter((l) => enabled(l.chainId));
  if (legs.length === 0) return false;
  if (!verdict?.settled || verdict.serviceStatus !== receipt.status) return true;
  return legs.some((l) => !verdict.legs.some((v) => v.leg === l.leg && v.chainId === l.chainId && v.txnHash === l.txnHash));
}

/**
 * `verdict` (this life's) with, for each verifiable leg of `receipt` on an enabled chain that it has no line for, the
 * line of `earlier` (the verdict stored last, perhaps by an earlier worker life) made for the same leg, chain and
 * transaction, marked {@link ChainVerdictLeg.lastKnown}: a leg whose first read in a new life fails keeps what the user
 * saw, with "could not re-check", rather than losing its line. Lines in the receipt's leg order; `verified` and
 * `settled` are this life's (a kept line settles nothing). With `mark` false (a check's verdict so far, its other
 * legs still being read) a kept line is kept as it was. Pure.
 */
export function withLastKnown(
  verdict: ChainVerdict,
  receipt: IntentReceipt,
  earlier: ChainVerdict | undefined,
  enabled: (chainId: number) => boolean,
  mark = true,
): ChainVerdict {
  const same = (ref: LegRef) => (l: ChainVerdictLeg) => l.leg === ref.leg && l.chainId === ref.chainId && l.txnHash === ref.txnHash;
  const legs = verifiableLegs(receipt).flatMap((ref) => {
    const own = verdict.legs.find(same(ref));
    const kept = enabled(ref.chainId) && earlier?.legs.find(same(ref));
    return own ? [own] : kept ? [mark ? { ...kept, lastKnown: true } : kept] : [];
  });
  return { ...verdict, legs };
}

/** First delay (ms) before a failed read is tried again; doubled at each failure up to {@link RETRY_MAX_MS}. */
export const RETRY_FIRST_MS = 5_000;
/** Longest delay (ms) between two tries of a failed read. */
export const RETRY_MAX_MS = 60_000;

/** Retries of failed work, one pending timer per key, with backoff (5 s, 10 s, 20 s, 40 s, then 60 s). */
export interface Retries {
  /** `key` failed: runs `fn` after the key's next delay (replacing a retry already pending for it). */
  later(key: string, fn: () => void): void;
  /** `key` succeeded: its backoff starts again from {@link RETRY_FIRST_MS}; a pending retry is cancelled. */
  done(key: string): void;
}

/** {@link Retries} on `timers` (they die with the worker: a new life resumes by itself). */
export function createRetries(timers: Timers): Retries {
  const pending = new Map<string, { timer: unknown; failures: number }>();
  return {
    later(key, fn) {
      const was = pending.get(key);
      if (was) timers.clearTimeout(was.timer);
      const failures = (was?.failures ?? 0) + 1;
      const ms = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures - 1));
      pending.set(key, { failures, timer: timers.setTimeout(fn, ms) });
    },
    done(key) {
      const was = pending.get(key);
      if (was) timers.clearTimeout(was.timer);
      pending.delete(key);
    },
  };
}
