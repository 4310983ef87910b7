/**
 * The verifier (docs/chain.md): checks legs on their chains, within each RPC origin's budget, remembering per transaction
 * (cache keyed by chainId and hash) what the chain said, where the transaction was seen (to tell a re-org from "not
 * yet") and since when the service calls it mined. A settled leg (final, or reverted and final) costs no request
 * again: its transfer is judged anew from the amount it moved against what the receipt expects now. Never throws: an RPC failure or an empty budget leaves the last verdict in place.
 */

import type { Timers } from '../platform';
import type { RpcBudget } from './budget';
import { backoffDelay, nextCheckDelay, retryDelay } from './cadence';
import { KNOWN_CHAINS } from './known-chains';
import type { LegRef } from './legs';
import type { ChainReader } from './rpc';
import { createChainReader, requestsPerObservation } from './rpc';
import { isNativeToken, type TransferCheck, transferAgain } from './transfer';
import { isSettled, type LegCheck, type SeenBlock, settledFor, verifyLeg } from './verify';

/** The user's setting for one enabled chain. */
export interface ChainSetting {
  /** JSON-RPC URL (https, or http on localhost). */
  rpcUrl: string;
  /** Confirmations at which a leg is final. */
  finalityDepth: number;
}

/** What the verifier says about a leg now. */
export interface LegVerification {
  check: LegCheck;
  /** Monotonic ms of the observation this verdict comes from. */
  checkedAt: number;
}

/**
 * Why {@link LegVerifier.verify} sent no request: chain off, budget empty, the RPC failed (last verdict kept), or the
 * leg is not due yet (asked `whenDue`) or already being read, and has no verdict to give.
 */
export type Skipped = 'disabled' | 'budget' | 'error' | 'not-due';

/**
 * A verification that sent no request, or whose request failed: the last verdict if any, and — for an empty budget
 * or a failure — the milliseconds after which asking again is worth it (the budget's refill of the check's requests;
 * after a failure the back-off, lib/chain/cadence.ts `backoffDelay`). A chain that is off has no retry: turning it on
 * resumes the checks.
 */
export interface SkippedVerification {
  skipped: Skipped;
  last?: LegVerification;
  retryMs?: number;
}

/** What the verifier needs from the platform and the settings. */
export interface LegVerifierDeps {
  /** The platform's fetch (Platform.fetch): the only way out. */
  fetch: typeof fetch;
  /** Monotonic milliseconds (Clock.monotonic). */
  monotonic: () => number;
  /** The platform's timers (Platform.timers): each RPC request's time-out runs on them. */
  timers: Timers;
  /** The setting of an enabled chain; undefined while the user has not enabled it. */
  setting: (chainId: number) => ChainSetting | undefined;
  budget: RpcBudget;
  /** How long a leg the service calls mined may stay unknown to the chain before it is `missing` (ms; default 60 s). */
  missingGraceMs?: number;
  /** Makes the reader of an RPC URL (default {@link createChainReader}). */
  reader?: (url: string, fetchFn: typeof fetch, timers: Timers) => ChainReader;
}

interface Memory {
  last?: LegVerification;
  /**
   * The transaction's settled verdict, kept when `last` is dropped for a receipt expecting another recipient or token
   * (another intent naming the same transaction, a receipt that changed): a final leg is never read for one it knew.
   */
  settled?: LegVerification;
  /** What final reads of the transaction counted, per recipient and token (amounts in a final block never change). */
  moved?: TransferCheck[];
  seen?: SeenBlock;
  /** Monotonic ms at which the service was first seen calling the leg mined. */
  minedSince?: number;
  /** Monotonic ms from which asking the chain again is worth its requests (undefined: now). */
  dueAt?: number;
  /** RPC failures in a row (the back-off's exponent). */
  failures?: number;
  /** A read of this transaction is under way (it may take up to the transport's time-out). */
  reading?: boolean;
}

/** Options of {@link LegVerifier.verify}. */
export interface VerifyOptions {
  /**
   * Ask the chain only when the leg is due (lib/chain/cadence.ts: its confirmations still needed at the chain's block
   * time, the budget's refill, the back-off after a failure); otherwise answer the last verdict without a request.
   */
  whenDue?: boolean;
}

/** Checks legs on their chains; one instance per worker life. */
export class LegVerifier {
  private readonly memory = new Map<string, Memory>();
  private readonly readers = new Map<string, ChainReader>();
  constructor(private readonly deps: LegVerifierDeps) {}

