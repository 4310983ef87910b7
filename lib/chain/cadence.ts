/**
 * When to ask a chain again about a leg (docs/chain.md): from the verdict, the chain's block
 * time and finality depth. Pure; delays in milliseconds, measured by the caller on the monotonic clock.
 */
import { isSettled, type LegCheck } from './verify';

/** Bounds of a delay between two checks of one leg (ms). */
export const MIN_CHECK_MS = 4_000;
export const MAX_CHECK_MS = 60_000;

/**
 * The delay before the next check of a leg, or undefined when it is settled (final, or reverted and final): never
 * again. Not seen: 12 s; missing or re-orged: 30 s (it may come back); in a block: about when its missing
 * confirmations should be complete at `blockTimeMs` (half a block later, so that a block a little late does not cost
 * another check), within {@link MIN_CHECK_MS}..{@link MAX_CHECK_MS}. So a leg is read about three times on its way to
 * final (seen, at the 60 s bound while many blocks are missing, then once they should all be there) rather than a
 * dozen, and a re-org of a leg not yet final is seen within 60 s.
 */
export function nextCheckDelay(check: LegCheck, blockTimeMs: number, finalityDepth: number): number | undefined {
  if (isSettled(check)) return undefined;
  switch (check.kind) {
    case 'not-seen':
      return 12_000;
    case 'missing':
    case 'reorged':
      return 30_000;
    default: {
      const remaining = Math.max(1, finalityDepth - check.confirmations);
      return Math.min(MAX_CHECK_MS, Math.max(MIN_CHECK_MS, Math.round((remaining + 0.5) * blockTimeMs)));
    }
  }
}

/**
 * The delay before asking again about a leg that has no verdict yet because its check sent no request (empty budget)
 * or failed: the verifier's `retryMs` within {@link MIN_CHECK_MS}..{@link MAX_CHECK_MS}; undefined without one (the
 * chain is off: turning it on resumes the checks). Without it, a leg skipped while the receipt's other legs settle
 * would never be checked again.
 */
export function retryDelay(retryMs: number | undefined): number | undefined {
  if (retryMs === undefined || Number.isNaN(retryMs)) return undefined;
  return Math.min(MAX_CHECK_MS, Math.max(MIN_CHECK_MS, retryMs));
}

/** Delay (ms) before a leg whose RPC request failed is asked again the first time; doubled at each failure in a row. */
export const RETRY_AFTER_ERROR_MS = 12_000;

/**
 * The back-off after `failures` RPC failures in a row on one leg (1: the first): {@link RETRY_AFTER_ERROR_MS}, doubled
 * at each further failure, at most {@link MAX_CHECK_MS} — 12 s, 24 s, 48 s, then 60 s.
 */
export function backoffDelay(failures: number): number {
  return Math.min(MAX_CHECK_MS, RETRY_AFTER_ERROR_MS * 2 ** Math.max(0, failures - 1));
}
