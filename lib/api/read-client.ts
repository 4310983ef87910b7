/**
 * The Svc client of the extension: one typed method per operation the worker reads the service with (docs/protocol.md
 * §5–§8: receipts, history, search, routes, prices, GetIntent), over the HTTP of `./http`. Every method throws the
 * typed errors of `./errors` (see {@link SvcHttp.call}). The operations that create intents (QuoteIntent,
 * CommitIntent, ExecuteIntent) are {@link SvcClient}'s, in `./client`: the extension never sends them, and keeping
 * them, their schemas and lossless-json's stringify out of this module keeps them out of the worker's bundle.
 */
import type * as z from 'zod/mini';
import { SvcValidationError } from './errors';
import { type CallOptions, SvcHttp } from './http';
import { GetIntentHistoryRequest, GetIntentHistoryResponse, type HistoryLiteRequest, HistoryLiteResponse } from './schemas/history';
import { GetIntentRequest, GetIntentResponse, SearchIntentsRequest, SearchIntentsResponse, SearchLiteResponse } from './schemas/intent';
import {
  type GetIntentReceiptRequest,
  GetIntentReceiptResponse,
  type WaitIntentReceiptRequest,
  WaitIntentReceiptResponse,
} from './schemas/receipt';
import { GetExactOutputRoutesRequest, GetExactOutputRoutesResponse, GetTokenPricesRequest, GetTokenPricesResponse } from './schemas/routes';
import type { SetAsideRow } from './schemas/rows';

/** Checks a request against its schema before sending; throws SvcValidationError naming the field. */
export function checked<S extends z.ZodMiniType>(operation: string, schema: S, request: unknown): z.output<S> {
  const r = schema.safeParse(request);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new SvcValidationError(operation, `request.${issue?.path.join('.') ?? ''}`, issue?.message ?? 'invalid request');
}

/** Logs the rows of a list answer that were set aside (their place, intentId and reason; never a body or the key). */
function noteSetAside<T extends { setAside?: SetAsideRow[] }>(operation: string, res: T): T {
  if (res.setAside?.length) console.warn(`${operation}: ${res.setAside.length} row(s) set aside, the others used`, res.setAside);
  return res;
}

/** The operations the extension reads the service with. One instance per (baseUrl, accessKey). */
export class SvcReadClient extends SvcHttp {
  /** GetIntentReceipt: the current receipt, once, without waiting. NotFound (8000) for an unknown intentId. */
  getIntentReceipt(request: GetIntentReceiptRequest, options?: CallOptions): Promise<GetIntentReceiptResponse> {
    return this.call('GetIntentReceipt', request, GetIntentReceiptResponse, options);
  }

  /**
   * WaitIntentReceipt: long-polls until the receipt states differ from `lastReceiptStates`, the intent is done
   * (SUCCEEDED/FAILED) or the server's wait times out (`done: false`). The server's wait is not published (0 s to
   * minutes): give a `timeoutMs` longer than any usual one.
   */
  waitIntentReceipt(request: WaitIntentReceiptRequest, options?: CallOptions): Promise<WaitIntentReceiptResponse> {
    return this.call('WaitIntentReceipt', { lastReceiptStates: [], ...request }, WaitIntentReceiptResponse, options);
  }

  /**
   * GetIntentHistory: one page of intents with receipts; follow `nextPage` (see `iterateIntentHistory`). A row that is
   * not an IntentHistory is set aside (`setAside`, logged) and the others are returned.
   */
  async getIntentHistory(request: GetIntentHistoryRequest = {}, options?: CallOptions): Promise<GetIntentHistoryResponse> {
    const res = await this.call(
      'GetIntentHistory',
      checked('GetIntentHistory', GetIntentHistoryRequest, request),
      GetIntentHistoryResponse,
      options,
    );
    return noteSetAside('GetIntentHistory', res);
  }

  /**
   * GetIntentHistory read lightly (intentId, status, receipt, nextPage): what the tracker's batch refresh and the
   * watched-address check need.
   */
  async getIntentHistoryLite(request: HistoryLiteRequest, options?: CallOptions): Promise<HistoryLiteResponse> {
    return noteSetAside('GetIntentHistory', await this.call('GetIntentHistory', request, HistoryLiteResponse, options));
  }

  /** SearchIntents: intents matching every given filter; not paginated. Needs at least one filter. Bad rows set aside. */
  async searchIntents(request: SearchIntentsRequest, options?: CallOptions): Promise<SearchIntentsResponse> {
    const res = await this.call('SearchIntents', checked('SearchIntents', SearchIntentsRequest, request), SearchIntentsResponse, options);
    return noteSetAside('SearchIntents', res);
  }

  /** SearchIntents by a transaction hash of any leg, read lightly (intentIds and estimated durations). */
  async searchByTransactionHash(hash: string, options?: CallOptions): Promise<SearchLiteResponse> {
    return noteSetAside('SearchIntents', await this.call('SearchIntents', { byTransactionHash: hash }, SearchLiteResponse, options));
  }

  /** GetExactOutputRoutes: origin tokens that can pay for the destination token; empty when none. */
  async getExactOutputRoutes(request: GetExactOutputRoutesRequest, options?: CallOptions): Promise<GetExactOutputRoutesResponse> {
    return this.call(
      'GetExactOutputRoutes',
      checked('GetExactOutputRoutes', GetExactOutputRoutesRequest, request),
      GetExactOutputRoutesResponse,
      options,
    );
  }

  /** GetTokenPrices: USD prices, absent when unknown. */
  async getTokenPrices(request: GetTokenPricesRequest, options?: CallOptions): Promise<GetTokenPricesResponse> {
    return this.call('GetTokenPrices', checked('GetTokenPrices', GetTokenPricesRequest, request), GetTokenPricesResponse, options);
  }

  /**
   * GetIntent: the full Intent. Throws SvcValidationError (path `intent.intentId`) when the answer is about another
   * intent than the one asked (ids compared case-insensitively): a misrouted or cached answer is malformed, never
   * another intent's data (its estimate, its fees) taken for this one's.
   */
  async getIntent(request: GetIntentRequest, options?: CallOptions): Promise<GetIntentResponse> {
    const res = await this.call('GetIntent', checked('GetIntent', GetIntentRequest, request), GetIntentResponse, options);
    if (res.intent.intentId.toLowerCase() !== request.intentId.toLowerCase()) {
      throw new SvcValidationError('GetIntent', 'intent.intentId', `the answer is about another intent (${res.intent.intentId})`);
    }
    return res;
  }
}
