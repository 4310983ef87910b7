/**
 * Finds the ETA baseline of each tracked intent once (lib/eta): the quote's `estimatedDuration` from GetIntent, or,
 * when the quote has none, the median duration of recent SUCCEEDED intents on the same chain pair from
 * GetIntentHistory. The result is kept on the tracked record, so a restarted worker does not ask again.
 */
import type { SvcClient } from '../api/client';
import { plausibleEstimate, routeMedianSeconds } from '../eta';
import { routeChains } from '../format/intent';
import type { TrackedIntent } from '../store';
import { realClock } from '../time/clock';
import type { Tracker } from '../tracker/engine';

/** What the finder uses. */
export interface BaselineFinderDeps {
  client(): Promise<Pick<SvcClient, 'getIntent' | 'getIntentHistory'> | undefined>;
  /** `get` reads one record (not a copy of the whole list: a desk's thousands are each looked up). */
  tracker: Pick<Tracker, 'get' | 'setBaseline'>;
  /** Monotonic time (ms) the waits below are measured on (default the real one). */
  monotonic?: () => number;
}

/** A chain pair whose recent history gave no median is not asked again for this long (ms). */
export const ROUTE_MISS_MS = 30 * 60_000;
/** An intent whose look-up found nothing is not tried again before this long (ms). */
export const RETRY_AFTER_MISS_MS = 10 * 60_000;
/**
 * An intent whose quote could not be read (GetIntent failed: an answer about another intent, a network error, a 5xx)
 * and whose route gave no median is tried again after this long (ms), doubled per try in the worker's life: the
 * quote is still unknown, and waiting {@link RETRY_AFTER_MISS_MS} would let the stuck warning come at its 15-minute
 * floor before twice an estimate of 10 or 20 minutes.
 */
export const RETRY_AFTER_FAILURE_MS = 30_000;

/** Rows of recent history the route median is taken over. */
export const ROUTE_SAMPLE = 50;
/** Tries per intent and worker lifetime (a NotFound intent may appear later; an unreachable service may come back). */
export const MAX_TRIES = 3;

/**
 * Creates `ensure(intentId)`: looks the baseline up unless the record has one, is final or was tried often enough.
 * Look-ups run one at a time (a list of 500 new intents must not open 500 requests beside the tracker's 4). What found
 * nothing is not asked again soon: an intent's quote without an estimate is not read again (a quote does not
 * change), a chain pair whose history gave no median is not read again for {@link ROUTE_MISS_MS}, and an intent is
 * tried again at most once per {@link RETRY_AFTER_MISS_MS} (trying again on each record change would make about 7.5
 * look-ups a minute, idle, for routes without a median). A look-up that failed (GetIntent or the history read threw,
 * the route giving nothing instead) is tried again after {@link RETRY_AFTER_FAILURE_MS} (30 s, doubled per try), up to
 * {@link MAX_TRIES} a life. A baseline found whose write the store refused (a quota
 * error) is held by the tracker (`Tracker.setBaseline`) and written with the intent's next write: the record then has
 * it, so it is not asked again (otherwise the stuck warning would come at the 15-minute floor, before twice an
 * estimate already read). The promise resolves once no look-up waits (this one and every one asked before it or
 * meanwhile ran). Never rejects (errors leave the intent without a baseline: the popup then shows no countdown).
 */
