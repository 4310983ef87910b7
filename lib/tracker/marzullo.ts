/**
 * Marzullo's algorithm (as NTP's intersection and TigerBeetle's clock use it): given intervals that each claim to hold
 * the true value, the smallest interval agreed by the largest number of them. A source whose interval lies apart (a
 * proxy's odd `Date` header) is outvoted rather than averaged in.
 */

/** The best agreement found: `count` intervals all contain [`lo`, `hi`]. */
export interface Agreement {
  count: number;
  lo: number;
  hi: number;
}

/**
 * The interval agreed by the most of `intervals` (each `[lo, hi]`, closed, lo ≤ hi; same unit in, same unit out);
 * `count` 0 (and NaN bounds) when there is none. Ties: the lowest such interval. O(n log n).
 */
export function marzullo(intervals: ReadonlyArray<readonly [number, number]>): Agreement {
  // Each interval opens at lo (-1) and closes at hi (+1); at one offset, openings come first (closed intervals).
  const edges: Array<[number, number]> = [];
  for (const [lo, hi] of intervals) edges.push([lo, -1], [hi, 1]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let best: Agreement = { count: 0, lo: Number.NaN, hi: Number.NaN };
  let open = 0;
  for (let i = 0; i < edges.length; i++) {
    open -= edges[i]![1];
    if (open > best.count) best = { count: open, lo: edges[i]![0], hi: edges[i + 1]![0] };
  }
  return best;
}
