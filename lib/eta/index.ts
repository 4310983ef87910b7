/**
 * How long an intent should take, and where it stands against that: the one rule behind the popup's countdown, its
 * "taking longer than usual" and the tracker's stuck warning (lib/tracker/watchdogs.ts calls {@link stuckLimitMs}).
 * Pure: every function takes the time it reasons about. Durations from the service are seconds; everything
 * returned here is milliseconds.
 */
import type { IntentReceipt } from '../api/schemas/receipt';
import * as i18n from '../i18n';

/** Where an expected duration comes from: the intent's quote, or the median of recent intents on its chain pair. */
export type EtaSource = 'quote' | 'route';

/** The expected duration of one intent, in seconds, and where it comes from. */
export interface Baseline {
  seconds: number;
  source: EtaSource;
}

/** What a tracked record carries for the baseline: both in seconds (see TrackedIntent). */
export interface BaselineFields {
  estimatedDuration?: number;
  routeDuration?: number;
}

/**
 * The longest expected duration believed (s): a day, the bound the `track` message puts on an estimate. A quote's
 * `estimatedDuration` of 2^256 − 1 (an integer above 2^53, read as the nearest number) is no estimate, or the stuck
 * warning and the countdown would wait 10^69 years.
 */
export const MAX_ESTIMATE_S = 86_400;

/** `seconds` when it is a usable expected duration (a number in (0, {@link MAX_ESTIMATE_S}]), else undefined. */
export function plausibleEstimate(seconds: number | null | undefined): number | undefined {
  return typeof seconds === 'number' && seconds > 0 && seconds <= MAX_ESTIMATE_S ? seconds : undefined;
}

/** The quote's estimate when there is one, else the route's median; undefined when neither is {@link plausibleEstimate}. */
export function baselineOf(t: BaselineFields): Baseline | undefined {
  const quote = plausibleEstimate(t.estimatedDuration);
  if (quote !== undefined) return { seconds: quote, source: 'quote' };
  const route = plausibleEstimate(t.routeDuration);
  if (route !== undefined) return { seconds: route, source: 'route' };
  return undefined;
}

/** The user-facing name of a source. */
export function sourceText(source: EtaSource): string {
  return source === 'quote' ? i18n.t('etaFromQuote') : i18n.t('etaTypicalForRoute');
}

/**
 * When a stuck warning is due, in ms after the start: max(`floorMs`, 2 × the baseline). Twice the estimate is the
 * usual advice for acting on a slow bridge; the floor keeps short estimates from warning about ordinary jitter.
 */
export function stuckLimitMs(baseline: Baseline | undefined, floorMs: number): number {
  return Math.max(floorMs, 2 * (baseline?.seconds ?? 0) * 1000);
}

/** The first time (ms) too late to be believed: 2100-01-01T00:00:00Z. */
export const LATEST_SERVICE_TIME_MS = Date.UTC(2100, 0, 1);
/** The longest an intent can have been on its way (ms, 10 years): a start older than that is absurd, not late. */
export const MAX_INTENT_AGE_MS = 3_652 * 86_400_000;

/**
 * Milliseconds since the epoch of a time the service wrote about an intent (ISO 8601), or undefined when it does not
 * parse or is absurd: at or before the Unix epoch (Go's zero time `0001-01-01T00:00:00Z` and `1970-01-01T00:00:00Z`
 * stand for "not set"), or from {@link LATEST_SERVICE_TIME_MS} on. An absurd time is unknown, never a duration of
 * centuries.
 */
export function serviceTimeMs(iso: string | null | undefined): number | undefined {
  const ms = Date.parse(iso ?? '');
  return Number.isNaN(ms) || ms <= 0 || ms >= LATEST_SERVICE_TIME_MS ? undefined : ms;
}

/**
 * True when `startMs` can be the start of an intent on its way at `nowMs` (both ms since the epoch): at most
 * {@link MAX_INTENT_AGE_MS} before it. An older start is treated as unknown (no "late by years", no stuck warning).
 */
