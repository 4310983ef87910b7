/**
 * The service's clock, estimated from its answers. The user's computer clock may be minutes off; every comparison
 * with a timestamp the service wrote (a receipt's `createdAt`, `summary.startedAt`, a history `fromTime`) is made
 * against this estimate, never against the local clock (README "One clock").
 *
 * Two kinds of evidence, both in milliseconds since the epoch:
 * - the HTTP `Date` header of an answer: the service's time when it answered, to the second. The estimate is the
 *   median offset of the last {@link DATE_SAMPLES} headers (a single odd proxy does not move it);
 * - a receipt's `updatedAt`: a time the service has already reached, so a lower bound. It moves the estimate forward
 *   only when it is more than {@link LOWER_BOUND_SLACK_MS} ahead of it (a local clock that runs slow and no `Date`
 *   header readable).
 * Pure apart from the injected local clock; one instance is shared by the worker (tracker, watched addresses).
 */

/** How many `Date` headers the estimate keeps. */
export const DATE_SAMPLES = 5;
/** A `Date` header is truncated to the second: the service's time was up to this much later (ms). */
const DATE_RESOLUTION_MS = 1_000;
/** `updatedAt` moves the estimate only when this far (ms) ahead of it. */
export const LOWER_BOUND_SLACK_MS = 2_000;

/** The service's time as estimated from its answers. */
export class ServiceClock {
  readonly #local: () => number;
  #samples: number[] = [];
  #floor = Number.NEGATIVE_INFINITY;
  #evidence = false;

  /** `local`: the local clock (ms since the epoch), e.g. `Date.now` or the tracker's injected clock. */
  constructor(local: () => number) {
    this.#local = local;
  }

  /** The service's time now (ms since the epoch), estimated. Equal to the local clock until evidence arrives. */
  now(): number {
    return this.#local() + this.offsetMs;
  }

  /**
   * True once an answer told something of the service's time (a `Date` header or a server timestamp). Before that
   * (a worker just started) the estimate is the local clock, which must not decide anything on its own.
   */
  get hasEvidence(): boolean {
    return this.#evidence;
  }

  /** Estimated service time minus local time (ms; positive: the local clock is behind the service's). */
  get offsetMs(): number {
    const s = [...this.#samples].sort((a, b) => a - b);
    const median = s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
    return Math.max(median, this.#floor);
  }

  /** Converts a service time (ms) into the local clock's time (ms), e.g. to set a local timer for a service deadline. */
  toLocal(serviceMs: number): number {
    return serviceMs - this.offsetMs;
  }

  /**
   * An answer's HTTP `Date` header, parsed (ms; NaN is ignored), received at local time `localMs` (default now).
   * Resets a lower bound learnt earlier: the header is the better evidence.
   */
  observeDate(serverMs: number, localMs: number = this.#local()): void {
    if (!Number.isFinite(serverMs)) return;
    this.#evidence = true;
    this.#samples.push(serverMs + DATE_RESOLUTION_MS / 2 - localMs);
    if (this.#samples.length > DATE_SAMPLES) this.#samples.shift();
    this.#floor = Number.NEGATIVE_INFINITY;
  }

  /**
   * A time the service has reached (ms; a receipt's `updatedAt` or `createdAt`), seen at local time `localMs`
   * (default now). NaN is ignored.
   */
  observeAtLeast(serverMs: number, localMs: number = this.#local()): void {
    if (!Number.isFinite(serverMs)) return;
    this.#evidence = true;
    const needed = serverMs - localMs;
    if (needed > this.offsetMs + LOWER_BOUND_SLACK_MS) this.#floor = needed;
  }
}

/**
 * Wraps a `fetch` so that every answer's `Date` header (when the browser exposes it) feeds `clock`, then calls
 * `observed` (e.g. to publish the new estimate). The response is returned untouched.
 */
export function fetchObservingDate(base: typeof fetch, clock: ServiceClock, observed?: () => void): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const date = response.headers.get('date');
    if (date) {
      clock.observeDate(Date.parse(date));
      observed?.();
    }
    return response;
  };
}
