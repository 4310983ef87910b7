/**
 * The JSON-RPC request budget, one per RPC origin (docs/chain.md): a token bucket
 * refilled at `perMinute` and holding at most `burst`, on the monotonic clock. A public RPC endpoint rate-limits by
 * origin, and the user's own endpoint may be metered: whatever the number of tracked intents, the verifier sends at
 * most `burst + perMinute` requests to one origin in any minute. Apart from the service's budget (lib/api/budget.ts):
 * a chain's requests never delay the tracker's.
 */

/** Default JSON-RPC requests a minute per origin. */
export const RPC_REQUESTS_PER_MINUTE = 30;
/** Default burst: one check of a leg costs up to 4 requests (receipt, head, block, transaction). */
export const RPC_BURST = 8;

/** Tuning of {@link RpcBudget}. */
export interface RpcBudgetOptions {
  /** Tokens added per minute (default {@link RPC_REQUESTS_PER_MINUTE}). */
  perMinute?: number;
  /** Tokens held at most (default {@link RPC_BURST}). */
  burst?: number;
  /** Monotonic milliseconds (Clock.monotonic). */
  monotonic: () => number;
}

/** Per-origin token buckets. Not thread-safe by design: the worker is single-threaded. */
export class RpcBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMinute: number;
  private readonly burst: number;
  private readonly monotonic: () => number;
  /** Requests taken per origin since this budget was made (for the bench's figures). */
  readonly sent = new Map<string, number>();

  constructor(options: RpcBudgetOptions) {
    this.perMinute = options.perMinute ?? RPC_REQUESTS_PER_MINUTE;
    this.burst = options.burst ?? RPC_BURST;
    this.monotonic = options.monotonic;
  }

  /** Tokens available now for `origin` (refilled up to `burst`). */
  available(origin: string): number {
    const now = this.monotonic();
    const bucket = this.buckets.get(origin) ?? { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) * this.perMinute) / 60_000);
    this.buckets.set(origin, { tokens, at: now });
    return tokens;
  }

  /**
   * Milliseconds (monotonic) until `origin` holds `count` tokens: 0 when it does now; Infinity when `count` exceeds
   * the burst (it never will). Takes nothing.
   */
  waitMs(origin: string, count: number): number {
    const missing = count - this.available(origin);
    if (missing <= 0) return 0;
    if (count > this.burst || this.perMinute <= 0) return Number.POSITIVE_INFINITY;
    return Math.ceil((missing * 60_000) / this.perMinute);
  }

  /** Takes `count` tokens for `origin` when all are there (true), or none (false: the caller checks later). */
  take(origin: string, count: number): boolean {
    const tokens = this.available(origin);
    if (tokens < count) return false;
    this.buckets.set(origin, { tokens: tokens - count, at: this.monotonic() });
    this.sent.set(origin, (this.sent.get(origin) ?? 0) + count);
    return true;
  }
}