  /** The last verdict on a leg, without asking the chain. */
  last(ref: Pick<LegRef, 'chainId' | 'txnHash'>): LegVerification | undefined {
    return this.memory.get(key(ref))?.last;
  }

  /** Whether anything is remembered of `ref` (what {@link forget} would drop). */
  knows(ref: Pick<LegRef, 'chainId' | 'txnHash'>): boolean {
    return this.memory.has(key(ref));
  }

  /** Milliseconds (monotonic) since the observation of `ref`'s last verdict; undefined without one. */
  ageMs(ref: Pick<LegRef, 'chainId' | 'txnHash'>): number | undefined {
    const last = this.memory.get(key(ref))?.last;
    return last ? this.deps.monotonic() - last.checkedAt : undefined;
  }

  /**
   * Milliseconds (monotonic) until `ref` is due again: 0 when it is due now (or was never asked, or its read is under
   * way: its answer is worth taking as soon as it comes); undefined when it is settled or its chain is off (nothing to
   * ask).
   */
  dueInMs(ref: Pick<LegRef, 'chainId' | 'txnHash'>): number | undefined {
    const memo = this.memory.get(key(ref));
    if ((memo?.last && isSettled(memo.last.check)) || !this.deps.setting(ref.chainId)) return undefined;
    if (memo?.reading) return 0;
    return Math.max(0, (memo?.dueAt ?? 0) - this.deps.monotonic());
  }

  /**
   * Verifies `ref` now (or, with `whenDue`, only if it is due): returns the new verdict, the settled or not-yet-due one
   * without a request (a settled one's transfer judged against `ref.transfer` now, the leg read again when that names
   * another recipient or token, lib/chain/verify.ts `settledFor`), or `{ skipped, last }` when no request was sent (chain not enabled, budget empty, not due) or
   * the request failed, with when to try again. Each outcome sets when the leg is due next ({@link dueInMs}). A leg
   * whose read is under way (another check sent it; an RPC origin may take up to its time-out) is not read twice: the
   * last verdict, or `{ skipped: 'not-due' }`, at once — no other leg waits for a slow origin through this one.
   */
  async verify(ref: LegRef, options: VerifyOptions = {}): Promise<LegVerification | SkippedVerification> {
    // A leg of a chain not turned on, and of which nothing is known, is kept nowhere: a desk's thousands of legs cost
    // nothing while no chain is verified.
    if (!this.knows(ref) && !this.deps.setting(ref.chainId)) return { skipped: 'disabled' };
    const memo = this.memoryOf(ref);
    const now = this.deps.monotonic();
    if (ref.serviceMined) memo.minedSince ??= now;
    const settled = memo.last && isSettled(memo.last.check) ? memo.last : memo.settled;
    if (settled) {
      // Settled, but judged against what the receipt expects now; read again when that needs the chain.
      const check = settledFor(settled.check, ref.transfer, memo.moved);
      if (!check) delete memo.last;
      else {
        memo.last = { check, checkedAt: settled.checkedAt };
        return memo.last;
      }
    }
    const setting = this.deps.setting(ref.chainId);
    const lastOne = lastFor(memo.last, ref);
    const last = lastOne ? { last: lastOne } : {};
    if (!setting) return { skipped: 'disabled', ...last };
    if (memo.reading) return lastOne ?? { skipped: 'not-due' };
    if (options.whenDue && memo.dueAt !== undefined && now < memo.dueAt)
      return lastOne ?? { skipped: 'not-due', retryMs: memo.dueAt - now };
    const withValue = ref.transfer !== undefined && isNativeToken(ref.transfer.token);
    const origin = originOf(setting.rpcUrl);
    const cost = requestsPerObservation(withValue);
    if (!this.deps.budget.take(origin, cost)) {
      const retryMs = this.deps.budget.waitMs(origin, cost);
      memo.dueAt = now + (retryDelay(retryMs) ?? 0);
      return { skipped: 'budget', retryMs, ...last };
    }
    try {
      const observation = await this.read(memo, setting.rpcUrl, ref.txnHash, withValue);
      // An endpoint answering for another chain says nothing of this one: not "re-orged", not "missing".
      if (observation.chainId !== undefined && observation.chainId !== ref.chainId) throw new Error('wrong chain');
      const check = verifyLeg(observation, {
        finalityDepth: setting.finalityDepth,
        missingGraceMs: this.deps.missingGraceMs ?? 60_000,
        ...(memo.seen ? { seenBefore: memo.seen } : {}),
        ...(memo.minedSince !== undefined ? { serviceMinedForMs: this.deps.monotonic() - memo.minedSince } : {}),
        ...(ref.transfer ? { transfer: ref.transfer } : {}),
      });
      if ('blockHash' in check) memo.seen = { blockNumber: check.blockNumber, blockHash: check.blockHash };
      else if (check.kind === 'reorged') delete memo.seen;
      const verdict = keep(memo, { check, checkedAt: now });
      memo.failures = 0;
      const blockTimeMs = KNOWN_CHAINS[ref.chainId]?.blockTimeMs ?? 12_000;
      memo.dueAt = now + (nextCheckDelay(check, blockTimeMs, setting.finalityDepth) ?? 0);
      return verdict;
    } catch {
      memo.failures = (memo.failures ?? 0) + 1;
      const retryMs = backoffDelay(memo.failures);
      memo.dueAt = now + retryMs;
      return { skipped: 'error', retryMs, ...last };
    }
  }

