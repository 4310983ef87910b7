/**
 * The HTTP side of the Svc client (docs/protocol.md §1, §2): every call is a POST of JSON to
 * `{baseUrl}/rpc/Svc/<Operation>` with `X-Access-Key`. Answers are parsed losslessly (integers above 2^53 stay exact
 * strings) and validated with the operation's zod schema; every failure is thrown as one of the typed errors of
 * `./errors`. The operations themselves are in `./client`.
 */
import { parse as parseLosslessJson } from 'lossless-json';
import * as z from 'zod/mini';
import type { Timers } from '../platform';
import { type Lane, MAX_HOLD_MS, RequestBudget, retryAfterDeltaSeconds } from './budget';
import {
  redact,
  SvcAbortedError,
  SvcApiError,
  SvcBadBodyError,
  SvcNetworkError,
  SvcServiceError,
  SvcTimeoutError,
  SvcValidationError,
} from './errors';
import { issuePath } from './schemas/rows';

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

/** Largest response body accepted (characters); a larger one is refused with SvcBadBodyError. */
export const MAX_BODY_CHARS = 4 * 1024 * 1024;

/** The budget of a client given none: no limit, no rate (aborts and `stillWanted` still apply). */
const UNLIMITED = new RequestBudget({
  maxInFlight: Number.POSITIVE_INFINITY,
  perMinute: Number.POSITIVE_INFINITY,
  burst: Number.POSITIVE_INFINITY,
  maxBackground: Number.POSITIVE_INFINITY,
});

/** Longest body kept in error snippets (characters). */
const SNIPPET_CHARS = 200;

/** The service's error body, plain or wrapped (docs/protocol.md §2). */
const PlainErrorBody = z.looseObject({ error: z.string(), code: z.number(), msg: z.nullish(z.string()), cause: z.nullish(z.string()) });
const WrappedErrorBody = z.looseObject({
  webrpcError: z.looseObject({ code: z.number(), name: z.string(), message: z.nullish(z.string()), cause: z.nullish(z.string()) }),
});
const ErrorBody = z.union([
  z.pipe(
    PlainErrorBody,
    z.transform((e: z.output<typeof PlainErrorBody>) => ({
      errorName: e.error,
      code: e.code,
      msg: e.msg ?? '',
      causeText: e.cause ?? undefined,
    })),
  ),
  z.pipe(
    WrappedErrorBody,
    z.transform(({ webrpcError: e }: z.output<typeof WrappedErrorBody>) => ({
      errorName: e.name,
      code: e.code,
      msg: e.message ?? '',
      causeText: e.cause ?? undefined,
    })),
  ),
]);

/**
 * Parses JSON keeping integer literals outside the safe range as exact decimal strings; every other number becomes
 * a JS number. Throws SyntaxError on malformed JSON.
 */
export function parseJsonExact(text: string): unknown {
  return parseLosslessJson(text, null, (literal: string) =>
    /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal)) ? literal : Number(literal),
  );
}

/** The longest `Retry-After` kept (s): {@link MAX_HOLD_MS}. */
export const MAX_RETRY_AFTER_S = MAX_HOLD_MS / 1000;

/**
 * Reads `Retry-After` (RFC 9110 §10.2.3) as whole seconds, at most {@link MAX_RETRY_AFTER_S} (a day's hold is cut to
 * an hour); a delta that is a whole multiple of 1,000 is read as milliseconds sent by mistake
 * (`retryAfterDeltaSeconds` in ./budget); undefined when absent or unreadable. An HTTP-date is read against
 * `serviceNowMs`, the service's time (ms since the epoch): the answer's own `Date` header when readable, else the
 * worker's estimate — never the user's clock alone, which may be minutes off.
 */
export function parseRetryAfter(value: string | null, serviceNowMs: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(retryAfterDeltaSeconds(Number(trimmed)), MAX_RETRY_AFTER_S);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_S, Math.max(0, Math.ceil((at - serviceNowMs) / 1000)));
}

