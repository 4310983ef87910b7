/**
 * Following GetIntentHistory pages (spec §4.3), and the lookup operations the popup needs, as an interface that
 * SvcApi implements directly and the popup implements through the background worker (so the popup bundle carries no
 * HTTP client and no schemas).
 */
import type { CallOptions } from './client';
import type {
  GetExactOutputRoutesRequest,
  GetExactOutputRoutesResponse,
  GetIntentHistoryRequest,
  GetIntentHistoryResponse,
  GetTokenPricesRequest,
  GetTokenPricesResponse,
  IntentHistory,
  SearchIntentsRequest,
  SearchIntentsResponse,
} from './operations';

/** The read-only operations behind the popup's History, Search, Stuck funds and Routes views. */
export interface LookupApi {
  getIntentHistory(request?: GetIntentHistoryRequest, options?: CallOptions): Promise<GetIntentHistoryResponse>;
  searchIntents(request: SearchIntentsRequest, options?: CallOptions): Promise<SearchIntentsResponse>;
  getExactOutputRoutes(request: GetExactOutputRoutesRequest, options?: CallOptions): Promise<GetExactOutputRoutesResponse>;
  getTokenPrices(request: GetTokenPricesRequest, options?: CallOptions): Promise<GetTokenPricesResponse>;
}

/** Limits of {@link iterateIntentHistory}. */
export interface HistoryIterationOptions extends CallOptions {
  /** Most pages fetched (default 50). */
  maxPages?: number;
  /** Most intents yielded (default 5 000). */
  maxItems?: number;
}

/**
 * Yields every IntentHistory of a GetIntentHistory query, following `nextPage` until it is absent or null or says
 * `more: false` (spec §4.3), stopping early at `maxPages` pages or `maxItems` items. Throws what the API throws.
 */
export async function* iterateIntentHistory(
  api: Pick<LookupApi, 'getIntentHistory'>,
  request: GetIntentHistoryRequest = {},
  options: HistoryIterationOptions = {},
): AsyncGenerator<IntentHistory, void, undefined> {
  const { maxPages = 50, maxItems = 5000, ...callOptions } = options;
  let page = request.page;
  let items = 0;
  for (let pages = 0; pages < maxPages; pages++) {
    const res = await api.getIntentHistory({ ...request, ...(page ? { page } : {}) }, callOptions);
    for (const intent of res.intents) {
      if (items >= maxItems) return;
      items++;
      yield intent;
    }
    const next = res.nextPage;
    if (!next || next.more === false) return;
    page = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== null)) as GetIntentHistoryRequest['page'];
  }
}
