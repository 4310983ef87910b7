/** Walking through GetIntentHistory page by page (docs/protocol.md §6). */
import type { CallOptions } from './http';
import type { LookupApi } from './lookup';
import type { GetIntentHistoryRequest, IntentHistory } from './schemas/history';

/** Limits of {@link iterateIntentHistory}. */
export interface HistoryIterationOptions extends CallOptions {
  /** Most pages fetched (default 50). */
  maxPages?: number;
  /** Most intents yielded (default 5 000). */
  maxItems?: number;
}

/**
 * Yields every IntentHistory of a GetIntentHistory query, following `nextPage` until it is absent or null or says
 * `more: false`, stopping early at `maxPages` pages or `maxItems` items. Throws what the API throws.
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
