import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '@/components/ErrorNotice';
import { StuckFundsList } from '@/components/StuckFundsList';
import { iterateIntentHistory } from '@/lib/api/history-pages';
import type { LookupApi } from '@/lib/api/lookup';
import type { IntentHistory } from '@/lib/api/schemas/history';
import { describeError, type ErrorMessage } from '@/lib/format/errors';
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
    <section aria-label="Stuck funds">
      <p class="explain">
        These intents have ended — failed, aborted, refunded or invalid — but their <strong>intent address still holds funds</strong>. Those
        funds are <em>recoverable</em>: they belong to the intent's owner and can be moved back. Open an intent to see what happened, then
        recover the funds from the app you started the transfer in, or contact its support with the intent ID.
      </p>
      {error && <ErrorNotice error={error} onOpenSettings={openSettings} onRetry={() => void load()} />}
      {!error && rows === undefined && (
        <p class="muted" role="status">
          Loading…
        </p>
      )}
      {rows && rows.length === 0 && <p class="muted">No stuck funds: every ended intent has an empty intent address.</p>}
      {rows && rows.length > 0 && (
        <>
          <p class="muted" role="status">
            {rows.length === 1 ? '1 intent with funds left' : `${rows.length} intents with funds left`}
          </p>
          <StuckFundsList rows={rows} onOpen={(id) => props.onOpen(rows.find((r) => r.intentId === id)!)} />
        </>
      )}
    </section>
  );
}
