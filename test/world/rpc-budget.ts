/**
 * The stated on-chain RPC budget (docs/chain.md "Budgets" and "In the worker": per RPC origin 30 requests a minute,
 * burst 8, a check of a leg 4 requests; a leg that found the budget empty is asked again when the budget holds a
 * check's requests, at least 4 s later) replayed from the checks a run's origin really saw (each takes its 4 tokens at
 * its first request, however many it then sends), for oracle V1
 * (test/world/chain-family.ts): by when a leg named at `from` and never asked since is owed a read at the latest.
 */
import { RPC_BURST, RPC_REQUESTS_PER_MINUTE } from '@/lib/chain/budget';
import { MIN_CHECK_MS } from '@/lib/chain/cadence';

/**
 * Requests of one check of a leg (an ERC-20 destination or any other leg: chainId, receipt, head, block), taken from the
 * budget before its first request whatever it then sends (lib/chain/verifier.ts).
 */
export const CHECK_REQUESTS = 4;
const PER_MS = RPC_REQUESTS_PER_MINUTE / 60_000;

/**
 * The first instant (ms, the times' scale) at or after `from` + 4 s at which the origin's bucket — full at each worker
 * life's start (`lifeStarts`: one budget a life), one token for each time in `requests` (a check's 4 at its first
 * request), refilled at 30 a minute up to 8 — holds a check's 4 after those taken at that instant (another leg due then may
 * go first: the worker serves one of two legs that wait for the same tokens): a worker that had not asked about a leg
 * named at `from` owes it a read then. Pure.
 */
export function budgetOwedAt(requests: readonly number[], lifeStarts: readonly number[], from: number): number {
  const events = [...lifeStarts.map((t) => ({ t, reset: true })), ...requests.map((t) => ({ t, reset: false }))].sort(
    (a, b) => a.t - b.t || Number(b.reset) - Number(a.reset),
  );
  let tokens = RPC_BURST;
  let at = Math.min(0, ...events.map((e) => e.t));
  let i = 0;
  const advance = (t: number) => {
    tokens = Math.min(RPC_BURST, tokens + (t - at) * PER_MS);
    at = t;
  };
  const apply = (e: { t: number; reset: boolean }) => {
    advance(e.t);
    tokens = e.reset ? RPC_BURST : tokens - 1;
  };
  const start = from + MIN_CHECK_MS;
  for (; i < events.length && events[i]!.t <= start; i++) apply(events[i]!);
  advance(start);
  if (tokens >= CHECK_REQUESTS) return start;
  for (;;) {
    const next = i < events.length ? events[i]!.t : Number.POSITIVE_INFINITY;
    const full = at + (CHECK_REQUESTS - tokens) / PER_MS;
    if (full < next) return full;
    for (; i < events.length && events[i]!.t === next; i++) apply(events[i]!);
    if (tokens >= CHECK_REQUESTS) return next;
  }
}
