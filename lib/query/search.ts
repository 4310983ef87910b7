/**
 * The search box: what the user typed → the SearchIntents requests (docs/protocol.md §7) that answer it.
 */
import type { SearchIntentsRequest } from '../api/schemas/intent';

/** What a search input was understood as. */
export type SearchKind = 'hash' | 'address' | 'text';

/**
 * Understands a search input:
 * - 0x + 64 hex: an intentId or a transaction hash of any leg → `byIntentId` and `byTransactionHash`;
 * - 0x + 40 hex: an owner or intent address → `byOwnerAddress`, `byOriginIntentAddress`, `byDestinationIntentAddress`;
 * - anything else: free text → `byQueryString`.
 * Each request is sent on its own (the filters of one request combine with AND); results are merged by intentId.
 * Returns undefined for an empty or over-long input.
 */
export function searchRequests(input: string): { kind: SearchKind; requests: SearchIntentsRequest[] } | undefined {
  const q = input.trim();
  if (q === '' || q.length > 200) return undefined;
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) {
    const v = q.toLowerCase();
    return { kind: 'hash', requests: [{ byIntentId: v }, { byTransactionHash: v }] };
  }
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) {
    return { kind: 'address', requests: [{ byOwnerAddress: q }, { byOriginIntentAddress: q }, { byDestinationIntentAddress: q }] };
  }
  return { kind: 'text', requests: [{ byQueryString: q }] };
}

/** Merges result lists by `intentId`, keeping the first occurrence, newest (highest `id`) first. */
export function mergeById<T extends { intentId: string; id?: number | null }>(lists: T[][]): T[] {
  const seen = new Map<string, T>();
  for (const list of lists) for (const item of list) if (!seen.has(item.intentId)) seen.set(item.intentId, item);
  return [...seen.values()].sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
}
