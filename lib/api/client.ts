/**
 * The Svc client: one typed method per operation of the service (docs/protocol.md §5–§9), over the HTTP of
 * `./http`. Every method throws the typed errors of `./errors` (see {@link SvcHttp.call}).
 */
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type * as z from 'zod/mini';
import { SvcValidationError } from './errors';
import { type CallOptions, RawJson, SvcHttp } from './http';
import { GetIntentHistoryRequest, GetIntentHistoryResponse, type HistoryLiteRequest, HistoryLiteResponse } from './schemas/history';
import {
  CommitIntentResponse,
  ExecuteIntentRequest,
  ExecuteIntentResponse,
  GetIntentRequest,
  GetIntentResponse,
  type Intent,
  QuoteIntentRequest,
  QuoteIntentResponse,
  SearchIntentsRequest,
  SearchIntentsResponse,
  SearchLiteResponse,
} from './schemas/intent';
import {
  type GetIntentReceiptRequest,
  GetIntentReceiptResponse,
  type WaitIntentReceiptRequest,
  WaitIntentReceiptResponse,
} from './schemas/receipt';
import { GetExactOutputRoutesRequest, GetExactOutputRoutesResponse, GetTokenPricesRequest, GetTokenPricesResponse } from './schemas/routes';
import type { SetAsideRow } from './schemas/rows';

/**
 * An intent as QuoteIntent returned it: the parsed `intent`, and `wire`, its exact JSON text, which CommitIntent
 * sends back unchanged (docs/protocol.md §8).
 */
export interface QuotedIntent {
  intent: Intent;
  wire: string;
}

/** Checks a request against its schema before sending; throws SvcValidationError naming the field. */
function checked<S extends z.ZodMiniType>(operation: string, schema: S, request: unknown): z.output<S> {
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

/** Every operation of the service. One instance per (baseUrl, accessKey). */
export class SvcClient extends SvcHttp {
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

  /** QuoteIntent: a QUOTED intent (raw amounts as decimal strings), with its exact JSON kept for {@link commitIntent}. */
  async quoteIntent(request: QuoteIntentRequest, options?: CallOptions): Promise<QuoteIntentResponse & { quoted: QuotedIntent }> {
    const { data, text } = await this.callWithText(
      'QuoteIntent',
      checked('QuoteIntent', QuoteIntentRequest, request),
      QuoteIntentResponse,
      options,
    );
    const wire = stringifyLossless((parseLossless(text) as { intent: unknown }).intent) ?? '';
    return { ...data, quoted: { intent: data.intent, wire } };
  }

  /**
   * CommitIntent: commits a quoted intent, sent back byte for byte as quoted (the service refuses any change).
   * Execute it within 10 minutes.
   */
  async commitIntent(quoted: QuotedIntent, options?: CallOptions): Promise<CommitIntentResponse> {
    return this.call('CommitIntent', new RawJson(`{"intent":${quoted.wire}}`), CommitIntentResponse, options);
  }

  /** ExecuteIntent. Fails with QuoteExpired (7001) more than 10 minutes after the commit. */
  async executeIntent(request: ExecuteIntentRequest, options?: CallOptions): Promise<ExecuteIntentResponse> {
    return this.call('ExecuteIntent', checked('ExecuteIntent', ExecuteIntentRequest, request), ExecuteIntentResponse, options);
  }
}
