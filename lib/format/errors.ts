/**
 * What to tell the user about a failed call, and what they can do about it.
 */

import { isKeyRejected, isOriginRejected, isRateLimited, SvcApiError, SvcServiceError } from '../api/errors';
import { t } from '../i18n';

/** A user-facing error: what happened, and whether opening the settings is the fix. */
export interface ErrorMessage {
  text: string;
  openSettings: boolean;
}

/** An error already worded for the user (e.g. relayed by the background worker). */
export class UserFacingError extends Error {
  readonly openSettings: boolean;
  constructor(message: string, openSettings = false) {
    super(message);
    this.openSettings = openSettings;
  }
}

/** Describes any error thrown by the Svc client (or anything else) for the UI. Never shows a stack trace. */
export function describeError(err: unknown): ErrorMessage {
  if (err instanceof UserFacingError) return { text: err.message, openSettings: err.openSettings };
  if (isKeyRejected(err)) return { text: t('errKeyRejected'), openSettings: true };
  if (isOriginRejected(err)) return { text: t('errOriginRejected'), openSettings: true };
  if (isRateLimited(err)) {
    const wait = err.retryAfterSeconds ? t('errTryAgainIn', err.retryAfterSeconds) : t('errTryAgainSoon');
    return { text: `${t('errRateLimited')} ${wait}`, openSettings: false };
  }
  if (err instanceof SvcServiceError) return { text: t('errService', err.msg || err.errorName, err.code), openSettings: false };
  if (err instanceof SvcApiError) {
    switch (err.kind) {
      case 'network':
        return { text: t('errNetwork'), openSettings: true };
      case 'timeout':
        return { text: t('errTimeout'), openSettings: false };
      case 'bad-body':
        return { text: t('errBadBody'), openSettings: true };
      case 'validation':
        return { text: t('errValidation', err.message), openSettings: false };
      default:
        return { text: err.message, openSettings: false };
    }
  }
  return { text: t('somethingWentWrong', err instanceof Error ? err.message : String(err)), openSettings: false };
}
