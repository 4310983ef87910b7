/**
 * The pages' line to the background worker: requests, each answered with its own reply type (`ReplyOf` in
 * `lib/messages.ts`), and the lookup operations of the service (GetIntentHistory, SearchIntents, GetExactOutputRoutes,
 * GetTokenPrices) run through it, each typed by operation. The worker sends lookups first in line in its one request
 * budget (lib/api/budget.ts), and the popup carries no HTTP client and no schemas.
 */
import type { LookupApi } from '@/lib/api/lookup';
import { UserFacingError } from '@/lib/format/errors';
import { t } from '@/lib/i18n';
import type { Failure, LookupOperation, LookupReply, LookupRequest, LookupResult, ReplyOf, Request } from '@/lib/messages';

/**
 * Posts a request and resolves with the worker's answer, or a Failure when there is none. The one place where the
 * answer's type is taken on trust: the worker's handlers are typed to give exactly `T` (`MessageHandlers`).
 */
async function post<T>(request: Request): Promise<T | Failure> {
  try {
    const reply = (await browser.runtime.sendMessage(request)) as T | undefined;
    return reply ?? { ok: false, message: t('workerNoAnswer') };
  } catch (err) {
    return { ok: false, message: t('workerNoAnswerReason', err instanceof Error ? err.message : String(err)) };
  }
}

/** Sends a request to the background; its answer is typed by the request's kind. A missing answer is a Failure. */
export function send<R extends Request>(request: R): Promise<ReplyOf<R['type']>> {
  return post<ReplyOf<R['type']>>(request);
}

/** Runs one lookup operation in the worker; resolves with its typed answer, or throws a UserFacingError. */
async function lookup<Op extends LookupOperation>(operation: Op, request: LookupRequest<Op>['request']): Promise<LookupResult<Op>> {
  const message: LookupRequest<Op> = { type: 'lookup', operation, request };
  const reply = await post<LookupReply<Op>>(message);
  if (!reply.ok) throw new UserFacingError(reply.message, reply.openSettings ?? false);
  return reply.data;
}

/** The lookup operations, run by the background worker. Errors are UserFacingError with the worker's words. */
export const backgroundLookup: LookupApi = {
  getIntentHistory: (request = {}) => lookup('getIntentHistory', request),
  searchIntents: (request) => lookup('searchIntents', request),
  getExactOutputRoutes: (request) => lookup('getExactOutputRoutes', request),
  getTokenPrices: (request) => lookup('getTokenPrices', request),
};
