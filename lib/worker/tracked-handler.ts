/**
 * The worker's side of `tracked`: the tracked intents as the tracker holds them in memory (`Tracker.list`, newest
 * added first), so that an open popup never waits for IndexedDB behind the worker's own writes (one store's
 * transactions run in order: with a desk's 5,000 intents a read of the store waited seconds). The first screenful
 * (`first`), a change (`intentIds`), or all.
 */
import type { ReplyOf, RequestOf } from '../messages';
import { firstScreen } from '../query/tracked-page';
import { trackedRow } from '../query/tracked-row';
import type { Tracker } from '../tracker/engine';

/**
 * Creates the handler. `first`: the first `first` rows in the popup's order (in flight first, `firstScreen`);
 * `intentIds`: those of them still tracked (an id missing from the answer is no longer tracked); neither: every one.
 * `rows`: each as the list's row (`trackedRow`), else the whole record. `total` is how many are tracked.
 */
export function createTrackedHandler(tracker: Pick<Tracker, 'list'>): (request: RequestOf<'tracked'>) => Promise<ReplyOf<'tracked'>> {
  return async (r) => {
    const all = await tracker.list();
    const wanted = r.intentIds && new Set(r.intentIds);
    const chosen = wanted ? all.filter((t) => wanted.has(t.intentId)) : r.first === undefined ? all : firstScreen(all, r.first);
    return { ok: true, intents: r.rows ? chosen.map(trackedRow) : chosen, total: all.length };
  };
}
