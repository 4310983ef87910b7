/** Tracking on request (popup, menu, watched addresses): validate the intentId, hand it to the tracker, keep the list short. */
import { parseIntentId } from '../api/intent-id';
import type { ReplyOf } from '../messages';
import type { RemovedIntents, TrackedIntent } from '../store';
import type { Tracker } from '../tracker/engine';

/** Finished intents kept at most; the oldest are pruned beyond it. */
export const MAX_FINISHED = 200;

/** What the tracking helpers use of the tracker. */
export type TrackerList = Pick<Tracker, 'track' | 'list' | 'remove'>;

/**
 * Tracks one intentId given as text. Resolves with `{ok, added, intentId}` (added false when it was tracked
 * already), or `{ok: false, message}` for text that is not an intentId; never throws for bad input.
 */
export type TrackIntent = (intentId: string, extra?: Pick<TrackedIntent, 'source' | 'estimatedDuration'>) => Promise<ReplyOf<'track'>>;

/**
 * Creates {@link TrackIntent} over the tracker; each new intent prunes the finished ones beyond {@link MAX_FINISHED}.
 * Tracking by hand (any source but `watched`) lifts the intent's removal mark in `removed`.
 */
export function createTrackIntent(tracker: TrackerList, removed?: Pick<RemovedIntents, 'delete'>): TrackIntent {
  return async (intentId, extra = {}) => {
    const parsed = parseIntentId(intentId);
    if (!parsed.ok) return { ok: false, message: parsed.message };
    if (extra.source !== 'watched') await removed?.delete(parsed.intentId);
    const { added } = await tracker.track(parsed.intentId, extra);
    if (added) void pruneFinished(tracker);
    return { ok: true, added, intentId: parsed.intentId };
  };
}

/** Forgets the finished intents beyond the newest `max` (by notification time, else by when they were added). */
export async function pruneFinished(tracker: Pick<Tracker, 'list' | 'remove'>, max = MAX_FINISHED): Promise<void> {
  const finished = (await tracker.list())
    .filter((t) => t.phase === 'final')
    .sort((a, b) => (b.notifiedAt ?? b.addedAt) - (a.notifiedAt ?? a.addedAt));
  for (const t of finished.slice(max)) await tracker.remove(t.intentId);
}

/** Forgets every finished intent ("Clear finished"). */
export async function clearFinished(tracker: TrackerList): Promise<void> {
  for (const t of await tracker.list()) if (t.phase === 'final') await tracker.remove(t.intentId);
}
