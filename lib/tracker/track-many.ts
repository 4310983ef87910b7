/**
 * What tracking many intents at once writes (pure): the record of each entry of a list — pasted intentIds, or the
 * rows of an import (another browser's export, `lib/format/import.ts`). The engine writes them all in one store
 * transaction (`Tracker.trackMany`).
 */
import type { ImportSeed } from '../format/import';
import type { TrackedIntent } from '../store';
import { isFinalStatus, isReceiptFor } from './policy';
import { guarded, tracked } from './transitions';

/** One intent of a list to track: an intentId already validated (`lib/api/intent-id.ts`). */
export interface TrackEntry {
  intentId: string;
  extra?: Pick<TrackedIntent, 'source' | 'estimatedDuration'>;
  /** Set for an imported intent: the record starts from what the export knew. */
  seed?: ImportSeed;
}

/**
 * The record to write for `entry` (undefined: leave `current` as it is). An intent tracked already is treated as by
 * `track()` (left as it is, or a stopped one tracked again). A new imported intent starts in `tracking` with what its
 * export knew (its `addedAt` at most `now`; its NotFound grace served from the import); one that had already ended (a final status) is marked notified (`notification: 'shown'`, seen), so
 * the tracker confirms its status with one read and never tells the user again.
 */
export function entryRecord(current: TrackedIntent | undefined, entry: TrackEntry, now: number): TrackedIntent | undefined {
  const { intentId, seed } = entry;
  if (current || !seed) return tracked(current, intentId, now, entry.extra);
  const receipt = seed.receipt && isReceiptFor(intentId, seed.receipt.intentId) ? seed.receipt : undefined;
  const status = receipt?.status ?? seed.status;
  const ended = isFinalStatus(status);
  return guarded(undefined, {
    intentId,
    // The export's time of adding (another browser's clock), never in the future of this one; the NotFound grace
    // counts from the import (./not-found-grace).
    addedAt: Math.min(seed.addedAt ?? now, now),
    notFoundGrace: { servedMs: 0, at: now },
    lastStates: [],
    phase: 'tracking',
    notification: ended ? 'shown' : 'none',
    ...(receipt ? { receipt } : {}),
    ...(status ? { status } : {}),
    ...(seed.notifiedAt !== undefined ? { notifiedAt: seed.notifiedAt } : {}),
    ...(ended ? { seen: true } : {}),
    ...entry.extra,
  });
}
