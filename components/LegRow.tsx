import type { LegKind } from '@/lib/api/legs';
import type { IntentTransaction } from '@/lib/api/schemas/receipt';
import { formatTokenAmount } from '@/lib/format/amount';
import { chainName, explorerTxUrl, isPlaceholderHash } from '@/lib/format/chains';
import { shortId } from '@/lib/format/intent';
import { formatAbsolute } from '@/lib/format/time';
import { StatusChip } from './StatusChip';

const LEG_NAMES: Record<LegKind, string> = {
  deposit: 'Deposit',
  origin: 'Origin',
  destination: 'Destination',
  refund: 'Refund',
};

/**
 * One leg of a receipt: TransactionStatus, chain, hash (an explorer link only for a known chain and a real hash),
 * mined time and `statusReason`. `decimals`/`symbol` format the leg's raw `tokenAmount` when the token is known.
 */
export function LegRow(props: { kind: LegKind; leg: IntentTransaction; decimals?: number; symbol?: string }) {
  const { kind, leg } = props;
  const hash = leg.txnHash ?? undefined;
  const url = explorerTxUrl(leg.chainId, hash);
  const amount = formatTokenAmount(leg.tokenAmount, props.decimals);
  return (
    <li class="leg" data-leg={kind}>
      <div class="leg-top">
        <strong>{LEG_NAMES[kind]}</strong>
        <StatusChip status={leg.status ?? undefined} />
        <span class="muted">{chainName(leg.chainId)}</span>
      </div>
      <dl class="leg-fields">
        {amount !== undefined && (
          <>
            <dt>Amount</dt>
            <dd>{props.symbol ? `${amount} ${props.symbol}` : amount}</dd>
          </>
        )}
        <dt>Hash</dt>
        <dd class="mono">
          {!hash ? (
            'not yet'
          ) : url ? (
            <a href={url} target="_blank" rel="noopener noreferrer" title={hash}>
              {shortId(hash)}
            </a>
          ) : isPlaceholderHash(hash) ? (
            'not on-chain yet'
          ) : (
            <span title={hash}>{shortId(hash)}</span>
          )}
        </dd>
        <dt>Mined</dt>
        <dd>{formatAbsolute(leg.txnMinedAt)}</dd>
        {leg.statusReason && (
          <>
            <dt>Reason</dt>
            <dd class="reason">{leg.statusReason}</dd>
          </>
        )}
      </dl>
    </li>
  );
}
