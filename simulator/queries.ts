/**
 * GetIntentHistory (spec §4.3) and SearchIntents (spec §4.4) over the simulator's intents.
 *
 * History pagination: `page.column` is `id` (default) or `createdAt`; the sort is `page.sort[0].order` on that
 * column (default DESC: newest first). `page.after` is the cursor of the next page: the column value of the last
 * intent returned (ms since the epoch for createdAt); results are the intents strictly after it in the sort order.
 * `page.before` is the cursor of the previous page: intents strictly before it, nearest first. `pageSize` defaults to
 * 20 and is clamped to {@link MAX_PAGE_SIZE}; the clamped size is stated in `nextPage.pageSize`. `nextPage` is absent
 * on the last page. Ids and creation times are unique, so no intent is skipped or repeated across pages, even while
 * new intents arrive (they sort before the first page in DESC order).
 */
import { hashesAt, intentAddressOf, intentAt, type SimIntent, snapshotAt, statusAt } from './lifecycle';
import { usdOf } from './tokens';

/** Largest page GetIntentHistory returns. */
export const MAX_PAGE_SIZE = 100;
/** Default page size (spec §8). */
export const DEFAULT_PAGE_SIZE = 20;
/** Statuses in which nothing more will happen: funds left then are recoverable. */
export const TERMINAL = ['SUCCEEDED', 'FAILED', 'ABORTED', 'REFUNDED', 'INVALID'];

/** An invalid request: becomes InvalidArgument (2000). */
export class QueryError extends Error {}

type Json = Record<string, unknown>;

const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);
const num = (v: unknown, name: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new QueryError(`${name} must be a number`);
  return v;
};

/** BalanceEntry[] of an intent (spec §2.5): what its intent address still holds. */
function balancesOf(intent: SimIntent) {
  if (!intent.balance) return [];
  const t = intent.balance.token;
  return [
    {
      intentAddress: intentAddressOf(intent),
      chainId: t.chainId,
      tokens: [
        {
          contractAddress: t.address,
          balance: intent.balance.amount,
          balanceUsd: usdOf(BigInt(intent.balance.amount), t).toFixed(2),
          priceUsd: String(t.priceUsd),
          decimals: t.decimals,
          chainId: t.chainId,
          symbol: t.symbol,
        },
      ],
    },
  ];
}

/**
 * The intents sorted by each history column (ascending), kept sorted as intents arrive, so that a page of
 * GetIntentHistory costs a binary search plus the rows it scans rather than a sort of every intent (thousands in
 * the busy-project mode).
 */
export class IntentIndex {
  readonly byId: SimIntent[] = [];
  readonly byCreatedAt: SimIntent[] = [];

  /** Adds an intent; its `numericId` and `createdAt` must not change afterwards. */
  add(intent: SimIntent): void {
    this.byId.splice(upperBound(this.byId, intent.numericId, idKey), 0, intent);
    this.byCreatedAt.splice(upperBound(this.byCreatedAt, intent.createdAt, createdKey), 0, intent);
  }
}

const idKey = (i: SimIntent) => i.numericId;
const createdKey = (i: SimIntent) => i.createdAt;

