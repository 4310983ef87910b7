import { LEG_KINDS, legOf } from '@/lib/api/schemas';
import { destinationAmountText, failureReason, originAmountText, routeChains } from '@/lib/format/intent';
import { chainName } from '@/lib/format/chains';
import { formatAbsolute, formatRelative } from '@/lib/format/time';
import type { TrackedIntent } from '@/lib/store';
import { LegRow } from './LegRow';
import { StatusChip } from './StatusChip';
import { TrackingHealth } from './TrackingHealth';

/**
 * The receipt of one tracked intent: status, route, amounts in display units, and every leg the receipt carries.
 * `onRetry` is offered when tracking is stopped or backing off.
 */
export function ReceiptView(props: { intent: TrackedIntent; now: number; onBack: () => void; onRetry: () => void; onRemove: () => void }) {
  const { intent, now } = props;
  const r = intent.receipt;
  const chains = r ? routeChains(r) : undefined;
  const s = r?.summary;
  const legs = r ? LEG_KINDS.map((kind) => ({ kind, leg: legOf(r, kind) })).filter((l) => l.leg) : [];
  const reason = r && intent.status === 'FAILED' ? failureReason(r) : undefined;
  const metaFor = (kind: string) =>
    kind === 'destination' ? s?.destinationTokenMetadata : kind === 'origin' || kind === 'deposit' || kind === 'refund' ? s?.originTokenMetadata : undefined;
  return (
    <section class="receipt" aria-labelledby="receipt-title">
      <div class="receipt-head">
        <button type="button" class="link-button" onClick={props.onBack}>
          ← All intents
        </button>
      </div>
      <h2 id="receipt-title">
        Receipt <StatusChip status={intent.status} />
      </h2>
      <p class="mono break" aria-label="Intent ID">
        {intent.intentId}
      </p>
      <TrackingHealth intent={intent} now={now} />
      {!r ? (
        <p class="muted">No receipt yet: the tracker is asking the service.</p>
      ) : (
        <>
          <dl class="summary">
            <dt>From</dt>
            <dd>
              {chainName(chains?.origin)} · {originAmountText(r)}
            </dd>
            <dt>To</dt>
            <dd>
              {chainName(chains?.destination)}
              {destinationAmountText(r) ? ` · ${destinationAmountText(r)}` : ''}
            </dd>
            {reason && (
              <>
                <dt>Reason</dt>
                <dd class="reason">{reason}</dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{formatAbsolute(r.createdAt ?? s?.createdAt)}</dd>
            <dt>Checked</dt>
            <dd>{intent.lastCheckedAt ? formatRelative(intent.lastCheckedAt, now) : 'not yet'}</dd>
          </dl>
          <h3>Transactions</h3>
          {legs.length === 0 ? (
            <p class="muted">No transactions yet.</p>
          ) : (
            <ul class="legs">
              {legs.map(({ kind, leg }) => {
                const meta = metaFor(kind);
                return <LegRow key={kind} kind={kind} leg={leg!} decimals={meta?.decimals ?? undefined} symbol={meta?.symbol ?? undefined} />;
              })}
            </ul>
          )}
        </>
      )}
      <div class="actions">
        {intent.phase !== 'final' && (
          <button type="button" onClick={props.onRetry}>
            Retry now
          </button>
        )}
        <button type="button" class="danger" onClick={props.onRemove}>
          {intent.phase === 'final' ? 'Remove' : 'Stop tracking'}
        </button>
      </div>
    </section>
  );
}
