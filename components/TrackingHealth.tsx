import { formatRelative } from '@/lib/format/time';
import { trackingErrorText } from '@/lib/format/tracking-error';
import { t } from '@/lib/i18n';
import type { TrackedIntent } from '@/lib/store';

/**
 * What the tracker is doing for an intent: stopped (not found, expired), not known to the service yet, backing off after an error (with the
 * error and when it retries), or nothing when all is well.
 */
export function TrackingHealth({ intent, now, compact }: { intent: TrackedIntent; now: number; compact?: boolean }) {
  const err = intent.lastError;
  if (intent.phase === 'not-found') return <span class="health health-bad">{t('healthNotFound')}</span>;
  if (intent.phase === 'expired')
    return <span class="health health-bad">{t('healthExpired', err ? trackingErrorText(err) : t('healthExpiredDefault'))}</span>;
  if (err?.kind === 'not-found-yet') {
    return (
      <span class="health health-warn">
        {intent.retry ? t('healthNotKnownYetAt', formatRelative(intent.retry.nextAt, now)) : t('healthNotKnownYet')}
      </span>
    );
  }
  if (!err || intent.phase === 'final') return null;
  const retry = intent.retry ? ` ${t('healthRetrying', formatRelative(intent.retry.nextAt, now))}` : '';
  return (
    <span class="health health-warn" title={trackingErrorText(err)}>
      {compact ? `${t('healthTrouble')}${retry}` : `${trackingErrorText(err).replace(/\.$/, '')}.${retry}`}
    </span>
  );
}
