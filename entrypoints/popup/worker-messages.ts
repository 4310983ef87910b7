/**
 * The popup's line to the background worker: requests, and the lookup operations of the service (GetIntentHistory,
 * SearchIntents, GetExactOutputRoutes, GetTokenPrices) run through it. The worker sends lookups first in line in its
 * one request budget (lib/api/budget.ts), and the popup carries no HTTP client and no schemas.
 */
import type { LookupApi } from '@/lib/api/lookup';
import { UserFacingError } from '@/lib/format/errors';
import { t } from '@/lib/i18n';
import type { Reply, Request } from '@/lib/messages';
import type { LookupOperation } from '@/lib/protocol';

/** Sends a request to the background; a missing or failed answer becomes a user-facing error reply. */
export async function send(request: Request): Promise<Reply> {
  try {
    const reply = (await browser.runtime.sendMessage(request)) as Reply | undefined;
    return reply ?? { ok: false, message: t('workerNoAnswer') };
  } catch (err) {
    return { ok: false, message: t('workerNoAnswerReason', err instanceof Error ? err.message : String(err)) };
  }
}

async function lookup<T>(operation: LookupOperation, request: unknown): Promise<T> {
  const reply = await send({ type: 'lookup', operation, request });
  if (!reply.ok) throw new UserFacingError(reply.message, reply.openSettings ?? false);
  return reply.data as T;
}

/** The lookup operations, run by the background worker. Errors are UserFacingError with the worker's words. */
export const backgroundLookup: LookupApi = {
  getIntentHistory: (request = {}) => lookup('getIntentHistory', request),
  searchIntents: (request) => lookup('searchIntents', request),
  getExactOutputRoutes: (request) => lookup('getExactOutputRoutes', request),
  getTokenPrices: (request) => lookup('getTokenPrices', request),
};
