import { formatRelative } from '@/lib/format/time';
import type { TrackedIntent } from '@/lib/store';

/**
 * What the tracker is doing for an intent: stopped (not found, expired), not known to the service yet, backing off after an error (with the
 * error and when it retries), or nothing when all is well.
 */
export function TrackingHealth({ intent, now, compact }: { intent: TrackedIntent; now: number; compact?: boolean }) {
  const err = intent.lastError;
  if (intent.phase === 'not-found') return <span class="health health-bad">Not found: the service does not know this intent ID.</span>;
  if (intent.phase === 'expired')
    return <span class="health health-bad">Expired: {err?.message ?? 'not executed within 10 minutes of commit.'}</span>;
  if (err?.kind === 'not-found-yet') {
    return (
      <span class="health health-warn">
        Not known to the service yet; checking again{intent.retry ? ` ${formatRelative(intent.retry.nextAt, now)}` : ''}.
      </span>
    );
  }
  if (!err || intent.phase === 'final') return null;
  const retry = intent.retry ? ` Retrying ${formatRelative(intent.retry.nextAt, now)}.` : '';
  return (
    <span class="health health-warn" title={err.message}>
      {compact ? `Having trouble reaching the service.${retry}` : `${err.message}.${retry}`}
    </span>
  );
}
