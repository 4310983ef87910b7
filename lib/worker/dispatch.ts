/**
 * The one entry of messages from extension pages: finds the request's schema by its `type`, validates the message
 * with it and hands it to that type's handler. Unknown or malformed messages get no answer.
 */

import { t } from '../i18n';
import { REQUESTS, type Reply, type ReplyOf, type RequestOf, type RequestType } from '../messages';

/** A handler per request type. Each resolves with the reply; a rejection becomes a "Something went wrong" reply. */
export type MessageHandlers = { [K in RequestType]: (request: RequestOf<K>) => Promise<ReplyOf<K>> };

/**
 * The words of a failed request: the browser's storage not answering or refusing (IndexedDB's `DOMException`s, a load
 * read still pending: lib/tracker/load-bound.ts) in the user's language, anything else as "Something went wrong".
 */
function failureMessage(err: unknown): string {
  if (err instanceof Error && (err.name === 'ReadPendingError' || (err instanceof DOMException && err.name !== 'AbortError')))
    return t('storageNotAnswering');
  return t('somethingWentWrong', err instanceof Error ? err.message : String(err));
}

/** Creates the dispatcher: undefined for a message that is not a valid request, otherwise the handler's reply. */
export function createDispatcher(handlers: MessageHandlers): (message: unknown) => Promise<Reply> | undefined {
  return (message) => {
    const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !Object.hasOwn(REQUESTS, type)) return undefined;
    const parsed = REQUESTS[type as RequestType].safeParse(message);
    if (!parsed.success) return undefined;
    const handler = handlers[type as RequestType] as (request: unknown) => Promise<Reply>;
    return handler(parsed.data).catch((err: unknown) => ({ ok: false as const, message: failureMessage(err) }));
  };
}
