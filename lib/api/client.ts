/**
 * The whole Svc client: every operation of the service (docs/protocol.md §5–§9), the reads of {@link SvcReadClient}
 * and the operations that create an intent (QuoteIntent, CommitIntent, ExecuteIntent, §8). The extension sends
 * none of the latter (its worker builds `SvcReadClient`s); the contract tests run them against the simulator.
 */
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import type { CallOptions } from './http';
import { RawJson } from './http';
import { checked, SvcReadClient } from './read-client';
import {
  CommitIntentResponse,
  ExecuteIntentRequest,
  ExecuteIntentResponse,
  type Intent,
  QuoteIntentRequest,
  QuoteIntentResponse,
} from './schemas/intent';

/**
 * An intent as QuoteIntent returned it: the parsed `intent`, and `wire`, its exact JSON text, which CommitIntent
 * sends back unchanged (docs/protocol.md §8).
 */
export interface QuotedIntent {
  intent: Intent;
  wire: string;
}

/** Every operation of the service. One instance per (baseUrl, accessKey). */
export class SvcClient extends SvcReadClient {
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
