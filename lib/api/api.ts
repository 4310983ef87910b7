/**
 * The whole Svc interface: a typed method for every operation of spec §4 and the deployed shapes of the wire notes,
 * on top of {@link SvcClient} (which the background worker uses alone, to stay small). Plus the history pagination
 * helper.
 */
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type * as z from 'zod/mini';
import { type CallOptions, RawJson, SvcClient } from './client';
import { SvcValidationError } from './errors';
import {
  CommitIntentResponse,
  ExecuteIntentRequest,
  ExecuteIntentResponse,
  GetExactOutputRoutesRequest,
  GetExactOutputRoutesResponse,
  GetIntentHistoryRequest,
  GetIntentHistoryResponse,
  GetIntentRequest,
  GetIntentResponse,
  GetTokenPricesRequest,
  GetTokenPricesResponse,
  type Intent,
  QuoteIntentRequest,
  QuoteIntentResponse,
  SearchIntentsRequest,
  SearchIntentsResponse,
} from './operations';

/**
 * An intent as QuoteIntent returned it: the parsed `intent`, and `wire`, its exact JSON text, which CommitIntent
 * sends back unchanged (spec §4.5 rule 1).
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

/** Every operation of the service. All methods throw the typed errors of `./errors` (see SvcClient.call). */
export class SvcApi extends SvcClient {
  /** GetIntentHistory (spec §4.3): one page of intents with receipts; follow `nextPage` (see {@link iterateIntentHistory}). */
  async getIntentHistory(request: GetIntentHistoryRequest = {}, options?: CallOptions): Promise<GetIntentHistoryResponse> {
    return this.call('GetIntentHistory', checked('GetIntentHistory', GetIntentHistoryRequest, request), GetIntentHistoryResponse, options);
  }

  /** SearchIntents (spec §4.4): intents matching every given filter; not paginated. Needs at least one filter. */
  async searchIntents(request: SearchIntentsRequest, options?: CallOptions): Promise<SearchIntentsResponse> {
    return this.call('SearchIntents', checked('SearchIntents', SearchIntentsRequest, request), SearchIntentsResponse, options);
  }

  /** GetExactOutputRoutes (spec §4.6): origin tokens that can pay for the destination token; empty when none. */
  async getExactOutputRoutes(request: GetExactOutputRoutesRequest, options?: CallOptions): Promise<GetExactOutputRoutesResponse> {
    return this.call(
      'GetExactOutputRoutes',
      checked('GetExactOutputRoutes', GetExactOutputRoutesRequest, request),
      GetExactOutputRoutesResponse,
      options,
    );
  }

  /** GetIntent (spec §4.7; shape from the wire notes): the full Intent. */
  async getIntent(request: GetIntentRequest, options?: CallOptions): Promise<GetIntentResponse> {
    return this.call('GetIntent', checked('GetIntent', GetIntentRequest, request), GetIntentResponse, options);
  }

  /**
   * QuoteIntent (spec §4.7; shape from the wire notes): a QUOTED intent. Amounts are raw decimal strings. The result
   * keeps the intent's exact JSON for {@link SvcApi.commitIntent}.
   */
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
   * CommitIntent (spec §4.5): commits a quoted intent, sent back exactly as quoted. Within 10 minutes, call
   * {@link SvcApi.executeIntent}.
   */
  async commitIntent(quoted: QuotedIntent, options?: CallOptions): Promise<CommitIntentResponse> {
    return this.call('CommitIntent', new RawJson(`{"intent":${quoted.wire}}`), CommitIntentResponse, options);
  }

  /** ExecuteIntent (spec §4.7; shape from the wire notes). Fails with QuoteExpired (7001) after the window. */
  async executeIntent(request: ExecuteIntentRequest, options?: CallOptions): Promise<ExecuteIntentResponse> {
    return this.call('ExecuteIntent', checked('ExecuteIntent', ExecuteIntentRequest, request), ExecuteIntentResponse, options);
  }

  /** GetTokenPrices (spec §4.7; shape from the wire notes): USD prices, absent when unknown. */
  async getTokenPrices(request: GetTokenPricesRequest, options?: CallOptions): Promise<GetTokenPricesResponse> {
    return this.call('GetTokenPrices', checked('GetTokenPrices', GetTokenPricesRequest, request), GetTokenPricesResponse, options);
  }
}

export { type HistoryIterationOptions, iterateIntentHistory } from './history';
