import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '@/components/ErrorNotice';
import { HistoryFiltersForm } from '@/components/HistoryFiltersForm';
import { HistoryIntentRow } from '@/components/HistoryIntentRow';
import type { LookupApi } from '@/lib/api/lookup';
import type { IntentHistory, Page } from '@/lib/api/schemas/history';
import { describeError, type ErrorMessage } from '@/lib/format/errors';
import { usdOfRaw } from '@/lib/format/usd';
import { t } from '@/lib/i18n';
import { type HistoryFilters, historyRequest, NO_FILTERS } from '@/lib/query/history-filters';
import { queryKey } from '@/lib/query/query-key';
import { useLatestRequest } from '../hooks/useLatestRequest';
import { serviceNow } from '../service-time';
import { openSettings } from '../settings';

const priceKey = (chainId: number | null | undefined, address: string | null | undefined) => `${chainId}:${(address ?? '').toLowerCase()}`;

/** The rows on screen, the query they answer and its cursor. */
interface ShownList {
  /** `queryKey(filters)`, also the list's `data-query`. */
  key: string;
  filters: HistoryFilters;
  rows: IntentHistory[];
  next?: Page;
}

/** The cursor of the next page, or undefined when the service says there is none. */
const more = (page: Page | null | undefined) => (page && page.more !== false ? page : undefined);

/**
 * History tab: GetIntentHistory newest first with filters and "Load more" (follows `nextPage`). Only the latest
 * query's answer reaches the list; "Load more" continues the query on screen with its own cursor.
 */
export function HistoryTab(props: {
  api: LookupApi;
  now: number;
  trackedIds: Set<string>;
  myAddresses: string[];
  onOpen: (row: IntentHistory) => void;
  onTrack: (intentId: string) => void;
}) {
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  /** What the list shows: the rows of one query (`filters`, its `key`) and that query's cursor for "Load more". */
  const [list, setList] = useState<ShownList>({ key: queryKey(NO_FILTERS), filters: NO_FILTERS, rows: [] });
  const [error, setError] = useState<ErrorMessage>();
  const [prices, setPrices] = useState<Map<string, number>>(new Map());
  const request = useLatestRequest(true);

  /** Asks for the first page of `query`; its answer replaces the list (unless a later request superseded it). */
  const reset = (query: HistoryFilters) => {
    setError(undefined);
    void request.run({
      ask: () => props.api.getIntentHistory(historyRequest(query, serviceNow())),
      apply: (res) => {
        setList({ key: queryKey(query), filters: query, rows: res.intents, next: more(res.nextPage) });
        void loadPrices(res.intents);
      },
      fail: (err) => setError(describeError(err)),
    });
  };

  /** Asks for the next page of the query on screen, with that query's own cursor; nothing while a request runs. */
  const loadMore = () => {
    if (request.pending() || !list.next) return;
    const shown = list;
    setError(undefined);
    void request.run({
      ask: () => {
        const first = historyRequest(shown.filters, serviceNow());
        const cursor = Object.fromEntries(Object.entries(shown.next ?? {}).filter(([, v]) => v !== null));
        return props.api.getIntentHistory({ ...first, page: { ...first.page, ...cursor } });
      },
      apply: (res) => {
        setList((old) =>
          old.key !== shown.key
            ? old
            : {
                ...old,
                rows: [...old.rows, ...res.intents.filter((r) => !old.rows.some((o) => o.intentId === r.intentId))],
                next: more(res.nextPage),
              },
        );
        void loadPrices(res.intents);
      },
      fail: (err) => setError(describeError(err)),
    });
  };

  /** A new filter set asks for its first page; the same query again (an address applied twice) keeps the list and its pages. */
  const changeFilters = (next: HistoryFilters) => {
    if (queryKey(next) === queryKey(filters)) return;
    setFilters(next);
    reset(next);
  };

  const loadPrices = async (page: IntentHistory[]) => {
    const wanted = new Map<string, { chainId: number; tokenAddress: string }>();
    for (const r of page) {
      const s = r.receipt?.summary;
      const chainId = s?.originChainId ?? r.receipt?.originChainId;
      if (chainId && s?.originTokenAddress && !prices.has(priceKey(chainId, s.originTokenAddress))) {
        wanted.set(priceKey(chainId, s.originTokenAddress), { chainId, tokenAddress: s.originTokenAddress });
      }
    }
    if (wanted.size === 0) return;
    try {
      const { tokenPrices } = await props.api.getTokenPrices({ tokens: [...wanted.values()] });
      setPrices((old) => {
        const m = new Map(old);
        for (const p of tokenPrices) if (typeof p.priceUsd === 'number') m.set(priceKey(p.token.chainId, p.token.tokenAddress), p.priceUsd);
        return m;
      });
    } catch {
      // USD is shown only when known.
    }
  };
  // The first page on opening, and again when the connection changes.
  useEffect(() => reset(filters), [props.api]);

  const loading = request.busy;
  const usdOf = (r: IntentHistory) => {
    const s = r.receipt?.summary;
    const chainId = s?.originChainId ?? r.receipt?.originChainId;
    return usdOfRaw(s?.originTokenAmount, s?.originTokenMetadata?.decimals, prices.get(priceKey(chainId, s?.originTokenAddress)));
  };

  return (
    <section aria-label={t('tabHistory')}>
      <HistoryFiltersForm filters={filters} myAddresses={props.myAddresses} onChange={changeFilters} />
      {error && (
        <ErrorNotice
          error={error}
          onOpenSettings={openSettings}
          onRetry={() => (list.key === queryKey(filters) && list.rows.length > 0 ? loadMore() : reset(filters))}
        />
      )}
      {!error && !loading && list.rows.length === 0 && <p class="muted">{t('noIntentsMatchFilters')}</p>}
      {list.rows.length > 0 && (
        <ul class="intent-list" aria-label={t('intentHistory')} data-query={list.key} aria-busy={loading}>
          {list.rows.map((r) => (
            <HistoryIntentRow
              key={r.intentId}
              row={r}
              now={props.now}
              usd={usdOf(r)}
              tracked={props.trackedIds.has(r.intentId)}
              onOpen={() => props.onOpen(r)}
              onTrack={() => props.onTrack(r.intentId)}
            />
          ))}
        </ul>
      )}
      {loading && (
        <p class="muted" role="status">
          {t('loading')}
        </p>
      )}
      {!loading && list.next && !error && (
        <button type="button" class="secondary wide" onClick={loadMore}>
          {t('loadMore')}
        </button>
      )}
    </section>
  );
}
