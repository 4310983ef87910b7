/**
 * Reading the service's answer to one call (docs/protocol.md §1, §2): the body parsed exactly (integers above 2^53
 * stay exact strings), an error body turned into {@link SvcServiceError}, anything else unusable into
 * {@link SvcBadBodyError}, a good body validated with the operation's zod schema. Pure: no I/O, no clock of its own.
 */
import { parse as parseLosslessJson } from 'lossless-json';
import * as z from 'zod/mini';
import { redact, SvcBadBodyError, SvcServiceError, SvcValidationError } from './errors';
import { parseRetryAfter } from './retry-after';
import { issuePath } from './schemas/rows';

/** Largest response body accepted (characters); a larger one is refused with SvcBadBodyError. */
export const MAX_BODY_CHARS = 4 * 1024 * 1024;

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
 * a JS number. Throws SyntaxError on malformed JSON. Of an object's repeated key, the last value is kept (as
 * `JSON.parse` does).
 *
 * The engine's `JSON.parse` reads the body first; only when a number it gave lies outside ±(2^53 − 1) (an integer
 * literal that may have lost digits, or one too large for a double) is the text parsed again with `lossless-json`,
 * which keeps each such literal exact. The deployed service writes amounts as strings (`deployed-wire-notes.md`), so
 * its answers take the first path only: the pure-JS parser was most of the worker's allocations (docs/memory.md).
 */
export function parseJsonExact(text: string): unknown {
  const fast: unknown = JSON.parse(text);
  if (!holdsUnsafeNumber(fast)) return fast;
  return parseLosslessJson(text, null, (literal: string) =>
    /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal)) ? literal : Number(literal),
  );
}

/**
 * Whether `value` (what `JSON.parse` gave) holds a number beyond ±`Number.MAX_SAFE_INTEGER`, Infinity included;
 * walked with a stack of its own, so that a deeply nested body cannot overflow the call stack.
 */
function holdsUnsafeNumber(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'number') {
      if (item > Number.MAX_SAFE_INTEGER || item < -Number.MAX_SAFE_INTEGER) return true;
    } else if (typeof item === 'object' && item !== null) {
      if (Array.isArray(item)) {
        for (const element of item) if (typeof element === 'number' || typeof element === 'object') stack.push(element);
      } else {
        const record = item as Record<string, unknown>;
        for (const key in record) {
          const element = record[key];
          if (typeof element === 'number' || typeof element === 'object') stack.push(element);
        }
      }
    }
  }
  return false;
}

/**
 * The service's time (ms since the epoch) when `response` was answered: its `Date` header when readable, else
 * `serviceNow()`, the worker's estimate.
 */
export function answeredAt(response: Response, serviceNow: () => number): number {
  const date = Date.parse(response.headers.get('date') ?? '');
  return Number.isNaN(date) ? serviceNow() : date;
}

/**
 * The answer to `operation`: `text` (the whole body, already read) of `response`, validated with `schema`.
 * `accessKey` is redacted from every message and snippet; `serviceNow` reads an HTTP-date `Retry-After` of an error
 * body (see {@link answeredAt}).
 * @throws SvcBadBodyError (a body over {@link MAX_BODY_CHARS}, non-JSON or non-service body), SvcServiceError (the
 *   service's error body, with its `Retry-After` in seconds), SvcValidationError (names the offending field).
 */
export function readAnswer<S extends z.ZodMiniType>(
  operation: string,
  response: Response,
  text: string,
  schema: S,
  accessKey: string,
  serviceNow: () => number,
): { data: z.output<S>; text: string } {
  // Redacted before it is cut: a key across the cut would otherwise leave its first characters in the snippet.
  const snippet = redact(text.slice(0, SNIPPET_CHARS + accessKey.length), accessKey).slice(0, SNIPPET_CHARS);
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
      const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'), answeredAt(response, serviceNow));
      const fields = parsed.data;
      throw new SvcServiceError(operation, {
        ...fields,
        msg: redact(fields.msg, accessKey),
        causeText: fields.causeText === undefined ? undefined : redact(fields.causeText, accessKey),
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

/** Words for an unusable body: "an empty body", "an HTML page", "a body that is not JSON". */
function describeBody(text: string, contentType: string): string {
  if (text.trim() === '') return 'an empty body';
  if (contentType.includes('html') || /^\s*</.test(text)) return 'an HTML page';
  return 'a body that is not the service’s JSON';
}
