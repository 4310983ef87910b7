/**
 * Finds the ETA baseline of each tracked intent once (lib/eta): the quote's `estimatedDuration` from GetIntent, or,
 * when the quote has none, the median duration of recent SUCCEEDED intents on the same chain pair from
 * GetIntentHistory. The result is kept on the tracked record, so a restarted worker does not ask again.
 */
import type { SvcClient } from '../api/client';
import { routeMedianSeconds } from '../eta';
import { routeChains } from '../format/intent';
import type { TrackedIntent } from '../store';
import type { Tracker } from '../tracker/engine';

/** What the finder uses. */
export interface BaselineFinderDeps {
  client(): Promise<Pick<SvcClient, 'getIntent' | 'getIntentHistory'> | undefined>;
  tracker: Pick<Tracker, 'list' | 'setBaseline'>;
}

/** Rows of recent history the route median is taken over. */
export const ROUTE_SAMPLE = 50;
/** Tries per intent and worker lifetime (a NotFound intent may appear later; an unreachable service may come back). */
const MAX_TRIES = 3;

/**
 * Creates `ensure(intentId)`: looks the baseline up unless the record has one, is final or was tried often enough.
 * Look-ups run one at a time (a list of 500 new intents must not open 500 requests beside the tracker's 4).
 * Never throws (errors leave the intent without a baseline: the popup then shows no countdown).
 */
export function createBaselineFinder(deps: BaselineFinderDeps): (intentId: string) => Promise<void> {
  const tries = new Map<string, number>();
  const queued = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  /** True while `intentId` is tracked, not final and without a baseline: asked again just before each request (I4). */
  const wanted = async (intentId: string) => {
    const t = (await deps.tracker.list()).find((i) => i.intentId === intentId);
    return t && t.phase !== 'final' && t.estimatedDuration === undefined && t.routeDuration === undefined ? t : undefined;
  };
  const run = async (intentId: string) => {
    const t = await wanted(intentId);
    if (!t) return;
    const client = await deps.client();
    if (!client) return;
    tries.set(intentId, (tries.get(intentId) ?? 0) + 1);
    await find(client, t, deps.tracker, async () => (await wanted(intentId)) !== undefined);
  };
  return (intentId) => {
    if (!intentId || queued.has(intentId) || (tries.get(intentId) ?? 0) >= MAX_TRIES) return queue;
    queued.add(intentId);
    queue = queue
      .then(() => run(intentId))
      // Tried again on a later change of the intent, up to MAX_TRIES.
      .catch(() => {})
      .finally(() => queued.delete(intentId));
    return queue;
  };
}

/**
 * Looks the baseline of `t` up; `stillWanted` is asked when each request's turn comes in the worker's budget, so that
 * nothing is sent for an intent removed (or finished) while its look-up waited or ran.
 */
async function find(
  client: Pick<SvcClient, 'getIntent' | 'getIntentHistory'>,
  t: TrackedIntent,
  tracker: Pick<Tracker, 'setBaseline'>,
  stillWanted: () => Promise<boolean>,
) {
  let chains = t.receipt ? routeChains(t.receipt) : { origin: undefined, destination: undefined };
  try {
    const { intent } = await client.getIntent({ intentId: t.intentId }, { timeoutMs: 10_000, stillWanted });
    const estimate = intent.quote?.estimatedDuration;
    if (typeof estimate === 'number' && estimate > 0) return tracker.setBaseline(t.intentId, { estimatedDuration: estimate });
    chains = { origin: intent.originChainId ?? chains.origin, destination: intent.destinationChainId ?? chains.destination };
  } catch (err) {
    if (chains.origin === undefined) throw err;
  }
  const { origin, destination } = chains;
  if (origin === undefined || origin === null || destination === undefined || destination === null) return;
  if (!(await stillWanted())) return;
  const { intents } = await client.getIntentHistory(
    { originChainId: origin, destinationChainId: destination, byStatus: 'SUCCEEDED', page: { pageSize: ROUTE_SAMPLE } },
    { timeoutMs: 15_000, stillWanted },
  );
  const median = routeMedianSeconds(intents, origin, destination);
  if (median !== undefined) await tracker.setBaseline(t.intentId, { routeDuration: median });
}
