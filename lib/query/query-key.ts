/**
 * The identity of a lookup query, for telling an answer to the query on screen from an answer to one the user has
 * since replaced (popup History, Search, Stuck funds, Routes).
 */

/** Drops what does not change a query (undefined, empty strings) and orders object keys, recursively. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || v === '') continue;
      out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

/**
 * A query's key: its canonical JSON (object keys sorted, undefined and empty-string fields left out, arrays in their
 * order). Two queries that ask the same thing have the same key. The lookup tabs put it on their result list as
 * `data-query`, so that a test (or a user's tooling) can tell which query a list shows; e.g. History's filters
 * `{ statuses: [], range: 'any', ownerAddress: '0xab…' }` → `{"ownerAddress":"0xab…","range":"any","statuses":[]}`.
 */
export function queryKey(query: unknown): string {
  return JSON.stringify(canonical(query));
}
