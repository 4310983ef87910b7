/**
 * What a tracking error says to the user, in the browser's language. The tracker (`lib/tracker`) records errors with a
 * `kind` and an English `message` for logs and exports; the popup, the badge and the pause banner show the text of the
 * kind instead, and fall back to the recorded message for a kind they do not know (a service error's own words).
 */
import { type MessageKey, t } from '../i18n';
import type { TrackerState, TrackingError } from '../store';

const BY_KIND: Record<string, MessageKey> = {
  expired: 'trackErrExpired',
  'not-found': 'trackErrNotFound',
  'not-found-yet': 'trackErrNotFoundYet',
  'not-configured': 'trackErrNotConfigured',
  'key-rejected': 'trackErrKeyRejected',
  'origin-rejected': 'trackErrOriginRejected',
  network: 'trackErrNetwork',
  timeout: 'trackErrTimeout',
  'bad-body': 'trackErrBadBody',
  validation: 'trackErrBadBody',
  'foreign-receipt': 'trackErrForeignReceipt',
};

/** The user's text of a tracking error (by its `kind`; the recorded message when the kind has no text). */
export function trackingErrorText(err: TrackingError): string {
  const key = BY_KIND[err.kind];
  return key ? t(key) : err.message;
}

/** The user's text of a rate-limit pause (429), or undefined when the tracker is not paused for that. */
export function pauseText(state: TrackerState): string | undefined {
  return state.pausedUntil !== undefined ? t('trackErrRateLimited') : undefined;
}
