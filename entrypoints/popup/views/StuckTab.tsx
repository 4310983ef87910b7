import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '@/components/ErrorNotice';
import { StuckFundsList } from '@/components/StuckFundsList';
import { iterateIntentHistory } from '@/lib/api/history-pages';
import type { LookupApi } from '@/lib/api/lookup';
import type { IntentHistory } from '@/lib/api/schemas/history';
import { formatNumber } from '@/lib/format/amount';
import { describeError, type ErrorMessage } from '@/lib/format/errors';
import { t } from '@/lib/i18n';
import { openSettings } from '../settings';

/** Stuck funds: intents that ended with funds left at their intent address (onlyRecoverable + includeBalances). */
export function StuckTab(props: { api: LookupApi; onOpen: (row: IntentHistory) => void }) {
  const [rows, setRows] = useState<IntentHistory[] | undefined>();
  const [error, setError] = useState<ErrorMessage>();

  const load = async () => {
    setError(undefined);
    setRows(undefined);
    try {
      const found: IntentHistory[] = [];
      for await (const row of iterateIntentHistory(
        props.api,
        { onlyRecoverable: true, includeBalances: true, page: { pageSize: 50 } },
        { maxPages: 20 },
      )) {
        found.push(row);
      }
      setRows(found);
    } catch (err) {
      setError(describeError(err));
    }
  };
  useEffect(() => {
    void load();
  }, [props.api]);

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
          <StuckFundsList rows={rows} onOpen={(id) => props.onOpen(rows.find((r) => r.intentId === id)!)} />
        </>
      )}
    </section>
  );
}
