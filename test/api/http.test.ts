/**
 * The HTTP call under every operation (lib/api/http.ts), through the public SvcClient with an injected `fetch`: the
 * URL it posts to, the base URL it refuses, the words of an unusable body (empty, HTML, too big), a service error's
 * cause, the time-out when the caller passes its own signal, and `Retry-After` read only as whole seconds or a date.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { SvcClient } from '@/lib/api/client';
import { SvcBadBodyError, SvcServiceError, SvcTimeoutError } from '@/lib/api/errors';
import { MAX_BODY_CHARS } from '@/lib/api/http-answer';
import { parseRetryAfter } from '@/lib/api/retry-after';

const KEY = 'sk_test_http_0123';
const answer =
  (body: string, init: ResponseInit = {}, seen: string[] = []): typeof fetch =>
  async (input) => {
    seen.push(String(input));
    return new Response(body, init);
  };
const client = (f: typeof fetch, baseUrl = 'https://svc.example.test') => new SvcClient({ baseUrl, accessKey: KEY, fetch: f });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('resolved');
    },
    (e: unknown) => e,
  );

describe('the URL and the base URL', () => {
  it('posts to <base>/rpc/Svc/<operation>, whatever trailing slashes the base URL has', async () => {
    const seen: string[] = [];
    await client(answer('{}', {}, seen), 'https://svc.example.test/base//').call('Ping', {}, z.unknown());
    expect(seen).toEqual(['https://svc.example.test/base/rpc/Svc/Ping']);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => client(answer('{}'), 'ftp://svc.example.test')).toThrow(TypeError);
    expect(() => client(answer('{}'), 'http://svc.example.test')).not.toThrow();
  });
});

describe('an unusable body says what it is', () => {
  it('an empty or blank body of a 200', async () => {
    const err = await failure(client(answer('  \n')).call('Ping', {}, z.unknown()));
    expect(err).toBeInstanceOf(SvcBadBodyError);
    expect((err as Error).message).toContain('an empty body');
  });

  it('an HTML page, by its content type or by its first character', async () => {
    const typed = await failure(
      client(answer('oops', { status: 502, headers: { 'content-type': 'text/html' } })).call('Ping', {}, z.unknown()),
    );
    expect((typed as Error).message).toContain('an HTML page');
    const bare = await failure(client(answer('  <html>bad gateway</html>', { status: 502 })).call('Ping', {}, z.unknown()));
    expect((bare as Error).message).toContain('an HTML page');
    const later = await failure(client(answer('bad gateway <b>', { status: 502 })).call('Ping', {}, z.unknown()));
    expect((later as Error).message).toContain('a body that is not the service’s JSON');
    expect((later as Error).message).not.toContain('an HTML page');
  });

  it('a body beyond MAX_BODY_CHARS is refused with its size, one character less is read', async () => {
    const big = `"${'x'.repeat(MAX_BODY_CHARS - 1)}"`;
    const err = await failure(client(answer(big)).call('Ping', {}, z.unknown()));
    expect(err).toBeInstanceOf(SvcBadBodyError);
    expect((err as Error).message).toContain('a body of 4.0 MB, more than the 4 MB accepted');
    const fits = `"${'x'.repeat(MAX_BODY_CHARS - 2)}"`;
    expect(await client(answer(fits)).call('Ping', {}, z.string())).toHaveLength(MAX_BODY_CHARS - 2);
  });
});

describe('a service error', () => {
  it('keeps its cause, plain or wrapped, with the key redacted', async () => {
    const plain = JSON.stringify({ error: 'Unavailable', code: 5000, msg: 'down', cause: `upstream ${KEY} timed out` });
    const err = await failure(client(answer(plain, { status: 503 })).call('Ping', {}, z.unknown()));
    expect(err).toBeInstanceOf(SvcServiceError);
    expect((err as SvcServiceError).causeText).not.toContain(KEY);
    expect((err as SvcServiceError).causeText).toMatch(/^upstream .+ timed out$/);
    const wrapped = JSON.stringify({ webrpcError: { code: 5000, name: 'Unavailable', message: null, cause: 'disk full' } });
    const w = (await failure(client(answer(wrapped, { status: 500 })).call('Ping', {}, z.unknown()))) as SvcServiceError;
    expect(w).toMatchObject({ errorName: 'Unavailable', code: 5000, msg: '', causeText: 'disk full', httpStatus: 500 });
  });
});

describe('the time-out', () => {
  it('applies also when the caller passes its own signal', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const caller = new AbortController();
    const svc = new SvcClient({ baseUrl: 'https://svc.example.test', accessKey: KEY, fetch: hanging, timeoutMs: 30 });
    const err = await failure(svc.call('Ping', {}, z.unknown(), { signal: caller.signal }));
    expect(err).toBeInstanceOf(SvcTimeoutError);
  });
});

describe('parseRetryAfter', () => {
  it('reads whole seconds, spaces around them too', () => {
    expect(parseRetryAfter(' 120 ')).toBe(120);
    expect(parseRetryAfter('0')).toBe(0);
  });

  it('never reads digits inside other text as seconds', () => {
    expect(parseRetryAfter('x12')).toBeUndefined();
    expect(parseRetryAfter('12x')).toBeUndefined();
    // Not whole seconds: read as a date (a past one, so no hold), never as −5 s.
    expect(parseRetryAfter('-5', Date.UTC(2026, 0, 1))).toBe(0);
  });
});
