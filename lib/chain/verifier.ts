/**
 * The verifier (docs/chain.md): checks legs on their chains, within each RPC origin's budget, remembering per transaction
 * (cache keyed by chainId and hash) what the chain said, where the transaction was seen (to tell a re-org from "not
 * yet") and since when the service calls it mined. A settled leg (final, or reverted and final) costs no request
 * again. Never throws: an RPC failure or an empty budget leaves the last verdict in place.
 */

import type { RpcBudget } from './budget';
import type { LegRef } from './legs';
import type { ChainReader } from './rpc';
import { createChainReader, requestsPerObservation } from './rpc';
import { isNativeToken } from './transfer';
import { isSettled, type LegCheck, type SeenBlock, verifyLeg } from './verify';

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

/** Why {@link LegVerifier.verify} sent no request: chain off, budget empty, or the RPC failed (last verdict kept). */
export type Skipped = 'disabled' | 'budget' | 'error';

/**
 * A verification that sent no request, or whose request failed: the last verdict if any, and — for an empty budget
 * or a failure — the milliseconds after which asking again is worth it (the budget's refill of the check's requests;
 * {@link RETRY_AFTER_ERROR_MS} after a failure). A chain that is off has no retry: turning it on resumes the checks.
 */
export interface SkippedVerification {
  skipped: Skipped;
  last?: LegVerification;
  retryMs?: number;
}

/** Delay (ms) before a leg whose RPC request failed is asked again. */
export const RETRY_AFTER_ERROR_MS = 12_000;

/** What the verifier needs from the platform and the settings. */
export interface LegVerifierDeps {
  /** The platform's fetch (Platform.fetch): the only way out. */
  fetch: typeof fetch;
  /** Monotonic milliseconds (Clock.monotonic). */
  monotonic: () => number;
  /** The setting of an enabled chain; undefined while the user has not enabled it. */
  setting: (chainId: number) => ChainSetting | undefined;
  budget: RpcBudget;
  /** How long a leg the service calls mined may stay unknown to the chain before it is `missing` (ms; default 60 s). */
  missingGraceMs?: number;
  /** Makes the reader of an RPC URL (default {@link createChainReader}). */
  reader?: (url: string, fetchFn: typeof fetch) => ChainReader;
}

interface Memory {
  last?: LegVerification;
  seen?: SeenBlock;
  /** Monotonic ms at which the service was first seen calling the leg mined. */
  minedSince?: number;
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

  /**
   * Verifies `ref` now: returns the new verdict, the settled one without a request, or `{ skipped, last }` when no
   * request was sent (chain not enabled, budget empty) or the request failed, with when to try again.
   */
  async verify(ref: LegRef): Promise<LegVerification | SkippedVerification> {
    const memo = this.memoryOf(ref);
    const now = this.deps.monotonic();
    if (ref.serviceMined) memo.minedSince ??= now;
    if (memo.last && isSettled(memo.last.check)) return memo.last;
    const setting = this.deps.setting(ref.chainId);
    if (!setting) return { skipped: 'disabled', ...(memo.last ? { last: memo.last } : {}) };
    const withValue = ref.transfer !== undefined && isNativeToken(ref.transfer.token);
    const origin = originOf(setting.rpcUrl);
    const cost = requestsPerObservation(withValue);
    if (!this.deps.budget.take(origin, cost)) {
      return { skipped: 'budget', retryMs: this.deps.budget.waitMs(origin, cost), ...(memo.last ? { last: memo.last } : {}) };
    }
    try {
      const observation = await this.readerOf(setting.rpcUrl).observe(ref.txnHash, withValue);
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
      memo.last = { check, checkedAt: now };
      return memo.last;
    } catch {
      return { skipped: 'error', retryMs: RETRY_AFTER_ERROR_MS, ...(memo.last ? { last: memo.last } : {}) };
    }
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

  private readerOf(url: string): ChainReader {
    const reader = this.readers.get(url) ?? (this.deps.reader ?? createChainReader)(url, this.deps.fetch);
    this.readers.set(url, reader);
    return reader;
  }
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
