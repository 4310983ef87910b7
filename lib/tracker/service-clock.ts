/**
 * The service's clock, estimated from its answers, with an error bound (docs/time.md "The service clock"). The user's
 * computer clock may be minutes off and may jump; every comparison with a timestamp the service wrote (a receipt's
 * `createdAt`, `summary.startedAt`, a history `fromTime`) is made against this estimate (docs/tracking.md "One clock:
 * the service's").
 *
 * - **Samples**: each answer of the configured service with a `Date` header (to the second) says that, when it
 *   arrived, the service's time was in [Date, Date + 1 s + round trip] (the round trip measured on the monotonic
 *   clock: the header was written somewhere between the request's sending and the answer's arrival). Each sample is
 *   kept as an interval of *service time minus monotonic time*, so a jump of the local wall clock (an NTP correction)
 *   changes nothing: the estimate re-anchors at once instead of keeping old samples believed against the new wall
 *   time. A sample widens with age ({@link DRIFT_PPM}) and is forgotten after {@link MAX_SAMPLE_AGE_MS}.
 * - **Agreement**: the estimate is the interval agreed by the most of the last {@link DATE_SAMPLES} samples
 *   (Marzullo's algorithm, as NTP and TigerBeetle intersect their sources); it is *decidable* only when a majority
 *   agrees and the interval is at most {@link MAX_DECIDE_ERROR_MS} either side. An odd header is outvoted.
 * - **Verdicts** (expiry, stuck) use {@link ServiceClock.earliestSure}: the earliest time every one of the last
 *   {@link SURE_SAMPLES} samples allows, so no run of lying headers brings a deadline forward.
 * - **Lower bounds**: a receipt's `updatedAt` is a time the service has reached. It raises the estimate's lower edge
 *   only within the samples' interval (plus {@link LOWER_BOUND_SLACK_MS}); with no sample, it may move the estimate at
 *   most {@link MAX_LOWER_BOUND_LEAD_MS} ahead of the local clock. A receipt from the future (years ahead) moves
 *   nothing.
 * - **Settled** ({@link ServiceClock.settled}): a decision nothing corrects later (a watched address's checkpoint)
 *   waits for a strong agreement of several `Date` samples that contradicts neither the floor nor what it settled on
 *   before; the local clock may corroborate, never decide.
 * - **Only the configured service feeds it** (`lib/worker/client-cache.ts`): Test connection of another URL never does.
 * Pure apart from the injected clock; one instance is shared by the worker (tracker, watched addresses).
 */
import type { Clock } from '../time/clock';
import { marzullo } from './marzullo';

/** How many `Date` samples the estimate keeps. */
export const DATE_SAMPLES = 8;
/**
 * A watchdog acts on the service's time only when this many `Date` samples are kept and every one of them allows it
 * ({@link ServiceClock.earliestSure}): a service lying in one answer in five agrees with itself in 8 samples now and
 * then, in 12 all lying about once in 4 × 10^8.
 */
export const SURE_SAMPLES = 12;
/** A `Date` header is truncated to the second: the service's time was up to this much later (ms). */
const DATE_RESOLUTION_MS = 1_000;
/** `updatedAt` may raise the estimate this far (ms) beyond the samples' upper edge (the header's own slack). */
export const LOWER_BOUND_SLACK_MS = 2_000;
/** With no `Date` sample, `updatedAt` may move the estimate at most this far (ms) ahead of the local clock. */
export const MAX_LOWER_BOUND_LEAD_MS = 15 * 60_000;
/** Above this error (ms, either side) nothing is decided on the estimate: no expiry, no stuck warning, no checkpoint. */
export const MAX_DECIDE_ERROR_MS = 30_000;
/**
 * {@link ServiceClock.settled}: the share of the `Date` samples kept that must agree. A service lying in one answer in
 * five (all its lies alike) has 9 of 12 lying about once in 16,000 draws, 8 of 10 once in 13,000.
 */
