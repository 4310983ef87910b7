/**
 * Reading one answer (lib/api/http-answer.ts), pure: a body already read is turned into the operation's data or one
 * typed error (docs/protocol.md §1, §2), the access key never in what is kept.
 */
import fc from 'fast-check';
import { parse as parseLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SvcBadBodyError, SvcServiceError, SvcValidationError } from '@/lib/api/errors';
import { answeredAt, MAX_BODY_CHARS, parseJsonExact, readAnswer } from '@/lib/api/http-answer';

const KEY = 'ak_live_0123456789abcdef';
const SERVICE_NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const Schema = z.object({ n: z.number() });

/** `text` answered with `status` and `headers` to GetThing. */
function read(text: string, status = 200, headers: Record<string, string> = {}) {
  try {
    return readAnswer('GetThing', new Response(null, { status, headers }), text, Schema, KEY, () => SERVICE_NOW);
  } catch (err) {
    return err;
  }
}

describe('readAnswer', () => {
  it('a good body is the data, and its text kept as it came', () => {
    expect(read(' {"n": 3} ')).toEqual({ data: { n: 3 }, text: ' {"n": 3} ' });
  });
  it('a body of the wrong shape names the field', () => {
    expect(read('{"n":"3"}')).toMatchObject({ constructor: SvcValidationError, path: 'n' });
  });
  it("the service's error body, plain or wrapped, is a service error with its Retry-After read on the service's time", () => {
    const plain = read('{"error":"RateLimited","code":1005,"msg":"slow down"}', 429, { 'retry-after': '7' });
    expect(plain).toBeInstanceOf(SvcServiceError);
    expect(plain).toMatchObject({ errorName: 'RateLimited', code: 1005, msg: 'slow down', httpStatus: 429, retryAfterSeconds: 7 });
    const wrapped = read('{"webrpcError":{"code":1000,"name":"Unauthorized","message":"bad key"}}', 401, {
      'retry-after': new Date(SERVICE_NOW + 30_000).toUTCString(),
    });
    expect(wrapped).toMatchObject({ errorName: 'Unauthorized', code: 1000, msg: 'bad key', httpStatus: 401, retryAfterSeconds: 30 });
  });
  it('a plain error body without msg keeps no message (the service sent none)', () => {
    expect(read('{"error":"NotFound","code":8000,"status":400}', 400)).toMatchObject({ code: 8000, msg: '' });
  });
  it('the key is redacted from an error body and from a snippet, also when the snippet would cut it', () => {
    expect(read(`{"error":"X","code":1,"msg":"key ${KEY} refused"}`, 400)).toMatchObject({ msg: 'key [redacted] refused' });
    const err = read(`${'x'.repeat(190)}${KEY}`, 502) as SvcBadBodyError;
    expect(err).toBeInstanceOf(SvcBadBodyError);
    expect(err.snippet).not.toContain(KEY.slice(0, 10));
    expect(err.snippet.length).toBeLessThanOrEqual(200);
  });
  it('an HTML page, an empty body, or a body over the limit is a bad body', () => {
    expect((read('<html>proxy</html>', 502) as Error).message).toContain('an HTML page');
    expect((read('', 200) as Error).message).toContain('an empty body');
    expect((read(' '.repeat(MAX_BODY_CHARS + 1)) as Error).message).toContain('a body of 4.0 MB');
  });
});

describe('parseJsonExact and answeredAt', () => {
  it('keeps integers beyond 2^53 as exact strings', () => {
    expect(parseJsonExact('{"a":9007199254740993,"b":1.5,"c":12}')).toEqual({ a: '9007199254740993', b: 1.5, c: 12 });
  });
  it('keeps exact every integer beyond ±(2^53 − 1), however large, and reads every other body as JSON.parse does', () => {
    expect(parseJsonExact('[9007199254740991,-9007199254740991,9007199254740992,-9007199254740993]')).toEqual([
      9007199254740991,
      -9007199254740991,
      '9007199254740992',
      '-9007199254740993',
    ]);
    const digits = '1'.repeat(400); // beyond a double's range: JSON.parse alone gives Infinity
    expect(parseJsonExact(`{"a":{"b":[${digits}]},"c":1e400}`)).toEqual({ a: { b: [digits] }, c: Infinity });
    expect(parseJsonExact('{"a":1.5,"b":1e2,"c":123.0,"d":"9007199254740993","e":-0}')).toEqual({
      a: 1.5,
      b: 100,
      c: 123,
      d: '9007199254740993',
      e: -0,
    });
    expect(Object.is((parseJsonExact('{"e":-0}') as { e: number }).e, -0)).toBe(true);
    expect(parseJsonExact('{"s":"PENDING","s":"SUCCEEDED"}')).toEqual({ s: 'SUCCEEDED' });
    expect(() => parseJsonExact('{"a":1,}')).toThrow(SyntaxError);
    const deep = '['.repeat(100_000) + ']'.repeat(100_000); // nesting walked without recursion
    expect(() => parseJsonExact(deep)).not.toThrow();
  });
  it('gives what a lossless parse of every number gives, for any JSON text and any text at all', () => {
    // The reference: lossless-json reads every literal; integers outside the safe range stay exact strings.
    const reference = (text: string) =>
      parseLossless(text, null, (literal: string) =>
        /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal)) ? literal : Number(literal),
      );
    const outcome = (parse: (text: string) => unknown, text: string) => {
      try {
        return { value: parse(text) };
      } catch (err) {
        return { threw: err instanceof SyntaxError ? 'SyntaxError' : String(err) };
      }
    };
    const bigInteger = fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String);
    const withBigIntegers = fc
      .tuple(fc.json(), fc.array(bigInteger, { maxLength: 4 }))
      .map(([json, bigs]) => `{"body":${json},"bigs":[${bigs.join(',')}]}`);
    fc.assert(
      fc.property(
        fc.oneof(fc.json(), withBigIntegers, fc.string(), fc.string({ unit: fc.constantFrom(...'[]{}:,"0123456789.e-tfn ') })),
        (text) => {
          expect(outcome(parseJsonExact, text)).toEqual(outcome(reference, text));
        },
      ),
      { numRuns: 2_000 },
    );
  });
  it("an answer's Date header when readable, else the estimate", () => {
    const date = 'Thu, 26 Nov 2026 12:00:05 GMT';
    expect(answeredAt(new Response(null, { headers: { date } }), () => 0)).toBe(Date.parse(date));
    expect(answeredAt(new Response(null, { headers: { date: 'soon' } }), () => 42)).toBe(42);
  });
});
