/**
 * The HTTP call under every operation (lib/api/http.ts), through the public SvcClient with an injected `fetch`: the
 * URL it posts to, the base URL it refuses, the words of an unusable body (empty, HTML, too big), a service error's
 * cause, the time-out when the caller passes its own signal, and `Retry-After` read only as whole seconds or a date.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import { RequestBudget } from '@/lib/api/budget';
import { SvcClient } from '@/lib/api/client';
import { SvcAbortedError, SvcBadBodyError, SvcNetworkError, SvcServiceError, SvcTimeoutError } from '@/lib/api/errors';
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

describe('the client’s defaults and what it exposes', () => {
  const hanging: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));

  it('times a call out with the platform’s own timers when it is given none', async () => {
    const svc = new SvcClient({ baseUrl: 'https://svc.example.test', accessKey: KEY, fetch: hanging, timeoutMs: 20 });
    expect(await failure(svc.call('Ping', {}, z.unknown()))).toBeInstanceOf(SvcTimeoutError);
  });

  it('clears each call’s time-out once the answer is read', async () => {
    const pending = new Set<unknown>();
    let next = 0;
    const timers = {
      setTimeout: () => {
        const h = ++next;
        pending.add(h);
        return h;
      },
      clearTimeout: (h: unknown) => void pending.delete(h),
    };
    const svc = new SvcClient({ baseUrl: 'https://svc.example.test', accessKey: KEY, fetch: answer('{}'), timers });
    await svc.call('Ping', {}, z.unknown());
    await failure(
      new SvcClient({ baseUrl: 'https://svc.example.test', accessKey: KEY, fetch: answer('', { status: 502 }), timers }).call(
        'Ping',
        {},
        z.unknown(),
      ),
    );
    expect(next).toBe(2);
    expect(pending.size).toBe(0);
  });

  it('reads an HTTP-date Retry-After without a Date header on `serviceNow`, else on `now`, else on the local clock', async () => {
    const t0 = Date.UTC(2026, 0, 1, 0, 0, 0);
    const limited = (at: number) =>
      answer('{"error":"RateLimited","code":1007,"msg":"slow down"}', {
        status: 429,
        headers: { 'retry-after': new Date(at + 30_000).toUTCString() },
      });
    const seconds = async (config: Partial<ConstructorParameters<typeof SvcClient>[0]>, at: number) => {
      const svc = new SvcClient({ baseUrl: 'https://svc.example.test', accessKey: KEY, fetch: limited(at), ...config });
      return ((await failure(svc.call('Ping', {}, z.unknown()))) as SvcServiceError).retryAfterSeconds;
    };
    expect(await seconds({ serviceNow: () => t0 }, t0)).toBe(30);
    expect(await seconds({ now: () => t0 }, t0)).toBe(30);
    expect(await seconds({ serviceNow: () => t0, now: () => t0 - 60_000 }, t0)).toBe(30);
    const local = await seconds({}, Date.now());
    expect(local).toBeGreaterThanOrEqual(29);
    expect(local).toBeLessThanOrEqual(30);
  });

  it('names the origin the key is sent to, and one hold scope per service and key', () => {
    const svc = (baseUrl: string, accessKey = KEY) => new SvcClient({ baseUrl, accessKey, fetch: answer('{}') });
    expect(svc('https://svc.example.test:8443/base/').origin).toBe('https://svc.example.test:8443');
    expect(svc('https://svc.example.test/a').holdScope).toBe(svc('https://svc.example.test/b').holdScope);
    expect(svc('https://svc.example.test').holdScope).not.toBe(svc('https://svc.example.test', 'another-key').holdScope);
    expect(svc('https://svc.example.test').holdScope).not.toBe(svc('https://other.example.test').holdScope);
  });
});

describe('the request as sent', () => {
  it('sends no cookies and no referrer, and refuses redirects', async () => {
    let init: RequestInit | undefined;
    await client(async (_input, i) => {
      init = i;
      return new Response('{}');
    }).call('Ping', {}, z.unknown());
    expect(init).toMatchObject({ method: 'POST', credentials: 'omit', referrerPolicy: 'no-referrer', redirect: 'error' });
  });
});

describe('an answer whose body breaks while it is read', () => {
  const breaking =
    (onAbort: boolean): typeof fetch =>
    async (_input, init) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"intents":'));
            if (onAbort) init?.signal?.addEventListener('abort', () => controller.error(new Error('stream cut')));
            else controller.error(new Error('connection reset'));
          },
        }),
      );

  it('is a network error that says the connection broke, with the cause', async () => {
    const err = await failure(client(breaking(false)).call('Ping', {}, z.unknown()));
    expect(err).toBeInstanceOf(SvcNetworkError);
    expect((err as Error).message).toContain('connection reset');
  });

  it('is a time-out when the time-out cut it', async () => {
    const svc = new SvcClient({ baseUrl: 'https://svc.example.test', accessKey: KEY, fetch: breaking(true), timeoutMs: 20 });
    expect(await failure(svc.call('Ping', {}, z.unknown()))).toBeInstanceOf(SvcTimeoutError);
  });
});

describe('Retry-After is read from a 429 only', () => {
  it('a 503 with Retry-After holds nothing: the next request is sent at once', async () => {
    const budget = new RequestBudget({ perMinute: 60_000 });
    const seen: string[] = [];
    const svc = new SvcClient({
      baseUrl: 'https://svc.example.test',
      accessKey: KEY,
      budget,
      fetch: answer('{"error":"Unavailable","code":2002,"msg":"later"}', { status: 503, headers: { 'retry-after': '120' } }, seen),
    });
    await failure(svc.call('Ping', {}, z.unknown()));
    const told = vi.fn();
    budget.onHoldOff = told;
    await failure(svc.call('Ping', {}, z.unknown()));
    expect(seen).toHaveLength(2);
    expect(told).not.toHaveBeenCalled();
  });
});

describe('a call through the budget', () => {
  it('is not sent when no longer wanted at its turn, nor when aborted while it waits', async () => {
    const budget = new RequestBudget({ maxInFlight: 1, perMinute: 60_000 });
    const seen: string[] = [];
    const svc = new SvcClient({
      baseUrl: 'https://svc.example.test',
      accessKey: KEY,
      budget,
      lane: 'tracker',
      fetch: answer('{}', {}, seen),
    });
    expect(await failure(svc.call('Ping', {}, z.unknown(), { stillWanted: () => false }))).toBeInstanceOf(SvcAbortedError);
    expect(seen).toEqual([]);
    let release!: () => void;
    const busy = budget.run('tracker', () => new Promise<void>((r) => (release = r)));
    const caller = new AbortController();
    const waiting = failure(svc.call('Ping', {}, z.unknown(), { signal: caller.signal }));
    caller.abort();
    expect(await waiting).toBeInstanceOf(SvcAbortedError);
    expect(budget.waiting).toBe(0);
    release();
    await busy;
    expect(seen).toEqual([]);
  });
});
