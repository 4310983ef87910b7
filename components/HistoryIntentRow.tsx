import type { IntentHistory } from '@/lib/api/schemas/history';
import { chainName } from '@/lib/format/chains';
import { destinationAmountText, originAmountText, routeChains, shortId } from '@/lib/format/intent';
import { formatRelative, parseTime } from '@/lib/format/time';
import { t } from '@/lib/i18n';
import { StatusChip } from './StatusChip';

/**
 * One GetIntentHistory row: status chip, route (chains and token symbols), amounts in display units and USD when
 * known, relative time; opens the receipt, or tracks the intent.
 */
export function HistoryIntentRow(props: {
  row: IntentHistory;
  now: number;
  tracked: boolean;
  /** Origin amount in USD, formatted, when a price is known. */
  usd?: string;
  onOpen: () => void;
  onTrack: () => void;
}) {
  const { row, now } = props;
  const r = row.receipt ?? undefined;
  const chains = r ? routeChains(r) : undefined;
  const s = r?.summary;
  const usd = props.usd;
  const created = parseTime(row.createdAt);
  const dest = r ? destinationAmountText(r) : undefined;
  return (
    <li class="intent-row" data-intent-id={row.intentId}>
      <button type="button" class="row-main" onClick={props.onOpen}>
        <span class="visually-hidden">{t('openReceiptOf', row.intentId)} </span>
        <span class="row-top">
          <StatusChip status={row.status} />
          <span class="mono">{shortId(row.intentId)}</span>
          <span class="muted row-time">{created !== undefined ? formatRelative(created, now) : ''}</span>
        </span>
        <span class="row-route">
          {chainName(chains?.origin)} {s?.originTokenMetadata?.symbol ?? ''} → {chainName(chains?.destination)}{' '}
          {s?.destinationTokenMetadata?.symbol ?? ''}
        </span>
        {r && (
          <span class="row-amounts">
            {originAmountText(r)}
            {dest ? ` → ${dest}` : ''}
            {usd ? ` (${usd})` : ''}
          </span>
        )}
      </button>
      <button type="button" class="small secondary row-action" onClick={props.onTrack} disabled={props.tracked}>
        {props.tracked ? t('tracked') : t('track')}
        <span class="visually-hidden"> {t('intentNamed', row.intentId)}</span>
      </button>
    </li>
  );
}
