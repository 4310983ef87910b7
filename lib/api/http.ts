/**
 * The HTTP side of the Svc client (docs/protocol.md §1, §2): every call is a POST of JSON to
 * `{baseUrl}/rpc/Svc/<Operation>` with `X-Access-Key`. Answers are parsed losslessly (integers above 2^53 stay exact
 * strings) and validated with the operation's zod schema; every failure is thrown as one of the typed errors of
 * `./errors`. The operations themselves are in `./client`.
 */
import type * as z from 'zod/mini';
import type { Timers } from '../platform';
import { type Lane, RequestBudget } from './budget';
import { redact, SvcAbortedError, SvcApiError, SvcNetworkError, SvcTimeoutError } from './errors';
import { answeredAt, readAnswer } from './http-answer';
import { holdScopeOf, parseRetryAfter } from './retry-after';

/** Connection settings: where the service is and the key it accepts. */
export interface SvcClientConfig {
  /** Base URL without the `/rpc/Svc` part, e.g. `https://api.example.com` (a trailing slash is ignored). */
  baseUrl: string;
  /** Access key sent as `X-Access-Key`; sent to `baseUrl`'s origin only, never logged. */
  accessKey: string;
  /** fetch implementation (tests inject one); defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Default time-out of a call in milliseconds (default 30 000); counted from when the request is sent. */
  timeoutMs?: number;
  /**
   * The request budget every call takes a place in before it is sent (`./budget`); the worker's clients share one.
   * Without one, calls are sent at once (a client outside the worker: tests, scripts).
   */
  budget?: RequestBudget;
  /** The place in line of this client's calls (default `user`); a call may give its own. */
  lane?: Lane;
  /**
   * The service's time now (ms since the epoch; `lib/tracker/service-clock.ts`), to read an HTTP-date `Retry-After`
   * of an answer without a readable `Date` header. Default: the local clock.
   */
  serviceNow?: () => number;
  /** Timers of the calls' time-outs (the worker's platform; default the global `setTimeout`). */
  timers?: Timers;
  /** Wall-clock time in ms, to read an HTTP-date `Retry-After` (the worker's platform clock; default `Date.now`). */
  now?: () => number;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call; the promise then rejects with SvcAbortedError. */
  signal?: AbortSignal;
  /** Time-out of this call in milliseconds, from when it is sent (not while it waits its turn); overrides the client default. */
  timeoutMs?: number;
  /** Place in line (`./budget`); overrides the client's lane. */
  lane?: Lane;
  /** Asked when the call's turn comes: false means it is not sent (rejects with SvcAbortedError). */
  stillWanted?: () => boolean | Promise<boolean>;
}

/** A request body already serialized: sent as it is, byte for byte (CommitIntent sends the quoted intent back). */
export class RawJson {
  /** @param text a JSON document */
  constructor(readonly text: string) {}
}

/** The budget of a client given none: no limit, no rate (aborts and `stillWanted` still apply). */
const UNLIMITED = new RequestBudget({
  maxInFlight: Number.POSITIVE_INFINITY,
  perMinute: Number.POSITIVE_INFINITY,
  burst: Number.POSITIVE_INFINITY,
  maxBackground: Number.POSITIVE_INFINITY,
});

/** Calls the service over HTTP. One instance per (baseUrl, accessKey); {@link SvcReadClient} and {@link SvcClient} add the operations. */
export class SvcHttp {
  readonly baseUrl: string;
  readonly #accessKey: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #budget: RequestBudget | undefined;
  readonly #lane: Lane;
  readonly #scope: string;
  readonly #serviceNow: () => number;
  readonly #timers: Timers;

