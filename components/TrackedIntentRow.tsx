import { baselineOf, etaAt, isInFlight } from '@/lib/eta';
import { originAmountText, routeText, shortId } from '@/lib/format/intent';
import { formatRelative, parseTime } from '@/lib/format/time';
import { timelineOf } from '@/lib/format/timeline';
import { t } from '@/lib/i18n';
import type { TrackedIntent } from '@/lib/store';
import { EtaLine } from './EtaLine';
import { BellIcon, BellOffIcon, CloseIcon } from './icons';
import { ProgressBar } from './ProgressBar';
import { StatusChip } from './StatusChip';
import { TrackingHealth } from './TrackingHealth';

/**
 * One tracked intent in the list: status chip, route, amount, relative time, and while in flight a progress bar and
 * the ETA; "Verified on-chain" once the worker verified its destination leg final on its chain (`verified`); opens the
 * receipt, mutes its desktop notifications (when `onMute` is given), or removes it.
 */
export function TrackedIntentRow(props: {
  intent: TrackedIntent;
  now: number;
  onOpen: () => void;
  onRemove: () => void;
  muted?: boolean;
  onMute?: (muted: boolean) => void;
  /** Its place in the whole list (0-based) and the list's length, for screen readers when the list is windowed. */
  position?: { index: number; size: number };
  verified?: boolean;
}) {
  const { intent, now } = props;
  const r = intent.receipt;
  const when = parseTime(r?.updatedAt ?? r?.createdAt) ?? intent.addedAt;
  const flying = isInFlight(intent);
  const progress = flying && r ? timelineOf(r) : undefined;
  const done = progress?.steps.filter((s) => s.state === 'done' || s.state === 'failed').length ?? 0;
  return (
    <li
      class="intent-row"
      data-intent-id={intent.intentId}
      aria-posinset={props.position && props.position.index + 1}
      aria-setsize={props.position?.size}
    >
      <button type="button" class="row-main" onClick={props.onOpen}>
        <span class="visually-hidden">{t('openReceiptOf', intent.intentId)} </span>
        <span class="row-top">
          <StatusChip status={intent.status} />
          <span class="mono">{shortId(intent.intentId)}</span>
          {props.muted && <span class="muted">{t('muted')}</span>}
          {props.verified && <span class="verified">{t('chainVerified')}</span>}
          <span class="muted row-time">{formatRelative(when, now)}</span>
        </span>
        <span class="row-route">{r ? `${routeText(r)} · ${originAmountText(r)}` : t('waitingFirstReceipt')}</span>
        {progress && <ProgressBar value={progress.progress} label={t('stepsDone', done, progress.steps.length)} />}
        {flying && <EtaLine eta={etaAt(r, baselineOf(intent), now)} />}
        <TrackingHealth intent={intent} now={now} compact />
      </button>
      {props.onMute && (
        <button
          type="button"
          class="icon-button"
          onClick={() => props.onMute!(!props.muted)}
          title={props.muted ? t('unmuteNotifications') : t('muteNotifications')}
          aria-pressed={props.muted ?? false}
        >
          {props.muted ? <BellOffIcon /> : <BellIcon />}
          <span class="visually-hidden">{t('muteNotificationsOf', intent.intentId)}</span>
        </button>
      )}
      <button type="button" class="icon-button" onClick={props.onRemove} title={t('remove')}>
        <CloseIcon />
        <span class="visually-hidden">{t('removeIntent', intent.intentId)}</span>
      </button>
    </li>
  );
}
