import { useState } from 'preact/hooks';
import { ErrorNotice } from '@/components/ErrorNotice';
import { IntentQuoteCard } from '@/components/IntentQuoteCard';
import type { LookupApi } from '@/lib/api/lookup';
import type { Intent } from '@/lib/api/schemas/intent';
import { formatNumber } from '@/lib/format/amount';
import { describeError, type ErrorMessage } from '@/lib/format/errors';
import { t } from '@/lib/i18n';
import { queryKey } from '@/lib/query/query-key';
import { mergeById, searchRequests } from '@/lib/query/search';
import { useLatestRequest } from '../hooks/useLatestRequest';
import { openSettings } from '../settings';

/** Most results rendered at once (SearchIntents is not paginated and can be large). */
export const MAX_SHOWN = 200;

/**
 * Search tab: one box for an intentId, a transaction hash, an address or free text (SearchIntents). Only the latest
 * search's answer is shown.
 */
export function SearchTab(props: {
  api: LookupApi;
  trackedIds: Set<string>;
  onOpen: (intentId: string) => void;
  onTrack: (intentId: string) => void;
}) {
  const [query, setQuery] = useState('');
  /** The results on screen and the search text they answer (its `queryKey` is the list's `data-query`). */
  const [shown, setShown] = useState<{ text: string; results: Intent[] } | undefined>();
  const [error, setError] = useState<ErrorMessage>();
  const request = useLatestRequest();
  const loading = request.busy;
  const results = shown?.results;

  const run = () => {
    const text = query.trim();
    const plan = searchRequests(query);
    if (!plan) {
      setError({ text: t('searchEmpty'), openSettings: false });
      setShown(undefined);
      return;
    }
    setError(undefined);
    void request.run({
      ask: () => Promise.all(plan.requests.map((r) => props.api.searchIntents(r))),
      apply: (lists) => setShown({ text, results: mergeById(lists.map((l) => l.intents)) }),
      fail: (err) => {
        setError(describeError(err));
        setShown(undefined);
      },
    });
  };

  return (
    <section aria-label={t('tabSearch')}>
      <form
        class="track-form"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <label for="search-box">{t('searchIntents')}</label>
        <div class="track-row">
          <input
            id="search-box"
            type="search"
            spellcheck={false}
            placeholder={t('searchPlaceholder')}
            value={query}
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          />
          <button type="submit" disabled={loading}>
            {t('search')}
          </button>
        </div>
      </form>
      {error && <ErrorNotice error={error} onOpenSettings={openSettings} />}
      {loading && (
        <p class="muted" role="status">
          {t('searching')}
        </p>
      )}
      {!loading && results && results.length === 0 && <p class="muted">{t('noIntentMatches', shown?.text ?? '')}</p>}
      {!loading && results && results.length > 0 && (
        <>
          <p class="muted" role="status">
            {results.length === 1 ? t('oneIntent') : t('manyIntents', formatNumber(results.length))}
            {results.length > MAX_SHOWN ? ` — ${t('showingNewest', MAX_SHOWN)}` : ''}
          </p>
          <ul class="intent-list" aria-label={t('searchResults')} data-query={queryKey(shown?.text)} aria-busy={loading}>
            {results.slice(0, MAX_SHOWN).map((i) => (
              <IntentQuoteCard
                key={i.intentId}
                intent={i}
                tracked={props.trackedIds.has(i.intentId)}
                onOpen={() => props.onOpen(i.intentId)}
                onTrack={() => props.onTrack(i.intentId)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