export const SETTLED_SHARE = 3 / 4;
/** {@link ServiceClock.settled}: how many agreeing `Date` samples suffice without the local clock's agreement. */
export const SETTLED_SAMPLES = 8;
/**
 * {@link ServiceClock.settled}: how many agreeing `Date` samples suffice when the local clock agrees with them, and
 * they are at least {@link SETTLED_SHARE_WITH_LOCAL} of the samples kept. The local clock is no strong witness: one an
 * hour slow (a hardware clock kept in local time) agrees with headers an hour behind as well as with true ones.
 */
export const SETTLED_WITH_LOCAL = 4;
/** {@link ServiceClock.settled}: the share of the samples kept that must agree when the local clock backs them. */
export const SETTLED_SHARE_WITH_LOCAL = 6 / 7;
/** {@link ServiceClock.settled}: how close (ms) the local wall clock must be to the samples to corroborate them. */
export const LOCAL_AGREE_MS = 2 * 60_000;
/** How fast a sample's interval widens with age, each side (parts per million of its age): two clocks' drift. */
export const DRIFT_PPM = 200;
/** A sample older than this (ms, monotonic) is forgotten. */
export const MAX_SAMPLE_AGE_MS = 60 * 60_000;

interface Sample {
  /** Service time minus monotonic time (ms): at least `lo`, at most `hi`, when observed. */
  lo: number;
  hi: number;
  /** Monotonic time of the observation (ms). */
  at: number;
}

/** The estimate's interval: the service's time now is in [`earliest`, `latest`] (ms since the epoch). */
export interface ServiceTimeBounds {
  earliest: number;
  latest: number;
}

/** The service's time as estimated from its answers. */
export class ServiceClock {
  readonly #clock: Pick<Clock, 'now' | 'monotonic'>;
  #samples: Sample[] = [];
  /** Highest lower bound learnt from `updatedAt`, as service minus monotonic time (ms). */
  #floor = Number.NEGATIVE_INFINITY;
  /** The agreement {@link settled} last returned, as service minus monotonic time (ms), and when (monotonic ms). */
  #settledOn: Sample | undefined;

  /**
   * `clock`: the local clocks (`now` wall, `monotonic` durations), e.g. the worker's `Clock`; a plain function is both
   * (a local clock that never jumps: tests).
   */
  constructor(clock: Pick<Clock, 'now' | 'monotonic'> | (() => number)) {
    this.#clock = typeof clock === 'function' ? { now: clock, monotonic: clock } : clock;
  }

  /** The service's time now (ms since the epoch), estimated: the middle of {@link bounds}; the local clock until evidence arrives. */
  now(): number {
    const b = this.bounds();
    return b ? (b.earliest + b.latest) / 2 : this.#clock.now();
  }

  /** The local monotonic clock the samples are kept on (ms): a request's round trip is measured on it. */
  monotonic(): number {
    return this.#clock.monotonic();
  }

  /** True once an answer told something of the service's time (a `Date` header or a server timestamp). */
  get hasEvidence(): boolean {
    return this.#samples.length > 0 || Number.isFinite(this.#floor);
  }

