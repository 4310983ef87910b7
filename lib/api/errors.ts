/**
 * Typed errors of the Svc client. Every failure of a call becomes one of these, each with a `kind` to switch on
 * and a message a person can act on. Error bodies and codes: docs/protocol.md §2.
 */

/** What went wrong, coarsely: drives retry policy and what the UI says. */
export type SvcErrorKind = 'service' | 'network' | 'timeout' | 'aborted' | 'bad-body' | 'validation';

/** Base class of every error the Svc client throws. */
export abstract class SvcApiError extends Error {
  abstract readonly kind: SvcErrorKind;
  /** The RPC operation that failed (e.g. "WaitIntentReceipt"). */
  readonly operation: string;
  constructor(operation: string, message: string) {
    super(message);
    this.operation = operation;
    this.name = new.target.name;
  }
}

/** Service error codes that the client and UI treat specially. */
export const SvcErrorCode = {
  Unauthorized: 1000,
  PermissionDenied: 1001,
  RateLimited: 1007,
  ProjectNotFound: 1008,
  AccessKeyNotFound: 1101,
  AccessKeyMismatch: 1102,
  InvalidOrigin: 1103,
  QuotaExceeded: 1200,
  QuotaRateLimit: 1201,
  InvalidArgument: 2000,
  NotFound: 8000,
} as const;

/** Codes meaning "this access key is not accepted": 1000 Unauthorized, 1101 AccessKeyNotFound, 1008 ProjectNotFound. */
export const KEY_REJECTED_CODES: readonly number[] = [
  SvcErrorCode.Unauthorized,
  SvcErrorCode.AccessKeyNotFound,
  SvcErrorCode.ProjectNotFound,
];

/**
 * The service answered with its error body: `{"error","code","msg","cause"?,"status"}` or the wrapped
 * `{"webrpcError":{"code","name","message","cause","httpStatus"}}`.
 */
export class SvcServiceError extends SvcApiError {
  readonly kind = 'service' as const;
  /** Error name, e.g. "NotFound", "AccessKeyNotFound", "WebrpcBadRoute". */
  readonly errorName: string;
  /** Numeric code, e.g. 8000 for NotFound. */
  readonly code: number;
  /** The service's own message. */
  readonly msg: string;
  /** HTTP status of the response. */
  readonly httpStatus: number;
  /** Optional cause text sent by the service. */
  readonly causeText: string | undefined;
  /** Seconds from a `Retry-After` header (429 responses), when present. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    operation: string,
    fields: { errorName: string; code: number; msg: string; httpStatus: number; causeText?: string; retryAfterSeconds?: number },
  ) {
    super(operation, `${fields.errorName} (${fields.code}): ${fields.msg || 'no message'}`);
    this.errorName = fields.errorName;
    this.code = fields.code;
    this.msg = fields.msg;
    this.httpStatus = fields.httpStatus;
    this.causeText = fields.causeText;
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}

/** The request never got an HTTP answer: DNS failure, refused or reset connection, CORS or permission block. */
export class SvcNetworkError extends SvcApiError {
  readonly kind = 'network' as const;
  constructor(operation: string, url: string, detail: string) {
    super(operation, `Could not reach the service at ${url}: ${detail}`);
  }
}

/** No answer within the client's time-out (milliseconds in `timeoutMs`). */
export class SvcTimeoutError extends SvcApiError {
  readonly kind = 'timeout' as const;
  readonly timeoutMs: number;
  constructor(operation: string, timeoutMs: number) {
    super(operation, `${operation} got no answer within ${Math.round(timeoutMs / 1000)} s`);
    this.timeoutMs = timeoutMs;
  }
}

/** The caller cancelled the request through its AbortSignal. */
export class SvcAbortedError extends SvcApiError {
  readonly kind = 'aborted' as const;
  constructor(operation: string) {
    super(operation, `${operation} was cancelled`);
  }
}

/**
 * The answer was not the service's JSON: HTML from a proxy, an empty body, or text that does not parse.
 * `httpStatus` is the response status; `snippet` the start of the body (for diagnostics, never shown raw in HTML).
 */
export class SvcBadBodyError extends SvcApiError {
  readonly kind = 'bad-body' as const;
  readonly httpStatus: number;
  readonly snippet: string;
  constructor(operation: string, httpStatus: number, what: string, snippet: string) {
    super(
      operation,
      `${operation}: HTTP ${httpStatus} with ${what}${what.startsWith('a body of') ? '' : ' — this does not look like the Svc service'}`,
    );
    this.httpStatus = httpStatus;
    this.snippet = snippet;
  }
}

/** The JSON answer does not have the expected shape. `path` names the first offending field. */
export class SvcValidationError extends SvcApiError {
  readonly kind = 'validation' as const;
  readonly path: string;
  /** @param path dotted path; a path starting with `request.` means the request was refused before sending. */
  constructor(operation: string, path: string, problem: string) {
    super(
      operation,
      path.startsWith('request.')
        ? `${operation} was not sent: ${path.slice('request.'.length)} is invalid (${problem})`
        : `${operation} answered with an unexpected shape at ${path || '(body)'}: ${problem}`,
    );
    this.path = path;
  }
}

/** True when the error says the access key is not accepted (1000, 1101, 1008). */
export function isKeyRejected(err: unknown): err is SvcServiceError {
  return err instanceof SvcServiceError && KEY_REJECTED_CODES.includes(err.code);
}

/** True when the key is valid but not allowed from this origin (1103 InvalidOrigin). */
export function isOriginRejected(err: unknown): err is SvcServiceError {
  return err instanceof SvcServiceError && err.code === SvcErrorCode.InvalidOrigin;
}

/** True for NotFound (8000, sent with HTTP 400 by the deployed service, not 404). */
export function isNotFound(err: unknown): err is SvcServiceError {
  return err instanceof SvcServiceError && err.code === SvcErrorCode.NotFound;
}

/** True for rate limiting: HTTP 429 or codes 1007, 1200, 1201. */
export function isRateLimited(err: unknown): err is SvcServiceError {
  return (
    err instanceof SvcServiceError &&
    (err.httpStatus === 429 ||
      err.code === SvcErrorCode.RateLimited ||
      err.code === SvcErrorCode.QuotaExceeded ||
      err.code === SvcErrorCode.QuotaRateLimit)
  );
}

/** Replaces every occurrence of `secret` in `text` with "[redacted]" (no-op for an empty secret). */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  return text.split(secret).join('[redacted]');
}
