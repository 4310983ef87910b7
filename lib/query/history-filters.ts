/**
 * From the History tab's filters to a GetIntentHistory request (docs/protocol.md §6).
 */
import type { GetIntentHistoryRequest } from '../api/schemas/history';

/** Time ranges offered; `custom` uses `from`/`to` (local dates, YYYY-MM-DD). */
export type TimeRange = 'any' | 'today' | '7d' | '30d' | 'custom';

/** The History tab's filters, as the user set them. */
export interface HistoryFilters {
  statuses: string[];
  originChainId?: number;
  destinationChainId?: number;
  /** Origin token address. */
  tokenAddress?: string;
  ownerAddress?: string;
  range: TimeRange;
  from?: string;
  to?: string;
}

/** No filter at all. */
export const NO_FILTERS: HistoryFilters = { statuses: [], range: 'any' };

/** Page size the popup asks for. */
export const HISTORY_PAGE_SIZE = 20;

/** Start of the local day of `ms`, in ms. */
function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/**
 * `fromTime`/`toTime` in Unix seconds (inclusive) for a range, relative to `nowMs`. Custom dates are local days:
 * `from` at 00:00:00, `to` at 23:59:59. Unparseable custom dates are left out.
 */
export function timeWindow(filters: HistoryFilters, nowMs: number): { fromTime?: number; toTime?: number } {
  const sec = (ms: number) => Math.floor(ms / 1000);
  switch (filters.range) {
    case 'today':
      return { fromTime: sec(startOfDay(nowMs)) };
    case '7d':
      return { fromTime: sec(nowMs - 7 * 86_400_000) };
    case '30d':
      return { fromTime: sec(nowMs - 30 * 86_400_000) };
    case 'custom': {
      const from = filters.from ? Date.parse(`${filters.from}T00:00:00`) : Number.NaN;
      const to = filters.to ? Date.parse(`${filters.to}T23:59:59`) : Number.NaN;
      return { ...(Number.isNaN(from) ? {} : { fromTime: sec(from) }), ...(Number.isNaN(to) ? {} : { toTime: sec(to) }) };
    }
    default:
      return {};
  }
}

/** The GetIntentHistory request for the filters (first page; newest first). Several statuses → `byStatuses`. */
export function historyRequest(filters: HistoryFilters, nowMs: number): GetIntentHistoryRequest {
  return {
    page: { pageSize: HISTORY_PAGE_SIZE, sort: [{ column: 'id', order: 'DESC' }] },
    ...(filters.statuses.length === 1 ? { byStatus: filters.statuses[0] } : {}),
    ...(filters.statuses.length > 1 ? { byStatuses: filters.statuses } : {}),
    ...(filters.originChainId !== undefined ? { originChainId: filters.originChainId } : {}),
    ...(filters.destinationChainId !== undefined ? { destinationChainId: filters.destinationChainId } : {}),
    ...(filters.tokenAddress ? { originTokenAddress: filters.tokenAddress } : {}),
    ...(filters.ownerAddress ? { byOwnerAddress: filters.ownerAddress } : {}),
    ...timeWindow(filters, nowMs),
  };
}