/**
 * The scope of a service's `Retry-After` holds in the budget: its origin and a fingerprint of the access key (FNV-1a,
 * not the key). Two clients of the same service and key share their holds; another origin or key is not held.
 */
export function holdScopeOf(baseUrl: string, accessKey: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < accessKey.length; i++) h = Math.imul(h ^ accessKey.charCodeAt(i), 0x01000193);
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    origin = baseUrl;
  }
  return `${origin} ${(h >>> 0).toString(16)}`;
}

/** Calls the service over HTTP. One instance per (baseUrl, accessKey); {@link SvcClient} adds the operations. */
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

  /** The service's time when `response` was answered: its `Date` header when readable, else the estimate. */
  #answeredAt(response: Response): number {
    const date = Date.parse(response.headers.get('date') ?? '');
    return Number.isNaN(date) ? this.#serviceNow() : date;
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
    const url = `${this.baseUrl}/rpc/Svc/${operation}`;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    let response: Response | undefined;
    let text = '';
    const send = async () => {
      // The time-out starts now that the request is sent, not while it waited for its place.
      const timeout = new AbortController();
      const timer = this.#timers.setTimeout(() => timeout.abort(), timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
      const cancelled = () => (options.signal?.aborted ? new SvcAbortedError(operation) : new SvcTimeoutError(operation, timeoutMs));
      try {
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
          response.status === 429 ? parseRetryAfter(response.headers.get('retry-after'), this.#answeredAt(response)) : undefined;
        if (retryAfter !== undefined) this.#budget?.holdOff(retryAfter * 1000, this.#scope);
        try {
          text = await response.text();
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
    };
    try {
      // The place is held until the whole answer is read.
      const sendOptions = {
        scope: this.#scope,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.stillWanted ? { stillWanted: options.stillWanted } : {}),
      };
      await (this.#budget ?? UNLIMITED).run(options.lane ?? this.#lane, send, sendOptions);
    } catch (err) {
      if (err instanceof SvcApiError) throw err;
      // Aborted while waiting for its place, or no longer wanted: never sent.
      throw new SvcAbortedError(operation);
    }
    if (!response) throw new SvcAbortedError(operation);
    // Redacted before it is cut: a key across the cut would otherwise leave its first characters in the snippet.
    const snippet = redact(text.slice(0, SNIPPET_CHARS + this.#accessKey.length), this.#accessKey).slice(0, SNIPPET_CHARS);
    if (text.length > MAX_BODY_CHARS) {
      throw new SvcBadBodyError(
        operation,
        response.status,
        `a body of ${(text.length / 2 ** 20).toFixed(1)} MB, more than the ${MAX_BODY_CHARS / 2 ** 20} MB accepted`,
        snippet,
      );
    }
    const contentType = response.headers.get('content-type') ?? '';
    let body: unknown;
    try {
      body = text.trim() === '' ? undefined : parseJsonExact(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const parsed = ErrorBody.safeParse(body);
      if (parsed.success) {
        const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'), this.#answeredAt(response));
        const fields = parsed.data;
        throw new SvcServiceError(operation, {
          ...fields,
          msg: redact(fields.msg, this.#accessKey),
          causeText: fields.causeText === undefined ? undefined : redact(fields.causeText, this.#accessKey),
          httpStatus: response.status,
          ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
        });
      }
      throw new SvcBadBodyError(operation, response.status, describeBody(text, contentType), snippet);
    }
    if (body === undefined) {
      throw new SvcBadBodyError(operation, response.status, describeBody(text, contentType), snippet);
    }
    const result = schema.safeParse(body);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new SvcValidationError(operation, issue ? issuePath(issue.path) : '', issue?.message ?? 'invalid');
    }
    return { data: result.data, text };
  }
}

/** Words for an unusable body: "an empty body", "an HTML page", "a body that is not JSON". */
function describeBody(text: string, contentType: string): string {
  if (text.trim() === '') return 'an empty body';
  if (contentType.includes('html') || /^\s*</.test(text)) return 'an HTML page';
  return 'a body that is not the service’s JSON';
}