/** First index whose key is greater than `v` (`sorted` ascending by `key`). */
function upperBound(sorted: readonly SimIntent[], v: number, key: (i: SimIntent) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose key is at least `v`. */
function lowerBound(sorted: readonly SimIntent[], v: number, key: (i: SimIntent) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * GetIntentHistory over `index`. `listed` says whether an intent may appear at all (the not-in-history mode);
 * intents created after `now` or still NotFound never do.
 */
export function intentHistory(index: IntentIndex, now: number, req: Json, listed: (i: SimIntent) => boolean = () => true): Json {
  const page = (req.page ?? {}) as Json;
  const column = page.column === undefined || page.column === '' ? 'id' : page.column;
  if (column !== 'id' && column !== 'createdAt') throw new QueryError(`page.column must be "id" or "createdAt", not ${String(column)}`);
  const sort = Array.isArray(page.sort) ? (page.sort as Json[]) : [];
  const order = String(sort[0]?.order ?? 'DESC').toUpperCase();
  if (order !== 'ASC' && order !== 'DESC') throw new QueryError('sort order must be ASC or DESC');
  const requested = num(page.pageSize, 'page.pageSize') ?? DEFAULT_PAGE_SIZE;
  const pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(requested)));
  const after = num(page.after, 'page.after');
  const before = num(page.before, 'page.before');

  const statuses =
    Array.isArray(req.byStatuses) && req.byStatuses.length > 0
      ? (req.byStatuses as unknown[]).map(String)
      : typeof req.byStatus === 'string' && req.byStatus !== ''
        ? [req.byStatus]
        : undefined;
  const fromTime = num(req.fromTime, 'fromTime');
  const toTime = num(req.toTime, 'toTime');
  const byProjectId = num(req.byProjectId, 'byProjectId');
  const originChainId = num(req.originChainId, 'originChainId');
  const destinationChainId = num(req.destinationChainId, 'destinationChainId');
  const owner = lower(req.byOwnerAddress);
  const originToken = lower(req.originTokenAddress);
  const destinationToken = lower(req.destinationTokenAddress);

  const matches = (i: SimIntent): boolean => {
    if (i.createdAt > now || (i.visibleAt !== undefined && i.visibleAt > now) || !listed(i)) return false;
    if (byProjectId !== undefined && i.projectId !== byProjectId) return false;
    if (owner && owner !== i.ownerAddress.toLowerCase()) return false;
    if (originChainId !== undefined && i.origin.chainId !== originChainId) return false;
    if (destinationChainId !== undefined && i.destination.chainId !== destinationChainId) return false;
    if (originToken && originToken !== i.origin.address.toLowerCase()) return false;
    if (destinationToken && destinationToken !== i.destination.address.toLowerCase()) return false;
    if (fromTime !== undefined && i.createdAt < fromTime * 1000) return false;
    if (toTime !== undefined && i.createdAt > toTime * 1000 + 999) return false;
    const status = statusAt(i, now);
    if (statuses && !statuses.includes(status)) return false;
    if (req.onlyRecoverable === true && !(i.balance && TERMINAL.includes(status))) return false;
    return true;
  };

  const key = column === 'id' ? idKey : createdKey;
  const sorted = column === 'id' ? index.byId : index.byCreatedAt;
  const desc = order === 'DESC';
  // Walks `sorted` from `from` in `step` direction, collecting up to `limit` matching intents.
  const collect = (from: number, step: 1 | -1, limit: number) => {
    const found: SimIntent[] = [];
    for (let k = from; k >= 0 && k < sorted.length && found.length < limit; k += step) {
      if (matches(sorted[k]!)) found.push(sorted[k]!);
    }
    return found;
  };
  let selected: SimIntent[];
  let cursor: Json | undefined;
  if (before !== undefined) {
    // Previous page: the `pageSize` intents just before the cursor in sort order, nearest first while collecting.
    const near = desc
      ? collect(upperBound(sorted, before, key), 1, pageSize + 1)
      : collect(lowerBound(sorted, before, key) - 1, -1, pageSize + 1);
    selected = near.slice(0, pageSize).reverse();
    const first = selected[0];
    cursor = near.length > pageSize && first ? { before: key(first) } : undefined;
  } else {
    const start = desc
      ? (after === undefined ? sorted.length : lowerBound(sorted, after, key)) - 1
      : after === undefined
        ? 0
        : upperBound(sorted, after, key);
    const rest = collect(start, desc ? -1 : 1, pageSize + 1);
    selected = rest.slice(0, pageSize);
    const last = selected[selected.length - 1];
    cursor = rest.length > pageSize && last ? { after: key(last) } : undefined;
  }
  const includeBalances = req.includeBalances === true;
  const intents = selected.map((i) => {
    const snap = snapshotAt(i, now);
    return {
      intentId: i.intentId,
      status: snap.status,
      expiresAt: new Date(i.createdAt + 10 * 60_000).toISOString(),
      receipt: snap.receipt,
      updatedAt: snap.receipt.updatedAt,
      createdAt: snap.receipt.createdAt,
      ...(includeBalances ? { hasBalance: !!i.balance, balances: balancesOf(i) } : {}),
    };
  });
  const nextPage = cursor ? { column, ...cursor, sort: [{ column, order }], pageSize, more: true } : undefined;
  return { intents, ...(nextPage ? { nextPage } : {}) };
}

const SEARCH_FILTERS = [
  'byIntentId',
  'byProjectId',
  'byTransactionHash',
  'byDepositTransactionHash',
  'byOwnerAddress',
  'byOriginIntentAddress',
  'byDestinationIntentAddress',
  'byQueryString',
] as const;

/** SearchIntents: filters combined with AND; newest first; no filter → QueryError. */
export function searchIntents(all: SimIntent[], now: number, req: Json): Json {
  const given = SEARCH_FILTERS.filter((f) => req[f] !== undefined && req[f] !== null && req[f] !== '');
  if (given.length === 0) throw new QueryError('give at least one filter');
  const hash = lower(req.byTransactionHash ?? req.byDepositTransactionHash);
  const q = lower(req.byQueryString)?.trim();
  const projectId = num(req.byProjectId, 'byProjectId');
  const found = all
    .filter((i) => i.createdAt <= now && (i.visibleAt === undefined || i.visibleAt <= now))
    .filter((i) => {
      const intentAddress = intentAddressOf(i).toLowerCase();
      if (req.byIntentId && lower(req.byIntentId) !== i.intentId) return false;
      if (projectId !== undefined && i.projectId !== projectId) return false;
      // Building the receipt for its hashes is the costly part: only when a filter needs them.
      const hashes = hash || q ? hashesAt(i, now).map((h) => h.toLowerCase()) : [];
      if (hash && !hashes.includes(hash)) return false;
      if (req.byOwnerAddress && lower(req.byOwnerAddress) !== i.ownerAddress.toLowerCase()) return false;
      if (req.byOriginIntentAddress && lower(req.byOriginIntentAddress) !== intentAddress) return false;
      if (req.byDestinationIntentAddress && lower(req.byDestinationIntentAddress) !== intentAddress) return false;
      if (q) {
        const fields = [i.intentId, i.ownerAddress.toLowerCase(), intentAddress, ...hashes];
        if (!fields.some((f) => f.startsWith(q))) return false;
      }
      return true;
    })
    .sort((a, b) => b.numericId - a.numericId);
  return { intents: found.map((i) => intentAt(i, now)) };
}
