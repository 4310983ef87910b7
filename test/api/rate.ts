/** Counting helpers of the rate tests (I5: at most 60 requests in any 60 s window). */

/** The most times (ms) in any 60 s window [a, a + 60 s), counting only times at or after `from`. */
export function maxInAnyMinute(times: readonly number[], from = Number.NEGATIVE_INFINITY): number {
  const sorted = times.filter((t) => t >= from).sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 60_000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}
