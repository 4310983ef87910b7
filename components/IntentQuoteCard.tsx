import type { Intent } from '@/lib/api/schemas/intent';
import { formatNumber, formatPercent, formatTokenAmountWithSymbol } from '@/lib/format/amount';
import { chainName } from '@/lib/format/chains';
import { shortId } from '@/lib/format/intent';
import { formatAbsolute } from '@/lib/format/time';
import { knownToken } from '@/lib/format/tokens';
import { formatUsd } from '@/lib/format/usd';
import { t } from '@/lib/i18n';
import { StatusChip } from './StatusChip';

/** Token decimals and symbol of the intent's origin: a known token, else its fee options or deposit. */
function originToken(intent: Intent): { decimals?: number; symbol?: string } {
  const known = knownToken(intent.originChainId, intent.originTokenAddress);
  if (known) return known;
  const fee = intent.gasFeeOptions?.feeOptions?.find((o) => o.tokenAddress?.toLowerCase() === intent.originTokenAddress?.toLowerCase());
  return { decimals: intent.depositTransaction?.decimals ?? fee?.tokenDecimals ?? undefined, symbol: fee?.tokenSymbol ?? undefined };
}

/**
 * An intent with its quote, as SearchIntents finds it: status, route, and the quote summary — amounts (raw → display units where the decimals
 * are known; USD otherwise), fees, price impact (percent as sent), estimated duration (seconds) — with Track.
 */
export function IntentQuoteCard(props: { intent: Intent; tracked: boolean; onTrack: () => void; onOpen: () => void }) {
  const i = props.intent;
  const q = i.quote;
  const origin = originToken(i);
  const dest = knownToken(i.destinationChainId, i.destinationTokenAddress);
  const duration = q?.estimatedDuration;
  return (
    <li class="result-card" data-intent-id={i.intentId}>
      <div class="row-top">
        <StatusChip status={i.status ?? undefined} />
        <button type="button" class="link-button mono" onClick={props.onOpen}>
          <span class="visually-hidden">{t('openReceiptOf', i.intentId)} </span>
          {shortId(i.intentId)}
        </button>
        <button type="button" class="small secondary row-action" disabled={props.tracked} onClick={props.onTrack}>
          {props.tracked ? t('tracked') : t('track')}
          <span class="visually-hidden"> {t('intentNamed', i.intentId)}</span>
        </button>
      </div>
      <p class="row-route">
        {chainName(i.originChainId)} → {chainName(i.destinationChainId)}
      </p>
      {q && (
        <dl class="summary">
          <dt>{t('sends')}</dt>
          <dd>
            {origin.decimals !== undefined ? formatTokenAmountWithSymbol(q.fromAmount, origin.decimals, origin.symbol) : '—'}
            {formatUsd(q.fromAmountUsd) ? ` (${formatUsd(q.fromAmountUsd)})` : ''}
          </dd>
          <dt>{t('receives')}</dt>
          <dd>
            {dest
              ? `${formatTokenAmountWithSymbol(q.toAmount, dest.decimals, dest.symbol)}${formatUsd(q.toAmountUsd) ? ` (${formatUsd(q.toAmountUsd)})` : ''}`
              : (formatUsd(q.toAmountUsd) ?? '—')}
          </dd>
          <dt>{t('fees')}</dt>
          <dd>{formatUsd(i.fees?.totalFeeUsd) ?? '—'}</dd>
          <dt>{t('priceImpact')}</dt>
          <dd>{q.priceImpact !== undefined && q.priceImpact !== null ? formatPercent(q.priceImpact) : '—'}</dd>
          <dt>{t('estTime')}</dt>
          <dd>
            {duration
              ? duration < 120
                ? t('seconds', formatNumber(duration))
                : t('minutes', formatNumber(Math.round(duration / 60)))
              : '—'}
          </dd>
          <dt>{t('created')}</dt>
          <dd>{formatAbsolute(i.createdAt)}</dd>
        </dl>
      )}
    </li>
  );
}
