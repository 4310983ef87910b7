/**
 * What to tell the user about a failed call, and what they can do about it.
 */
import { isKeyRejected, isOriginRejected, isRateLimited, SvcApiError, SvcServiceError } from '../api/errors';

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
  if (isKeyRejected(err)) return { text: 'The service rejected the access key. Check it in the settings.', openSettings: true };
  if (isOriginRejected(err))
    return { text: 'The access key is not allowed from this extension. Use another key in the settings.', openSettings: true };
  if (isRateLimited(err)) {
    const wait = err.retryAfterSeconds ? ` Try again in ${err.retryAfterSeconds} s.` : ' Try again in a moment.';
    return { text: `The service is rate-limiting requests.${wait}`, openSettings: false };
  }
  if (err instanceof SvcServiceError)
    return { text: `The service answered with an error: ${err.msg || err.errorName} (${err.code}).`, openSettings: false };
  if (err instanceof SvcApiError) {
    switch (err.kind) {
      case 'network':
        return { text: 'Could not reach the service. Check your connection or the service URL in the settings.', openSettings: true };
      case 'timeout':
        return { text: 'The service did not answer in time. Try again.', openSettings: false };
      case 'bad-body':
        return { text: 'The service URL answered with something that is not the service. Check it in the settings.', openSettings: true };
      case 'validation':
        return { text: `The service sent data in an unexpected shape (${err.message}).`, openSettings: false };
      default:
        return { text: err.message, openSettings: false };
    }
  }
  return { text: `Something went wrong: ${err instanceof Error ? err.message : String(err)}`, openSettings: false };
}
