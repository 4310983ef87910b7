import type { IntentHistory } from '@/lib/api/schemas/history';
import { formatTokenAmountWithSymbol } from '@/lib/format/amount';
import { chainName } from '@/lib/format/chains';
import { shortId } from '@/lib/format/intent';
import { formatUsd } from '@/lib/format/usd';
import { t } from '@/lib/i18n';
import { StatusChip } from './StatusChip';

/**
 * Intents whose intent address still holds funds after they ended (GetIntentHistory with onlyRecoverable and
 * includeBalances): intent address, chain, and each token balance in display units with USD.
 */
export function StuckFundsList(props: {
  rows: IntentHistory[];
  /** The key of the query the rows answer (`data-query`), and whether a request for the list is in flight. */
  query?: string;
  busy?: boolean;
  onOpen: (intentId: string) => void;
}) {
  return (
    <ul class="intent-list" aria-label={t('intentsWithRecoverableFunds')} data-query={props.query} aria-busy={props.busy}>
      {props.rows.map((row) => (
        <li class="result-card" key={row.intentId} data-intent-id={row.intentId}>
          <div class="row-top">
            <StatusChip status={row.status} />
            <button type="button" class="link-button mono" onClick={() => props.onOpen(row.intentId)}>
              <span class="visually-hidden">{t('openReceiptOf', row.intentId)} </span>
              {shortId(row.intentId)}
            </button>
          </div>
          {(row.balances ?? []).map((b) => (
            <dl class="summary" key={`${b.intentAddress}:${b.chainId}`}>
              <dt>{t('intentAddress')}</dt>
              <dd class="mono break">{b.intentAddress}</dd>
              <dt>{t('chain')}</dt>
              <dd>{chainName(b.chainId)}</dd>
              {(b.tokens ?? []).map((token) => (
                <>
                  <dt>{t('balance')}</dt>
                  <dd class="balance">
                    {formatTokenAmountWithSymbol(token.balance, token.decimals, token.symbol)}
                    {formatUsd(token.balanceUsd) ? ` (${formatUsd(token.balanceUsd)})` : ''}
                  </dd>
                </>
              ))}
            </dl>
          ))}
        </li>
      ))}
    </ul>
  );
}
