/**
 * Tracking a list at once (a paste of many intentIds, an import): every id validated and de-duplicated, the removal
 * marks lifted in one write, every record written in one store transaction (`Tracker.trackMany`), the finished
 * intents pruned once. O(n log n) in the number tracked: no per-id listing or store round trip.
 */
import { parseIntentId } from '../api/intent-id';
import type { InvalidId } from '../api/intent-list';
import type { ImportSeed } from '../format/import';
import type { NotificationPipeline } from '../notify/pipeline';
import type { RemovedIntents } from '../store';
import type { Tracker } from '../tracker/engine';
import type { TrackEntry } from '../tracker/track-many';

/** Finished intents kept at most; the oldest are pruned beyond it. */
export const MAX_FINISHED = 200;

/** Forgets the finished intents beyond the newest `max` (by notification time, else by when they were added). */
export async function pruneFinished(tracker: Pick<Tracker, 'list' | 'remove'>, max = MAX_FINISHED): Promise<void> {
  const finished = (await tracker.list())
    .filter((t) => t.phase === 'final')
    .sort((a, b) => (b.notifiedAt ?? b.addedAt) - (a.notifiedAt ?? a.addedAt));
  for (const t of finished.slice(max)) await tracker.remove(t.intentId);
}

/** Invalid ids reported back at most (their count is always given). */
export const MAX_REPORTED_INVALID = 100;

/** One item of a list to track: the text given as its intentId (validated here), and what an import knows of it. */
export interface ListItem {
  intentId: string;
  seed?: ImportSeed;
  /** Muted by the import just before (an export's muted intent): the forget of an earlier tracking keeps that mute. */
  muted?: boolean;
}

/**
 * What tracking a list did: `added` the intentIds newly tracked (normalised, in the order given); `already` how many
 * valid ones were tracked before (repeats within the list not counted); `invalid` the first
 * {@link MAX_REPORTED_INVALID} texts that are not intentIds with the reason, `invalidCount` all of them.
 */
export interface ListResult {
  added: string[];
  already: number;
  invalid: InvalidId[];
  invalidCount: number;
}

/** What tracking a list uses of the tracker. */
export type ListTracker = Pick<Tracker, 'trackMany' | 'list' | 'remove' | 'get'>;

/** Tracks a list (see {@link createTrackList}). Rejects only when the store refuses the write: nothing is tracked then. */
export type TrackList = (items: readonly ListItem[], extra?: TrackEntry['extra']) => Promise<ListResult>;

/**
 * Creates {@link TrackList} over the tracker. By hand (any source but `watched`) the removal marks of the listed
 * intents are lifted, as for one; `notifier` forgets what an earlier tracking of those not tracked now left (mutes,
 * told finals). The finished intents beyond the kept number are pruned once, after the write, when something was added.
 */
export function createTrackList(
  tracker: ListTracker,
  removed?: Pick<RemovedIntents, 'deleteMany'>,
  notifier?: Pick<NotificationPipeline, 'forgetMany'>,
): TrackList {
  return async (items, extra = {}) => {
    const entries: TrackEntry[] = [];
    const invalid: InvalidId[] = [];
    const seen = new Set<string>();
    /** Muted by the import just before: the forget below keeps their mute. */
    const keepMuted = new Set<string>();
    // The first item of an id gives its seed.
    for (const item of items) {
      const parsed = parseIntentId(item.intentId);
      if (!parsed.ok) {
        invalid.push({ text: item.intentId, message: parsed.message });
        continue;
      }
      if (item.muted) keepMuted.add(parsed.intentId);
      if (!seen.has(parsed.intentId)) {
        seen.add(parsed.intentId);
        entries.push({ intentId: parsed.intentId, extra, ...(item.seed ? { seed: item.seed } : {}) });
      }
    }
    const ids = entries.map((e) => e.intentId);
    if (extra.source !== 'watched' && ids.length > 0) await removed?.deleteMany(ids);
    // Tracked anew: what an earlier tracking left in the outbox goes first (its removal's own clean-up may have been
    // lost), so that this one is told. Those the tracker could not say, or whose forget was refused, are forgotten
    // once more after the write, from what it added (before any answer about them is likely back).
    let forgotten = new Set<string>();
    if (notifier) {
      const untracked = await Promise.all(ids.map(async (id) => (await tracker.get(id).catch(() => null)) === undefined));
      const fresh = ids.filter((_, i) => untracked[i]);
      const done = await notifier.forgetMany(fresh, keepMuted).then(
        () => true,
        () => false,
      );
      if (done) forgotten = new Set(fresh);
    }
    const added = ids.length > 0 ? (await tracker.trackMany(entries)).map((r) => r.added) : [];
    const late = ids.filter((id, i) => added[i] && !forgotten.has(id));
    if (notifier && late.length > 0) await notifier.forgetMany(late, keepMuted).catch(() => {});
    if (added.some(Boolean)) void pruneFinished(tracker).catch(() => {});
    return {
      added: ids.filter((_, i) => added[i]),
      already: added.filter((a) => !a).length,
      invalid: invalid.slice(0, MAX_REPORTED_INVALID),
      invalidCount: invalid.length,
    };
  };
}
