import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '@/components/ErrorNotice';
import { StuckFundsList } from '@/components/StuckFundsList';
import { iterateIntentHistory } from '@/lib/api/history-pages';
import type { LookupApi } from '@/lib/api/lookup';
import type { IntentHistory } from '@/lib/api/schemas/history';
import { formatNumber } from '@/lib/format/amount';
import { describeError, type ErrorMessage } from '@/lib/format/errors';
import { t } from '@/lib/i18n';
import { queryKey } from '@/lib/query/query-key';
import { useLatestRequest } from '../hooks/useLatestRequest';
import { openSettings } from '../settings';

/** The one query of the tab: every intent with funds left at its intent address, with its balances. */
const STUCK_QUERY = { onlyRecoverable: true, includeBalances: true, page: { pageSize: 50 } };

/** Stuck funds: intents that ended with funds left at their intent address (onlyRecoverable + includeBalances). */
export function StuckTab(props: { api: LookupApi; onOpen: (row: IntentHistory) => void }) {
  const [rows, setRows] = useState<IntentHistory[] | undefined>();
  const [error, setError] = useState<ErrorMessage>();
  const request = useLatestRequest(true);

  const load = () => {
    setError(undefined);
    setRows(undefined);
    void request.run({
      ask: async () => {
        const found: IntentHistory[] = [];
        for await (const row of iterateIntentHistory(props.api, STUCK_QUERY, { maxPages: 20 })) found.push(row);
        return found;
      },
      apply: setRows,
      fail: (err) => setError(describeError(err)),
    });
  };
  useEffect(load, [props.api]);

  return (
    <section aria-label={t('tabStuck')}>
      <p class="explain">
        {t('stuckExplainEnded')} <strong>{t('stuckExplainStillHolds')}</strong>
        {t('stuckExplainThoseFundsAre')} <em>{t('stuckExplainRecoverable')}</em>
        {t('stuckExplainWhatToDo')}
      </p>
      {error && <ErrorNotice error={error} onOpenSettings={openSettings} onRetry={() => void load()} />}
      {!error && rows === undefined && (
        <p class="muted" role="status">
          {t('loading')}
        </p>
      )}
      {rows && rows.length === 0 && <p class="muted">{t('noStuckFunds')}</p>}
      {rows && rows.length > 0 && (
        <>
          <p class="muted" role="status">
            {rows.length === 1 ? t('oneIntentWithFunds') : t('manyIntentsWithFunds', formatNumber(rows.length))}
          </p>
          <StuckFundsList
            rows={rows}
            query={queryKey(STUCK_QUERY)}
            busy={request.busy}
            onOpen={(id) => props.onOpen(rows.find((r) => r.intentId === id)!)}
          />
        </>
      )}
    </section>
  );
}
