/**
 * Search and filter over the tracked list, in the popup (pure): a text matched in each intent's intentId, status,
 * chains, token symbols and leg transaction hashes, and a filter by where it stands. Each intent's searchable text is
 * built once per list (`searchIndex`); a query is then one pass, O(n), over 5,000 intents in a few milliseconds.
 */
import { LEG_KINDS, legOf } from '../api/legs';
import { FINAL_INTENT_STATUSES } from '../api/status';
import { isInFlight } from '../eta';
import { routeText } from '../format/intent';
import type { TrackedIntent } from '../store';

/** Where an intent stands, as the Tracked tab filters it. */
export type TrackedFilter = 'all' | 'in-flight' | 'succeeded' | 'failed' | 'stopped';

/** The filters, in the order offered. */
export const TRACKED_FILTERS: readonly TrackedFilter[] = ['all', 'in-flight', 'succeeded', 'failed', 'stopped'];

/** Final statuses the "failed" filter keeps: the intent did not deliver what was asked. */
const FAILED = new Set(FINAL_INTENT_STATUSES.filter((s) => s !== 'SUCCEEDED'));

/** True when `t` passes `filter`. */
export function passes(t: TrackedIntent, filter: TrackedFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'in-flight':
      return isInFlight(t);
    case 'succeeded':
      return t.status === 'SUCCEEDED';
    case 'failed':
      return t.status !== undefined && FAILED.has(t.status);
    case 'stopped':
      return t.phase === 'not-found' || t.phase === 'expired';
  }
}

/** The lower-cased text a search looks in: intentId, status, route, token symbols, the legs' transaction hashes. */
export function searchText(t: TrackedIntent): string {
  const r = t.receipt;
  const parts = [t.intentId, t.status ?? ''];
  if (r) {
    parts.push(routeText(r), r.summary?.originTokenMetadata?.symbol ?? '', r.summary?.destinationTokenMetadata?.symbol ?? '');
    for (const kind of LEG_KINDS) parts.push(legOf(r, kind)?.txnHash ?? '');
  }
  return parts.join(' ').toLowerCase();
}

/**
 * Each record's search text, computed once per record object: records are replaced, never changed in place (the
 * worker writes a new record, the popup patches it into its list), so a list read again after a change formats only
 * the records that changed.
 */
const prepared = new WeakMap<TrackedIntent, string>();

/** {@link searchText} of `t`, from the cache of prepared texts when this record object was seen before. */
export function preparedText(t: TrackedIntent): string {
  let text = prepared.get(t);
  if (text === undefined) {
    text = searchText(t);
    prepared.set(t, text);
  }
  return text;
}

/** Each intent's searchable text, by intentId (build once per list; unchanged records reuse their prepared text). */
export function searchIndex(list: readonly TrackedIntent[]): Map<string, string> {
  return new Map(list.map((t) => [t.intentId, preparedText(t)]));
}

/**
 * The intents of `list` (order kept) that pass `filter` and whose text holds every word of `query` (any case).
 * O(n · words).
 */
export function filterTracked(
  list: readonly TrackedIntent[],
  index: ReadonlyMap<string, string>,
  query: string,
  filter: TrackedFilter,
): TrackedIntent[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 && filter === 'all') return list as TrackedIntent[];
  return list.filter((t) => {
    if (!passes(t, filter)) return false;
    const text = index.get(t.intentId) ?? preparedText(t);
    return words.every((w) => text.includes(w));
  });
}
