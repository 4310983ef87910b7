/**
 * A sliding-window request counter on the monotonic clock (docs/time.md "Request rate and Retry-After"): the worker's hard limit of
 * invariant I5, "at most `limit` requests in ANY `windowMs`".
 *
 * A request is counted from the moment its place is reserved (`reserve`) — while its turn is decided and it is about
 * to be sent, it counts as sent *now* — then at the time it was sent (`sent`), or not at all when it was never sent
 * (`cancel`). The rule the budget keeps is: reserve only while {@link SlidingWindow.count} is below the limit.
 *
 * Why that is enough: take any interval [a, a + windowMs) and the requests S sent in it; let X be the one of S whose
 * place was reserved last, at r ≤ s_X < a + windowMs. Every other Y of S was reserved before r, so at r it was either
 * still pending (counted) or sent at s_Y ≥ a > r - windowMs (counted). So count(r) ≥ |S| - 1, and count(r) < limit
 * gives |S| ≤ limit. Checked by the property test `test/api/rate-window.test.ts`.
 */

/** Counts requests sent in the last `windowMs` (ms, monotonic) plus those reserved and not sent yet. */
export class SlidingWindow {
  /** Send times (monotonic ms), oldest first. */
  readonly #sent: number[] = [];
  #pending = 0;

  /** @param windowMs the window's length (ms, default 60 000). */
  constructor(readonly windowMs = 60_000) {}

  /** Requests counted at monotonic time `now` (ms): sent in (now - windowMs, now], plus every pending one. */
  count(now: number): number {
    this.#expire(now);
    return this.#sent.length + this.#pending;
  }

  /** A place is taken now: counted until `sent` or `cancel`. */
  reserve(): void {
    this.#pending++;
  }

  /** The reserved request was sent at monotonic time `now` (ms, never earlier than a previous `sent`). */
  sent(now: number): void {
    this.#pending = Math.max(0, this.#pending - 1);
    this.#sent.push(now);
  }

  /** The reserved request was not sent (aborted, no longer wanted): it no longer counts. */
  cancel(): void {
    this.#pending = Math.max(0, this.#pending - 1);
  }

  /**
   * When (monotonic ms) the count next drops because a sent request leaves the window; +Infinity when none can
   * (only pending ones, or nothing).
   */
  nextExpiryAt(now: number): number {
    this.#expire(now);
    const oldest = this.#sent[0];
    return oldest === undefined ? Number.POSITIVE_INFINITY : oldest + this.windowMs;
  }

  #expire(now: number): void {
    let n = 0;
    while (n < this.#sent.length && this.#sent[n]! <= now - this.windowMs) n++;
    if (n > 0) this.#sent.splice(0, n);
  }
}
