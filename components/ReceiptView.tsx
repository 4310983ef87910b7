import { LEG_KINDS, legOf } from '@/lib/api/legs';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import { baselineOf, etaAt, etaText, FINAL_STATUSES } from '@/lib/eta';
import { chainName } from '@/lib/format/chains';
import type { ErrorMessage } from '@/lib/format/errors';
import { moneyGuidance } from '@/lib/format/guidance';
import { destinationAmountText, failureReason, originAmountText, routeChains } from '@/lib/format/intent';
import { formatAbsolute, formatRelative } from '@/lib/format/time';
import { timelineOf } from '@/lib/format/timeline';
import { formatUsd, receiptUsd } from '@/lib/format/usd';
import { t } from '@/lib/i18n';
import type { IntentDetails } from '@/lib/messages';
import type { ChainVerdict, TrackedIntent } from '@/lib/store';
import { verdictLineOf } from '@/lib/store/chain-verdicts';
import { ErrorNotice } from './ErrorNotice';
import { EtaLine } from './EtaLine';
import { LegRow } from './LegRow';
import { MoneyGuidance } from './MoneyGuidance';
import { StatusChip } from './StatusChip';
import { Timeline } from './Timeline';
import { TrackingHealth } from './TrackingHealth';

/**
 * The receipt of one intent: status, route, amounts in display units, and every leg the receipt carries.
 * For a tracked intent (`tracked`) it also shows the tracker's health with Retry now / Stop tracking; otherwise a
 * Track button. `error` is shown above a (possibly cached) receipt when refreshing it failed. Above the legs: the ETA
 * (a tracked intent's baseline, lib/eta), the progress timeline, USD values and fees from `details`, and, for an
 * intent that ended without delivering, where the money is now. A tracked intent still in flight can have its desktop
 * notifications muted here (`muted`, `onMute`) as on its row; its status goes on updating. With the worker's on-chain
 * verdict (`verification`), each leg says what its own chain says, and the head "Verified on-chain" once it is.
 */
export function ReceiptView(props: {
  intentId: string;
  receipt?: IntentReceipt;
  tracked?: TrackedIntent;
  now: number;
  error?: ErrorMessage;
  details?: IntentDetails;
  onBack: () => void;
  onTrack?: () => void;
  onRetry?: () => void;
  onRemove?: () => void;
  onOpenSettings?: () => void;
  /** Whether this intent's desktop notifications are muted. */
  muted?: boolean;
  /** Mutes (`true`) or unmutes (`false`) this intent's desktop notifications. */
  onMute?: (muted: boolean) => void;
  /** The worker's on-chain verdict of this intent (docs/chain.md); absent: not verified (off for its chains). */
  verification?: ChainVerdict;
}) {
  const { tracked, now } = props;
  const r = props.receipt;
  const status = r?.status ?? tracked?.status;
  const chains = r ? routeChains(r) : undefined;
  const s = r?.summary;
  const legs = r ? LEG_KINDS.map((kind) => ({ kind, leg: legOf(r, kind) })).filter((l) => l.leg) : [];
  const reason = r && status === 'FAILED' ? failureReason(r) : undefined;
  const eta = etaAt(r, tracked ? baselineOf(tracked) : undefined, now);
  const timeline = r ? timelineOf(r) : undefined;
  const guidance = r ? moneyGuidance(r, props.details?.holdings) : undefined;
  const usd = receiptUsd(s, props.details?.prices);
  const fee = formatUsd(props.details?.feeUsd);
  const total = eta.kind === 'finished' ? `${etaText(eta) ?? ''}${eta.early ? ` ${t('earlierThanExpected')}` : ''}` : undefined;
  const metaFor = (kind: string) => (kind === 'destination' ? s?.destinationTokenMetadata : s?.originTokenMetadata);
  return (
    <section class="receipt" aria-labelledby="receipt-title">
      <div class="receipt-head">
        <button type="button" class="link-button" onClick={props.onBack}>
          {t('back')}
        </button>
      </div>
      <h2 id="receipt-title">
        {t('receipt')} <StatusChip status={status} />
        {props.verification?.verified && <span class="verified">{t('chainVerified')}</span>}
      </h2>
      <p class="mono break">
        <span class="visually-hidden">{t('intentIdColon')} </span>
        {props.intentId}
      </p>
      {tracked && <TrackingHealth intent={tracked} now={now} />}
      {props.error && <ErrorNotice error={props.error} onOpenSettings={props.onOpenSettings} />}
      {!r ? (
        <p class="muted">{props.error ? t('noReceipt') : t('loadingReceipt')}</p>
      ) : (
        <>
          <dl class="summary">
            <dt>{t('from')}</dt>
            <dd>
              {chainName(chains?.origin)} · {originAmountText(r)}
              {usd.origin && <span class="muted"> ({usd.origin})</span>}
            </dd>
            <dt>{t('to')}</dt>
            <dd>
              {chainName(chains?.destination)}
              {destinationAmountText(r) ? ` · ${destinationAmountText(r)}` : ''}
              {usd.destination && <span class="muted"> ({usd.destination})</span>}
            </dd>
            {fee && (
              <>
                <dt>{t('fees')}</dt>
                <dd>{fee}</dd>
              </>
            )}
            {reason && (
              <>
                <dt>{t('reason')}</dt>
                <dd class="reason">{reason}</dd>
              </>
            )}
            <dt>{t('created')}</dt>
            <dd>{formatAbsolute(r.createdAt ?? s?.createdAt)}</dd>
            {tracked && (
              <>
                <dt>{t('checked')}</dt>
                <dd>{tracked.lastCheckedAt ? formatRelative(tracked.lastCheckedAt, now) : t('notYet')}</dd>
              </>
            )}
          </dl>
          {guidance && <MoneyGuidance guidance={guidance} />}
          <h3>{t('progress')}</h3>
          {eta.kind !== 'finished' && <EtaLine eta={eta} />}
          {timeline && <Timeline timeline={timeline} total={total || undefined} />}
          <h3>{t('transactions')}</h3>
          {legs.length === 0 ? (
            <p class="muted">{t('noTransactions')}</p>
          ) : (
            <ul class="legs" aria-label={t('transactions')}>
              {legs.map(({ kind, leg }) => {
                const meta = metaFor(kind);
                return (
                  <LegRow
                    key={kind}
                    kind={kind}
                    leg={leg!}
                    decimals={meta?.decimals ?? undefined}
                    symbol={meta?.symbol ?? undefined}
                    final={FINAL_STATUSES.includes(status ?? '')}
                    verification={verdictLineOf(props.verification, kind, leg!)}
                  />
                );
              })}
            </ul>
          )}
        </>
      )}
      <div class="actions">
        {!tracked && props.onTrack && (
          <button type="button" onClick={props.onTrack}>
            {t('track')}
          </button>
        )}
        {tracked && tracked.phase !== 'final' && props.onRetry && (
          <button type="button" onClick={props.onRetry}>
            {t('retryNow')}
          </button>
        )}
        {tracked && tracked.phase !== 'final' && props.onMute && (
          <button type="button" aria-pressed={props.muted ?? false} onClick={() => props.onMute!(!props.muted)}>
            {props.muted ? t('unmuteNotifications') : t('muteNotifications')}
          </button>
        )}
        {tracked && props.onRemove && (
          <button type="button" class="danger" onClick={props.onRemove}>
            {tracked.phase === 'final' ? t('remove') : t('stopTracking')}
          </button>
        )}
      </div>
    </section>
  );
}