  /** @throws TypeError when `baseUrl` is not an absolute http(s) URL. */
  constructor(config: SvcClientConfig) {
    const url = new URL(config.baseUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('The base URL must be http(s)');
    this.baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.#accessKey = config.accessKey;
    this.#fetch = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = config.timeoutMs ?? 30_000;
    this.#budget = config.budget;
    this.#lane = config.lane ?? 'user';
    this.#scope = holdScopeOf(this.baseUrl, config.accessKey);
    this.#serviceNow = config.serviceNow ?? config.now ?? (() => Date.now());
    this.#timers = config.timers ?? {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    };
  }

  /** The scope of this client's `Retry-After` holds in the budget ({@link holdScopeOf}). */
  get holdScope(): string {
    return this.#scope;
  }

  /** Origin (`scheme://host:port`) the access key is sent to. */
  get origin(): string {
    return new URL(this.baseUrl).origin;
  }

  /**
   * Calls `operation` with `request` and validates the answer with `schema`.
   * @throws SvcServiceError (service error body), SvcNetworkError, SvcTimeoutError, SvcAbortedError,
   *   SvcBadBodyError (non-JSON or non-service body), SvcValidationError (names the offending field).
   */
  async call<S extends z.ZodMiniType>(operation: string, request: unknown, schema: S, options: CallOptions = {}): Promise<z.output<S>> {
    return (await this.callWithText(operation, request, schema, options)).data;
  }

  /**
   * Like {@link SvcHttp.call}, and also returns the response body text (to keep a part of it byte for byte).
   * A {@link RawJson} request is sent as it is.
   */
  async callWithText<S extends z.ZodMiniType>(
    operation: string,
    request: unknown,
    schema: S,
    options: CallOptions = {},
  ): Promise<{ data: z.output<S>; text: string }> {
    let sent: { response: Response; text: string } | undefined;
    try {
      // The place is held until the whole answer is read.
      const sendOptions = {
        scope: this.#scope,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.stillWanted ? { stillWanted: options.stillWanted } : {}),
      };
      sent = await (this.#budget ?? UNLIMITED).run(options.lane ?? this.#lane, () => this.#send(operation, request, options), sendOptions);
    } catch (err) {
      if (err instanceof SvcApiError) throw err;
      // Aborted while waiting for its place, or no longer wanted: never sent.
      throw new SvcAbortedError(operation);
    }
    if (!sent) throw new SvcAbortedError(operation);
    return readAnswer(operation, sent.response, sent.text, schema, this.#accessKey, this.#serviceNow);
  }

  /**
   * Sends `request` to `operation` and reads the whole answer's text, under the call's time-out (started now that the
   * request is sent, not while it waited for its place). A 429's `Retry-After` is given to the budget here.
   * @throws SvcAbortedError (the caller's signal), SvcTimeoutError, SvcNetworkError (no answer, or the connection
   *   broke while reading it).
   */
  async #send(operation: string, request: unknown, options: CallOptions): Promise<{ response: Response; text: string }> {
    const url = `${this.baseUrl}/rpc/Svc/${operation}`;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const timeout = new AbortController();
    const timer = this.#timers.setTimeout(() => timeout.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    const cancelled = () => (options.signal?.aborted ? new SvcAbortedError(operation) : new SvcTimeoutError(operation, timeoutMs));
    try {
      let response: Response;
      try {
        response = await this.#fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Access-Key': this.#accessKey },
          body: request instanceof RawJson ? request.text : JSON.stringify(request),
          signal,
          credentials: 'omit',
          referrerPolicy: 'no-referrer',
          // A redirect would carry X-Access-Key to another origin: refuse it.
          redirect: 'error',
        });
      } catch (err) {
        if (signal.aborted) throw cancelled();
        throw new SvcNetworkError(operation, url, redact(err instanceof Error ? err.message : String(err), this.#accessKey));
      }
      // A 429's Retry-After holds every request of the worker to this service, not only this caller's (I5): said
      // before this request's place is given up, so that none waiting in line is sent in between.
      const retryAfter =
        response.status === 429 ? parseRetryAfter(response.headers.get('retry-after'), answeredAt(response, this.#serviceNow)) : undefined;
      if (retryAfter !== undefined) this.#budget?.holdOff(retryAfter * 1000, this.#scope);
      try {
        return { response, text: await response.text() };
      } catch (err) {
        if (signal.aborted) throw cancelled();
        throw new SvcNetworkError(
          operation,
          url,
          `the connection broke while reading the answer (${redact(String(err), this.#accessKey)})`,
        );
      }
    } finally {
      this.#timers.clearTimeout(timer);
    }
  }
}