  /**
   * The samples kept, those older than {@link MAX_SAMPLE_AGE_MS} forgotten, each as the interval (ms, the service's
   * time minus monotonic time) it allows now: widened by {@link DRIFT_PPM} of its age each side. `mono`: monotonic now.
   */
  #widened(mono: number): Array<readonly [number, number]> {
    this.#samples = this.#samples.filter((s) => mono - s.at <= MAX_SAMPLE_AGE_MS);
    return this.#samples.map((s) => {
      const spread = ((mono - s.at) * DRIFT_PPM) / 1e6;
      return [s.lo - spread, s.hi + spread] as const;
    });
  }

  /**
   * The interval the service's time is in now (ms since the epoch); undefined when nothing is known (no evidence) or
   * the samples do not agree (no majority). With lower bounds only, a point (the local clock raised to them).
   */
  bounds(): ServiceTimeBounds | undefined {
    const mono = this.#clock.monotonic();
    const widened = this.#widened(mono);
    if (widened.length === 0) {
      if (!Number.isFinite(this.#floor)) return undefined;
      const t = Math.max(this.#clock.now(), mono + this.#floor);
      return { earliest: t, latest: t };
    }
    const recent = widened.slice(-DATE_SAMPLES);
    const agreed = marzullo(recent);
    if (agreed.count * 2 <= recent.length) return undefined;
    const lo = Math.min(agreed.hi, Math.max(agreed.lo, this.#floor));
    return { earliest: mono + lo, latest: mono + agreed.hi };
  }

  /**
   * The earliest the service's time can be now by *every* `Date` sample kept (ms since the epoch), for a verdict that
   * ends tracking or raises an alarm (expiry, the stuck warning): a service whose `Date` lies ahead in some answers,
   * even most of the last few, cannot bring a deadline forward; one lying behind only puts the verdict off.
   * Undefined while fewer than {@link SURE_SAMPLES} samples are kept. With no `Date` sample at all, the earliest of
   * {@link bounds} (the local clock raised by lower bounds; the local clock without evidence).
   */
  earliestSure(): number | undefined {
    const mono = this.#clock.monotonic();
    const widened = this.#widened(mono);
    if (widened.length === 0) return this.bounds()?.earliest ?? this.#clock.now();
    if (widened.length < SURE_SAMPLES) return undefined;
    return mono + Math.min(...widened.map(([lo]) => lo));
  }

  /**
   * True when the estimate may decide a verdict (expire, warn stuck): Date samples agree within
   * {@link MAX_DECIDE_ERROR_MS} either side, or there is no Date sample at all (the local clock, raised by lower
   * bounds, decides as before; callers first wait for an answer). False while samples disagree or are too wide.
   */
  get decidable(): boolean {
    if (this.#samples.length === 0) return true;
    const b = this.bounds();
    return b !== undefined && b.latest - b.earliest <= 2 * MAX_DECIDE_ERROR_MS;
  }

  /**
   * The interval the service's time is in now (ms since the epoch) when it is settled enough for a decision nothing
   * corrects later (where a watched address is read from, and its checkpoint): at least {@link SETTLED_SHARE} of every
   * `Date` sample kept (up to {@link SURE_SAMPLES}) agree within {@link MAX_DECIDE_ERROR_MS} either side, and they are
   * at least {@link SETTLED_SAMPLES} — or {@link SETTLED_WITH_LOCAL}, {@link SETTLED_SHARE_WITH_LOCAL} of those kept,
   * when the local wall clock lies within {@link LOCAL_AGREE_MS} of them (it only corroborates: a local clock far off
   * never decides). The agreement must contradict by more than {@link MAX_DECIDE_ERROR_MS} neither the
   * interval settled on last in this worker (headers lying together, behind or ahead, once they outnumber the true
   * ones) nor the floor from `updatedAt` (they lie behind a time the service wrote) — unless {@link SURE_SAMPLES}
   * samples in a row all agree: they outvote it, and a floor above them is forgotten (so a receipt from the future
   * never blocks it for good). Undefined otherwise: with no `Date` sample at all (a service whose answers do not expose
   * `Date`: lower bounds only raise a floor, they never bound the time from above), or too few, or samples that
   * disagree or contradict.
   */
  settled(): ServiceTimeBounds | undefined {
    const mono = this.#clock.monotonic();
    const widened = this.#widened(mono);
    const n = widened.length;
    if (n === 0) return undefined;
    const agreed = marzullo(widened);
    if (agreed.count < n * SETTLED_SHARE || agreed.hi - agreed.lo > 2 * MAX_DECIDE_ERROR_MS) return undefined;
    const local = this.#clock.now() - mono;
    const corroborated = local >= agreed.lo - LOCAL_AGREE_MS && local <= agreed.hi + LOCAL_AGREE_MS;
    const backed = corroborated && agreed.count >= SETTLED_WITH_LOCAL && agreed.count >= n * SETTLED_SHARE_WITH_LOCAL;
    if (agreed.count < SETTLED_SAMPLES && !backed) return undefined;
    if (agreed.count >= SURE_SAMPLES) this.#floor = this.#floor > agreed.hi ? agreed.lo : this.#floor;
    else if (this.#contradicts(agreed, mono)) return undefined;
    this.#settledOn = { lo: agreed.lo, hi: agreed.hi, at: mono };
    return { earliest: mono + Math.min(agreed.hi, Math.max(agreed.lo, this.#floor)), latest: mono + agreed.hi };
  }

  /**
   * True when `agreed` (service minus monotonic time, ms) lies more than {@link MAX_DECIDE_ERROR_MS} below the floor
   * or apart from the interval last settled on (widened by {@link DRIFT_PPM} of its age; forgotten after
   * {@link MAX_SAMPLE_AGE_MS}). `mono`: monotonic now.
   */
  #contradicts(agreed: { lo: number; hi: number }, mono: number): boolean {
    if (this.#floor > agreed.hi + MAX_DECIDE_ERROR_MS) return true;
    const last = this.#settledOn;
    if (!last || mono - last.at > MAX_SAMPLE_AGE_MS) return false;
    const spread = ((mono - last.at) * DRIFT_PPM) / 1e6 + MAX_DECIDE_ERROR_MS;
    return agreed.hi < last.lo - spread || agreed.lo > last.hi + spread;
  }

  /** Estimated service time minus local wall time (ms; positive: the local clock is behind the service's). */
  get offsetMs(): number {
    return this.now() - this.#clock.now();
  }

  /** Converts a service time (ms) into the local wall clock's time (ms), e.g. to set a local timer for a service deadline. */
  toLocal(serviceMs: number): number {
    return serviceMs - this.offsetMs;
  }

  /**
   * An answer's HTTP `Date` header, parsed (ms; NaN is ignored). `sentAt` and `answeredAt` are the monotonic times
   * (ms) the request was sent and the answer arrived (default: now, a round trip of 0).
   */
  observeDate(serverMs: number, sentAt?: number, answeredAt?: number): void {
    if (!Number.isFinite(serverMs)) return;
    const arrived = answeredAt ?? this.#clock.monotonic();
    const roundTrip = Math.max(0, arrived - (sentAt ?? arrived));
    this.#samples.push({ lo: serverMs - arrived, hi: serverMs + DATE_RESOLUTION_MS + roundTrip - arrived, at: arrived });
    if (this.#samples.length > SURE_SAMPLES) this.#samples.shift();
  }

  /**
   * A time the service has reached (ms since the epoch; a receipt's `updatedAt` or `createdAt`), seen now. NaN is
   * ignored; so is a time beyond the samples' upper edge (plus {@link LOWER_BOUND_SLACK_MS}), or, with no sample,
   * more than {@link MAX_LOWER_BOUND_LEAD_MS} ahead of the local clock.
   */
  observeAtLeast(serverMs: number): void {
    if (!Number.isFinite(serverMs)) return;
    const mono = this.#clock.monotonic();
    const limit =
      this.#samples.length > 0
        ? (this.bounds()?.latest ?? Number.NEGATIVE_INFINITY) + LOWER_BOUND_SLACK_MS
        : this.#clock.now() + MAX_LOWER_BOUND_LEAD_MS;
    if (serverMs > limit) return;
    const needed = serverMs - mono;
    // With no sample, a bound within the slack of the local clock says nothing new.
    if (this.#samples.length === 0 && serverMs <= this.#clock.now() + LOWER_BOUND_SLACK_MS) return;
    this.#floor = Math.max(this.#floor, needed);
  }
}

/**
 * Wraps a `fetch` so that every answer's `Date` header (when the browser exposes it) feeds `clock` with the request's
 * round trip measured on the clock's monotonic time, then calls `observed` (e.g. to publish the new estimate). The
 * response is returned untouched. Give it only the configured service's fetch: another URL's answers must not move
 * the clock.
 */
export function fetchObservingDate(base: typeof fetch, clock: ServiceClock, observed?: () => void): typeof fetch {
  return async (input, init) => {
    const sentAt = clock.monotonic();
    const response = await base(input, init);
    const date = response.headers.get('date');
    if (date) {
      clock.observeDate(Date.parse(date), sentAt, clock.monotonic());
      observed?.();
    }
    return response;
  };
}
