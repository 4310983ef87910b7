import type { IntentHistory } from '@/lib/api/schemas/history';
import { formatTokenAmountWithSymbol } from '@/lib/format/amount';
import { chainName } from '@/lib/format/chains';
import { shortId } from '@/lib/format/intent';
import { formatUsd } from '@/lib/format/usd';
import { StatusChip } from './StatusChip';

/**
 * Intents whose intent address still holds funds after they ended (GetIntentHistory with onlyRecoverable and
 * includeBalances): intent address, chain, and each token balance in display units with USD.
 */
export function StuckFundsList(props: { rows: IntentHistory[]; onOpen: (intentId: string) => void }) {
  return (
    <ul class="intent-list" aria-label="Intents with recoverable funds">
      {props.rows.map((row) => (
        <li class="result-card" key={row.intentId} data-intent-id={row.intentId}>
          <div class="row-top">
            <StatusChip status={row.status} />
            <button type="button" class="link-button mono" onClick={() => props.onOpen(row.intentId)}>
              <span class="visually-hidden">Open receipt of intent {row.intentId} </span>
              {shortId(row.intentId)}
            </button>
          </div>
          {(row.balances ?? []).map((b) => (
            <dl class="summary" key={`${b.intentAddress}:${b.chainId}`}>
              <dt>Intent address</dt>
              <dd class="mono break">{b.intentAddress}</dd>
              <dt>Chain</dt>
              <dd>{chainName(b.chainId)}</dd>
              {(b.tokens ?? []).map((t) => (
                <>
                  <dt>Balance</dt>
                  <dd class="balance">
                    {formatTokenAmountWithSymbol(t.balance, t.decimals, t.symbol)}
                    {formatUsd(t.balanceUsd) ? ` (${formatUsd(t.balanceUsd)})` : ''}
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
