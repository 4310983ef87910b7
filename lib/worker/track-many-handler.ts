/**
 * The worker's side of `track-many`: a pasted list (intentIds only) or an import (the popup reads the file with
 * `lib/format/import.ts`). Each intent's receipt checked against the IntentReceipt schema (dropped when it does not fit), the notifications of the
 * new muted ones muted before they are tracked (so none can be shown in between), then every intent tracked at once
 * (`./track-many.ts`). Intents tracked already are left as they are, mute included.
 */
import { IntentReceipt } from '../api/schemas/receipt';
import type { ImportSeed } from '../format/import';
import type { RequestOf } from '../messages';
import type { CalmNotifier } from '../notify/pipeline';
import type { Tracker } from '../tracker/engine';
import type { ListItem, ListResult, TrackList } from './track-many';

/** What `track-many` uses. */
export interface TrackManyDeps {
  trackList: TrackList;
  tracker: Pick<Tracker, 'list'>;
  calm: Pick<CalmNotifier, 'mute'>;
}

/** Tracks the intents of a `track-many` request; resolves with what tracking them did. Rejects when the store refuses. */
export function createTrackManyHandler(deps: TrackManyDeps): (request: RequestOf<'track-many'>) => Promise<ListResult> {
  return async (request) => {
    const tracked = new Set((await deps.tracker.list()).map((t) => t.intentId.toLowerCase()));
    const items: ListItem[] = request.intents.map((i) => ({ intentId: i.intentId, seed: seedOf(i), ...(i.muted ? { muted: true } : {}) }));
    // One mute at a time (the calm state is one record); only intents not tracked yet, before they are.
    for (const i of request.intents) {
      const id = i.intentId.trim();
      if (i.muted && !tracked.has(id.toLowerCase())) await deps.calm.mute(/^0x/i.test(id) ? id.toLowerCase() : id, true);
    }
    return deps.trackList(items, { source: 'user' });
  };
}

/** The seed of one imported intent: finite times only, a receipt only when it fits the schema. */
function seedOf(i: RequestOf<'track-many'>['intents'][number]): ImportSeed {
  const seed: ImportSeed = {};
  if (i.status !== undefined) seed.status = i.status;
  if (i.addedAt !== undefined && Number.isFinite(i.addedAt)) seed.addedAt = i.addedAt;
  if (i.notifiedAt !== undefined && Number.isFinite(i.notifiedAt)) seed.notifiedAt = i.notifiedAt;
  if (i.receipt !== undefined && i.receipt !== null) {
    const parsed = IntentReceipt.safeParse(i.receipt);
    if (parsed.success) seed.receipt = parsed.data;
  }
  return seed;
}
