/** Tracking on request (popup, menu, watched addresses): validate the intentId, hand it to the tracker, keep the list short. */
import { parseIntentId } from '../api/intent-id';
import type { ReplyOf } from '../messages';
import type { RemovedIntents, TrackedIntent } from '../store';
import type { Tracker } from '../tracker/engine';
import { createTrackList, type ListTracker } from './track-many';

export { MAX_FINISHED, pruneFinished } from './track-many';

/** What the tracking helpers use of the tracker. */
export type TrackerList = ListTracker;

/**
 * Tracks one intentId given as text. Resolves with `{ok, added, intentId}` (added false when it was tracked
 * already), or `{ok: false, message}` for text that is not an intentId; never throws for bad input.
 */
export type TrackIntent = (intentId: string, extra?: Pick<TrackedIntent, 'source' | 'estimatedDuration'>) => Promise<ReplyOf<'track'>>;

/**
 * Creates {@link TrackIntent}: a list of one (`./track-many.ts`), so that a new intent prunes the finished ones beyond
 * {@link MAX_FINISHED}, tracking by hand (any source but `watched`) lifts the intent's removal mark in `removed`, and
 * `notifier` forgets what an earlier tracking of it left.
 */
export function createTrackIntent(
  tracker: TrackerList,
  removed?: Pick<RemovedIntents, 'deleteMany'>,
  notifier?: Parameters<typeof createTrackList>[2],
): TrackIntent {
  const trackList = createTrackList(tracker, removed, notifier);
  return async (intentId, extra = {}) => {
    const parsed = parseIntentId(intentId);
    if (!parsed.ok) return { ok: false, message: parsed.message };
    const { added } = await trackList([{ intentId: parsed.intentId }], extra);
    return { ok: true, added: added.length > 0, intentId: parsed.intentId };
  };
}

/** Forgets every finished intent ("Clear finished"). */
export async function clearFinished(tracker: Pick<Tracker, 'list' | 'remove'>): Promise<void> {
  for (const t of await tracker.list()) if (t.phase === 'final') await tracker.remove(t.intentId);
}