export function createBaselineFinder(deps: BaselineFinderDeps): (intentId: string) => Promise<void> {
  const monotonic = deps.monotonic ?? (() => realClock.monotonic());
  const tries = new Map<string, number>();
  /** Per intent: not tried again before this monotonic time (ms). */
  const notBefore = new Map<string, number>();
  const misses: Misses = { noEstimate: new Map(), routes: new Map(), monotonic };
  /** The intents waiting for their look-up, in the order asked, the one running first. */
  const queued = new Set<string>();
  /** True while `intentId` is tracked, not final and without a baseline: asked again just before each request (I4). */
  const wanted = async (intentId: string) => {
    const t = await deps.tracker.get(intentId);
    return t && t.phase !== 'final' && t.estimatedDuration === undefined && t.routeDuration === undefined ? t : undefined;
  };
  const run = async (intentId: string) => {
    const t = await wanted(intentId);
    if (!t) return;
    const client = await deps.client();
    if (!client) return;
    tries.set(intentId, (tries.get(intentId) ?? 0) + 1);
    // Until it is known to have found something, the next try waits: a failure or a miss is not asked again at once.
    notBefore.set(intentId, monotonic() + RETRY_AFTER_MISS_MS);
    // A failure (not a miss) is tried again sooner, doubling per try in this life.
    const soon = () => notBefore.set(intentId, monotonic() + RETRY_AFTER_FAILURE_MS * 2 ** ((tries.get(intentId) ?? 1) - 1));
    try {
      if (await find(client, t, deps.tracker, async () => (await wanted(intentId)) !== undefined, misses)) soon();
    } catch (err) {
      soon();
      throw err;
    }
  };
  // The queue is `queued` itself (a Set keeps its insertion order): the look-up running is its first id, deleted once
  // done. One loop drains it, so a desk's thousands waiting cost one Set entry each, not a chain of promises.
  // A loop runs (or is about to) exactly while the Set is not empty: it ends on finding it empty.
  let drained: Promise<void> = Promise.resolve();
  const drain = async () => {
    for (let next = first(queued); next !== undefined; next = first(queued)) {
      // Tried again on a later change of the intent, up to MAX_TRIES.
      await run(next).catch(() => {});
      queued.delete(next);
    }
  };
  return (intentId) => {
    if (!intentId || queued.has(intentId)) return drained;
    const waits = (tries.get(intentId) ?? 0) >= MAX_TRIES || monotonic() < (notBefore.get(intentId) ?? Number.NEGATIVE_INFINITY);
    if (waits) return drained;
    const idle = queued.size === 0;
    queued.add(intentId);
    // The loop starts on a later turn: `drained` is set before any look-up runs (one may call `ensure` at once).
    if (idle) drained = Promise.resolve().then(drain);
    return drained;
  };
}

/** The first value of `set` (the oldest still in it), or undefined when it is empty. */
const first = <T>(set: Set<T>): T | undefined => set.values().next().value;

/** What earlier look-ups found nothing for (see {@link createBaselineFinder}). */
interface Misses {
  /** Intents whose quote has no estimate, with the chain pair GetIntent gave. */
  noEstimate: Map<string, { origin: number | null | undefined; destination: number | null | undefined }>;
  /** Chain pairs (`origin>destination`) whose history gave no median, until when (monotonic ms). */
  routes: Map<string, number>;
  monotonic: () => number;
}

/**
 * Looks the baseline of `t` up; `stillWanted` is asked when each request's turn comes in the worker's budget, so that
 * nothing is sent for an intent removed (or finished) while its look-up waited or ran. Resolves true when GetIntent
 * failed and no route median was kept instead (the quote is still to be read); throws when GetIntent failed and the
 * chain pair is unknown, or the history read failed.
 */
async function find(
  client: Pick<SvcClient, 'getIntent' | 'getIntentHistory'>,
  t: TrackedIntent,
  tracker: Pick<Tracker, 'setBaseline'>,
  stillWanted: () => Promise<boolean>,
  misses: Misses,
): Promise<boolean> {
  let quoteFailed = false;
  let chains = misses.noEstimate.get(t.intentId) ?? (t.receipt ? routeChains(t.receipt) : { origin: undefined, destination: undefined });
  if (!misses.noEstimate.has(t.intentId)) {
    try {
      const { intent } = await client.getIntent({ intentId: t.intentId }, { timeoutMs: 10_000, stillWanted });
      // An estimate beyond a day (2^256 − 1 among them) is none: the route's median is looked for instead.
      const estimate = plausibleEstimate(intent.quote?.estimatedDuration);
      if (estimate !== undefined) {
        await tracker.setBaseline(t.intentId, { estimatedDuration: estimate });
        return false;
      }
      chains = { origin: intent.originChainId ?? chains.origin, destination: intent.destinationChainId ?? chains.destination };
      misses.noEstimate.set(t.intentId, chains);
    } catch (err) {
      if (chains.origin === undefined) throw err;
      quoteFailed = true;
    }
  }
  const { origin, destination } = chains;
  if (origin === undefined || origin === null || destination === undefined || destination === null) return quoteFailed;
  const route = `${origin}>${destination}`;
  if (misses.monotonic() < (misses.routes.get(route) ?? Number.NEGATIVE_INFINITY)) return quoteFailed;
  if (!(await stillWanted())) return false;
  const { intents } = await client.getIntentHistory(
    { originChainId: origin, destinationChainId: destination, byStatus: 'SUCCEEDED', page: { pageSize: ROUTE_SAMPLE } },
    { timeoutMs: 15_000, stillWanted },
  );
  const median = routeMedianSeconds(intents, origin, destination);
  if (median === undefined) {
    misses.routes.set(route, misses.monotonic() + ROUTE_MISS_MS);
    return quoteFailed;
  }
  await tracker.setBaseline(t.intentId, { routeDuration: median });
  return false;
}