  /**
   * Takes `check`, a settled verdict kept from an earlier read (a stored verdict), as `ref`'s last verdict when this
   * life has none: a leg known final costs no request again. An unsettled or absent `check` is ignored.
   */
  remember(ref: Pick<LegRef, 'chainId' | 'txnHash'>, check: LegCheck | undefined): void {
    if (!check || !isSettled(check)) return;
    const memo = this.memoryOf(ref);
    if (!memo.last) keep(memo, { check, checkedAt: this.deps.monotonic() });
  }

  /** Forgets what is remembered of `ref` (its intent was removed): a later {@link verify} starts afresh. */
  forget(ref: Pick<LegRef, 'chainId' | 'txnHash'>): void {
    this.memory.delete(key(ref));
  }

  private memoryOf(ref: Pick<LegRef, 'chainId' | 'txnHash'>): Memory {
    const k = key(ref);
    const memo = this.memory.get(k) ?? {};
    this.memory.set(k, memo);
    return memo;
  }

  /** One observation, `memo` marked as being read meanwhile. */
  private async read(memo: Memory, url: string, hash: LegRef['txnHash'], withValue: boolean) {
    memo.reading = true;
    try {
      return await this.readerOf(url).observe(hash, withValue);
    } finally {
      memo.reading = false;
    }
  }

  private readerOf(url: string): ChainReader {
    const reader = this.readers.get(url) ?? (this.deps.reader ?? createChainReader)(url, this.deps.fetch, this.deps.timers);
    this.readers.set(url, reader);
    return reader;
  }
}

/**
 * Sets `memo.last` to `verdict` (read from the chain, or kept from a stored line) and returns it; a settled one is kept
 * apart too (`memo.settled`), with the transfer it counted (`memo.moved`: one per read, and a settled leg is read
 * only for a recipient or token none counted).
 */
function keep(memo: Memory, verdict: LegVerification): LegVerification {
  memo.last = verdict;
  if (isSettled(verdict.check)) memo.settled = verdict;
  const t = verdict.check.kind === 'final' ? verdict.check.transfer : undefined;
  if (t) memo.moved = [...(memo.moved ?? []), t];
  return verdict;
}

/**
 * `last` (the transaction's last verdict) as it stands for `ref`: a leg in a block not final yet has its transfer judged
 * against what `ref` expects now; undefined when that transfer was counted for another recipient or token (another
 * intent naming the same transaction): what reached `ref`'s is unknown until the chain is read for it.
 */
function lastFor(last: LegVerification | undefined, ref: LegRef): LegVerification | undefined {
  if (last?.check.kind !== 'confirmed' || !last.check.transfer || !ref.transfer) return last;
  const transfer = transferAgain(last.check.transfer.amount, last.check.transfer.expected, ref.transfer);
  return transfer && { check: { ...last.check, transfer }, checkedAt: last.checkedAt };
}

const key = (ref: Pick<LegRef, 'chainId' | 'txnHash'>) => `${ref.chainId}:${ref.txnHash.toLowerCase()}`;

/** The origin of an RPC URL (the budget's key); the URL itself when it does not parse. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