export function isPlausibleStart(startMs: number, nowMs: number): boolean {
  return nowMs - startMs <= MAX_INTENT_AGE_MS;
}

const parse = serviceTimeMs;

/**
 * When execution started (ms): `summary.startedAt`, else the receipt's `createdAt`; undefined when neither parses to a
 * plausible time ({@link serviceTimeMs}).
 */
export function startedAtMs(receipt: IntentReceipt | undefined): number | undefined {
  return parse(receipt?.summary?.startedAt) ?? parse(receipt?.createdAt);
}

/** Statuses after which nothing more happens to an intent. */
export const FINAL_STATUSES: readonly string[] = ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID'];

/** When a finished intent finished (ms): `summary.finishedAt`, else the receipt's `updatedAt`. */
export function finishedAtMs(receipt: IntentReceipt | undefined): number | undefined {
  return parse(receipt?.summary?.finishedAt) ?? parse(receipt?.updatedAt);
}

/** One finished intent as GetIntentHistory lists it (only what the median needs). */
export interface FinishedRow {
  status?: string;
  receipt?: IntentReceipt | null;
}

/**
 * The median time (seconds, rounded) from `summary.startedAt` to `summary.finishedAt` of the SUCCEEDED rows on the
 * chain pair `origin` → `destination`; undefined with fewer than `minSamples` usable rows (failures end at odd
 * times, so they do not count).
 */
export function routeMedianSeconds(rows: readonly FinishedRow[], origin: number, destination: number, minSamples = 3): number | undefined {
  const took: number[] = [];
  for (const row of rows) {
    const r = row.receipt;
    if (!r || (row.status ?? r.status) !== 'SUCCEEDED') continue;
    if ((r.originChainId ?? r.summary?.originChainId) !== origin) continue;
    if ((r.destinationChainId ?? r.summary?.destinationChainId) !== destination) continue;
    const start = parse(r.summary?.startedAt);
    const end = parse(r.summary?.finishedAt);
    if (start !== undefined && end !== undefined && end >= start) took.push(end - start);
  }
  if (took.length < minSamples) return undefined;
  took.sort((a, b) => a - b);
  const mid = took.length >> 1;
  const median = took.length % 2 ? took[mid]! : (took[mid - 1]! + took[mid]!) / 2;
  return Math.max(1, Math.round(median / 1000));
}

/**
 * Where an intent stands against its baseline at one moment (all times ms):
 * - `finished`: it ended after `tookMs`; `early` when it SUCCEEDED before the baseline (never for another status);
 * - `waiting`: not started (COMMITTED, or no start time yet); `expectedMs` once it starts;
 * - `counting`: started, `leftMs` until the expected end;
 * - `delayed`: past the expected end by `overMs`;
 * - `unknown`: in flight with no baseline.
 */
export type Eta =
  | { kind: 'finished'; status: string; tookMs: number | undefined; expectedMs?: number; early: boolean }
  | { kind: 'waiting'; expectedMs: number; source: EtaSource }
  | { kind: 'counting'; leftMs: number; expectedMs: number; source: EtaSource }
  | { kind: 'delayed'; overMs: number; expectedMs: number; source: EtaSource }
  | { kind: 'unknown' };

