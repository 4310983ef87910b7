import type { LegKind } from '@/lib/api/legs';
import type { IntentTransaction } from '@/lib/api/schemas/receipt';
import { formatTokenAmount } from '@/lib/format/amount';
import { chainName, explorerTxUrl, isPlaceholderHash } from '@/lib/format/chains';
import { legName, shortId } from '@/lib/format/intent';
import { formatAbsolute } from '@/lib/format/time';
import { t } from '@/lib/i18n';
import type { ChainVerdictLeg } from '@/lib/store';
import { StatusChip } from './StatusChip';

/**
 * One leg of a receipt: TransactionStatus, chain, hash (an explorer link only for a known chain and a real hash),
 * mined time and `statusReason`. `decimals`/`symbol` format the leg's raw `tokenAmount` when the token is known.
 * `final`: the intent is in a final status, so a leg without a real hash will never get one ("no transaction").
 * `verification`: what the leg's own chain says (the worker's verdict, in words), and for the destination what it moved;
 * a line kept from an earlier worker life that could not re-check it says "could not re-check".
 */
export function LegRow(props: {
  kind: LegKind;
  leg: IntentTransaction;
  decimals?: number;
  symbol?: string;
  final?: boolean;
  verification?: ChainVerdictLeg;
}) {
  const { kind, leg } = props;
  const hash = leg.txnHash ?? undefined;
  const url = explorerTxUrl(leg.chainId, hash);
  const amount = formatTokenAmount(leg.tokenAmount, props.decimals);
  return (
    <li class="leg" data-leg={kind}>
      <div class="leg-top">
        <strong>{legName(kind)}</strong>
        <StatusChip status={leg.status ?? undefined} />
        <span class="muted">{chainName(leg.chainId)}</span>
      </div>
      <dl class="leg-fields">
        {amount !== undefined && (
          <>
            <dt>{t('amount')}</dt>
            <dd>{props.symbol ? `${amount} ${props.symbol}` : amount}</dd>
          </>
        )}
        <dt>{t('hash')}</dt>
        <dd class="mono">
          {!hash ? (
            t(props.final ? 'noTransaction' : 'notYet')
          ) : url ? (
            <a href={url} target="_blank" rel="noopener noreferrer" title={hash}>
              {shortId(hash)}
            </a>
          ) : isPlaceholderHash(hash) ? (
            t(props.final ? 'noTransaction' : 'notOnChainYet')
          ) : (
            <span title={hash}>{shortId(hash)}</span>
          )}
        </dd>
        <dt>{t('mined')}</dt>
        <dd>{formatAbsolute(leg.txnMinedAt)}</dd>
        {props.verification && (
          <>
            <dt>{t('onChain')}</dt>
            <dd class={`verification verification-${props.verification.kind}`} data-testid="leg-verification">
              {props.verification.text}
              {props.verification.transfer && <span class="verification-transfer">{props.verification.transfer}</span>}
              {props.verification.lastKnown && <span class="verification-last-known muted">{t('couldNotRecheck')}</span>}
            </dd>
          </>
        )}
        {leg.statusReason && (
          <>
            <dt>{t('reason')}</dt>
            <dd class="reason">{leg.statusReason}</dd>
          </>
        )}
      </dl>
    </li>
  );
}
