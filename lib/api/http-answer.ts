/**
 * Reading the service's answer to one call (docs/protocol.md §1, §2): the body parsed losslessly (integers above 2^53
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
 * a JS number. Throws SyntaxError on malformed JSON.
 */
export function parseJsonExact(text: string): unknown {
  return parseLosslessJson(text, null, (literal: string) =>
    /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal)) ? literal : Number(literal),
  );
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