/** The ETA of an intent with `receipt` and `baseline` at `now` (ms). */
export function etaAt(receipt: IntentReceipt | undefined, baseline: Baseline | undefined, now: number): Eta {
  const status = receipt?.status ?? undefined;
  const expectedMs = baseline ? baseline.seconds * 1000 : undefined;
  const started = startedAtMs(receipt);
  if (status && FINAL_STATUSES.includes(status)) {
    const end = finishedAtMs(receipt);
    const tookMs = started !== undefined && end !== undefined && end >= started ? end - started : undefined;
    // Only a success is "early": a failure, an abort or a refund ending before the estimate was not ahead of anything.
    const early = status === 'SUCCEEDED' && tookMs !== undefined && expectedMs !== undefined && tookMs < expectedMs;
    return { kind: 'finished', status, tookMs, ...(expectedMs !== undefined ? { expectedMs } : {}), early };
  }
  if (!baseline || expectedMs === undefined) return { kind: 'unknown' };
  // Before execution the clock does not run: the receipt's createdAt would count the time the owner took to sign.
  if (!receipt || status === 'QUOTED' || status === 'COMMITTED' || started === undefined || !isPlausibleStart(started, now)) {
    return { kind: 'waiting', expectedMs, source: baseline.source };
  }
  const elapsed = now - started;
  if (elapsed <= expectedMs) return { kind: 'counting', leftMs: expectedMs - Math.max(0, elapsed), expectedMs, source: baseline.source };
  return { kind: 'delayed', overMs: elapsed - expectedMs, expectedMs, source: baseline.source };
}

/** "1 min 12 s", "45 s", "2 h 5 min": an exact-ish duration (ms) for what already happened. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return i18n.t('seconds', s);
  if (s < 3600) return s % 60 ? i18n.t('minutesSeconds', Math.floor(s / 60), s % 60) : i18n.t('minutes', s / 60);
  return hoursMinutes(Math.round(s / 60));
}

/** "2 h 5 min" or "2 h" for `m` minutes. */
function hoursMinutes(m: number): string {
  return m % 60 ? i18n.t('hoursMinutes', Math.floor(m / 60), m % 60) : i18n.t('hours', m / 60);
}

/** "≈ 40 s", "≈ 2 min", "≈ 1 h 30 min": a rounded duration (ms) for what is expected. */
export function formatApprox(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  const m = Math.round(s / 60);
  return i18n.t('approx', s < 60 ? i18n.t('seconds', s) : m < 60 ? i18n.t('minutes', m) : hoursMinutes(m));
}

/** What a finished intent's total is called, by its final status: what it took, plainly. */
const FINISHED_WORDS: Readonly<Record<string, i18n.MessageKey>> = {
  SUCCEEDED: 'etaCompletedIn',
  FAILED: 'etaFailedAfter',
  ABORTED: 'etaAbortedAfter',
  REFUNDED: 'etaRefundedAfter',
};

/** "completed in" for SUCCEEDED, "failed after", "aborted after", "refunded after"; "ended after" for the rest (INVALID). */
function finishedWords(status: string): i18n.MessageKey {
  return FINISHED_WORDS[status] ?? 'etaEndedAfter';
}

/**
 * The ETA in words: "≈ 1 min left", "taking longer than usual (expected ≈ 2 min)", "completed in 1 min 12 s",
 * "failed after 8 s",
 * "≈ 2 min once it starts"; undefined when there is nothing to say.
 */
export function etaText(eta: Eta): string | undefined {
  switch (eta.kind) {
    case 'finished':
      return eta.tookMs === undefined ? undefined : i18n.t(finishedWords(eta.status), formatDuration(eta.tookMs));
    case 'waiting':
      return i18n.t('etaOnceItStarts', formatApprox(eta.expectedMs));
    case 'counting':
      return i18n.t('etaLeft', formatApprox(eta.leftMs));
    case 'delayed':
      return i18n.t('etaDelayed', formatApprox(eta.expectedMs));
    default:
      return undefined;
  }
}

/** True for an intent still on its way: tracked, and not in a final status. */
export function isInFlight(t: { phase: string; status?: string }): boolean {
  return t.phase === 'tracking' && !(t.status && FINAL_STATUSES.includes(t.status));
}

/** The list with intents in flight first; the order within each group is kept. */
export function inFlightFirst<T extends { phase: string; status?: string }>(list: readonly T[]): T[] {
  return [...list.filter(isInFlight), ...list.filter((t) => !isInFlight(t))];
}
