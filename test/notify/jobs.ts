/** Outbox jobs for the pure outbox tests (outbox-changes, drain-plan). */
import type { NotificationJob } from '@/lib/store/outbox';

/** The time (ms since the epoch) every job here is made at and due. */
export const T = 1_800_000_000_000;

/**
 * A job under `key` (`<kind>:<intentId>…`) of `kind`, made at {@link T}, in `state`; an information job names no
 * intent. `extra` over it.
 */
export function job(
  key: string,
  kind: NotificationJob['kind'],
  state: NotificationJob['state'],
  extra: Partial<NotificationJob> = {},
): NotificationJob {
  const intentId = key.split(':')[1] ?? '';
  return { key, kind, state, intentIds: kind === 'info' ? [] : [intentId], attempts: 0, nextAt: T, at: T, ...extra };
}
