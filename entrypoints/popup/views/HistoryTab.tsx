import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from '@/components/ErrorNotice';
import { HistoryFiltersForm } from '@/components/HistoryFiltersForm';
import { HistoryIntentRow } from '@/components/HistoryIntentRow';
import type { LookupApi } from '@/lib/api/lookup';
import type { IntentHistory, Page } from '@/lib/api/schemas/history';
import { describeError, type ErrorMessage } from '@/lib/format/errors';
import { usdOfRaw } from '@/lib/format/usd';
import { t } from '@/lib/i18n';
import { type HistoryFilters, historyRequest, NO_FILTERS } from '@/lib/query/history-filters';
import { openSettings } from '../settings';

const priceKey = (chainId: number | null | undefined, address: string | null | undefined) => `${chainId}:${(address ?? '').toLowerCase()}`;

/** History tab: GetIntentHistory newest first with filters and "Load more" (follows `nextPage`). */
export function HistoryTab(props: {
  api: LookupApi;
  now: number;
  trackedIds: Set<string>;
  myAddresses: string[];
  onOpen: (row: IntentHistory) => void;
  onTrack: (intentId: string) => void;
}) {
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const [rows, setRows] = useState<IntentHistory[]>([]);
  const [next, setNext] = useState<Page | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ErrorMessage>();
  const [prices, setPrices] = useState<Map<string, number>>(new Map());
  const generation = useRef(0);

  const load = async (reset: boolean) => {
    const mine = reset ? ++generation.current : generation.current;
    setLoading(true);
    setError(undefined);
    try {
      const request = historyRequest(filters, Date.now());
      const page = reset
        ? request.page
        : { ...request.page, ...Object.fromEntries(Object.entries(next ?? {}).filter(([, v]) => v !== null)) };
      const res = await props.api.getIntentHistory({ ...request, page });
      if (mine !== generation.current) return;
      setRows((old) => (reset ? res.intents : [...old, ...res.intents.filter((r) => !old.some((o) => o.intentId === r.intentId))]));
      setNext(res.nextPage && res.nextPage.more !== false ? res.nextPage : undefined);
      void loadPrices(res.intents);
    } catch (err) {
      if (mine === generation.current) setError(describeError(err));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
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
  useEffect(() => {
    void load(true);
  }, [filters, props.api]);

  const usdOf = (r: IntentHistory) => {
    const s = r.receipt?.summary;
    const chainId = s?.originChainId ?? r.receipt?.originChainId;
    return usdOfRaw(s?.originTokenAmount, s?.originTokenMetadata?.decimals, prices.get(priceKey(chainId, s?.originTokenAddress)));
  };

  return (
    <section aria-label={t('tabHistory')}>
      <HistoryFiltersForm filters={filters} myAddresses={props.myAddresses} onChange={setFilters} />
      {error && <ErrorNotice error={error} onOpenSettings={openSettings} onRetry={() => void load(rows.length === 0)} />}
      {!error && !loading && rows.length === 0 && <p class="muted">{t('noIntentsMatchFilters')}</p>}
      {rows.length > 0 && (
        <ul class="intent-list" aria-label={t('intentHistory')}>
          {rows.map((r) => (
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
      {!loading && next && !error && (
        <button type="button" class="secondary wide" onClick={() => void load(false)}>
          {t('loadMore')}
        </button>
      )}
    </section>
  );
}
