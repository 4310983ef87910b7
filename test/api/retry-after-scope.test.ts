/**
 * Issue 27, symptoms 7 and 10: a `Retry-After` holds the service (origin and key) that sent it, for at most an hour,
 * an HTTP-date read on the service's time (the answer's own `Date`), and no hold ever overflows a timer. Each of these
 * failed on the budget that held the whole worker on one wall-clock time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_HOLD_MS, RequestBudget } from '@/lib/api/budget';
import { SvcClient } from '@/lib/api/client';
import { holdScopeOf, parseRetryAfter } from '@/lib/api/retry-after';
import { realClock } from '@/lib/time/clock';
import { createClientCache } from '@/lib/worker/client-cache';
import { EventClock } from '../tracker/fakes';

const ID = `0x${'1'.repeat(64)}`;
const NOT_FOUND = '{"error":"NotFound","code":8000,"msg":"no","status":400}';
const LIMITED = '{"error":"RateLimited","code":1007,"msg":"slow down","status":429}';

/**
 * A fetch for several services: the first request to an origin in `limit` is answered 429 with its headers; every
 * other request NotFound at once. Records when (virtual ms) each request reached which origin.
 */
function services(clock: EventClock, limit: Record<string, Record<string, string>>) {
  const sent: Array<{ at: number; origin: string }> = [];
  const limited = new Set<string>();
  const fetch: typeof globalThis.fetch = async (input) => {
    const origin = new URL(String(input)).origin;
    sent.push({ at: clock.now(), origin });
    const headers = limit[origin];
    if (headers && !limited.has(origin)) {
      limited.add(origin);
      return new Response(LIMITED, { status: 429, headers });
    }
    return new Response(NOT_FOUND, { status: 400 });
  };
  return { fetch, sent };
}

const A = 'https://a.svc.example';
const B = 'https://b.svc.example';

describe('Retry-After holds the service that sent it', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a day’s Retry-After from service A neither holds Test connection of service B nor lasts more than an hour', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const net = services(clock, { [A]: { 'Retry-After': '86400' } });
    const a = new SvcClient({ baseUrl: A, accessKey: 'key-a', fetch: net.fetch, budget });
    const b = new SvcClient({ baseUrl: B, accessKey: 'key-b', fetch: net.fetch, budget });
    const t0 = clock.now();
    await a.getIntentReceipt({ intentId: ID }).catch(() => undefined);
    const toB = b.getIntentReceipt({ intentId: ID }).catch(() => 'answered');
    const toA = a.getIntentReceipt({ intentId: ID }).catch(() => 'answered');
    await clock.advance(0);
    expect(await toB).toBe('answered');
    expect(net.sent.filter((s) => s.origin === B).map((s) => s.at - t0)).toEqual([0]);
    // A is held, for an hour (the cap), not a day.
    await clock.advance(MAX_HOLD_MS - 1);
    expect(net.sent.filter((s) => s.origin === A)).toHaveLength(1);
    await clock.advance(1);
    await toA;
    expect(net.sent.filter((s) => s.origin === A).map((s) => s.at - t0)).toEqual([0, 3_600_000]);
  });

  it('the same origin with another key is another scope; the same origin and key share one', () => {
    expect(holdScopeOf(A, 'k1')).not.toBe(holdScopeOf(A, 'k2'));
    expect(holdScopeOf(`${A}/`, 'k1')).toBe(holdScopeOf(A, 'k1'));
    expect(holdScopeOf(A, 'secret-key')).not.toContain('secret');
  });

  it('another origin with the same key is another scope, also for a base URL that does not parse', () => {
    expect(holdScopeOf('https://a.example', 'k1')).not.toBe(holdScopeOf('https://b.example', 'k1'));
    expect(holdScopeOf('svc-a', 'k1')).not.toBe(holdScopeOf('svc-b', 'k1'));
    expect(holdScopeOf('svc-a', 'k1')).toBe(holdScopeOf('svc-a', 'k1'));
  });

  it('a 429 to Test connection of an unsaved URL holds neither the saved service nor the tracker', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const net = services(clock, { [B]: { 'Retry-After': '3600' } });
    const saved = { baseUrl: A, accessKey: 'key-a' };
    const clients = createClientCache({ get: async () => saved, set: async () => {} }, { fetch: net.fetch, budget });
    const holds: string[] = [];
    budget.onHoldOff = (_ms, scope) => holds.push(scope);
    await clients
      .forSettings(B, 'key-b')
      .getIntentReceipt({ intentId: ID })
      .catch(() => undefined);
    // The hold is told with B's scope, which is not the saved service's: the worker does not pause its tracker.
    expect(holds).toEqual([holdScopeOf(B, 'key-b')]);
    expect(await clients.scope()).toBe(holdScopeOf(A, 'key-a'));
    const tracker = await clients.current('tracker');
    const sent = tracker!.getIntentReceipt({ intentId: ID }).catch(() => 'answered');
    await clock.advance(0);
    expect(await sent).toBe('answered');
    expect(net.sent.map((s) => s.origin)).toEqual([B, A]);
  });

  it('an HTTP-date Retry-After is read on the answer’s Date: a user clock 10 min fast still holds 2 min', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    // The service's time is 10 minutes behind this computer's (real) clock.
    const service = Math.floor((Date.now() - 10 * 60_000) / 1000) * 1000;
    const net = services(clock, {
      [A]: { Date: new Date(service).toUTCString(), 'Retry-After': new Date(service + 120_000).toUTCString() },
    });
    const a = new SvcClient({ baseUrl: A, accessKey: 'k', fetch: net.fetch, budget });
    const t0 = clock.now();
    await a.getIntentReceipt({ intentId: ID }).catch(() => undefined);
    const next = a.getIntentReceipt({ intentId: ID }).catch(() => 'answered');
    await clock.advance(119_999);
    expect(net.sent).toHaveLength(1);
    await clock.advance(1);
    await next;
    expect(net.sent.map((s) => s.at - t0)).toEqual([0, 120_000]);
    // Without a Date header, the estimate given as the service's time.
    expect(parseRetryAfter(new Date(service + 120_000).toUTCString(), service)).toBe(120);
  });

  it('a Retry-After in milliseconds by mistake holds what the service meant: 1000 holds 1 s, 600000 ten minutes', async () => {
    // World campaign, seed 20261126, run 10 of `retryAfter`: `600000` (10 min meant) held the worker an hour.
    expect(parseRetryAfter('1000')).toBe(1);
    expect(parseRetryAfter('600000')).toBe(600);
    expect(parseRetryAfter('86400000')).toBe(3_600);
    // Seconds as services write them.
    expect([parseRetryAfter('0'), parseRetryAfter('1'), parseRetryAfter('120'), parseRetryAfter('3600')]).toEqual([0, 1, 120, 3_600]);
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const net = services(clock, { [A]: { 'Retry-After': '1000' } });
    const a = new SvcClient({ baseUrl: A, accessKey: 'k', fetch: net.fetch, budget });
    const t0 = clock.now();
    await a.getIntentReceipt({ intentId: ID }).catch(() => undefined);
    const next = a.getIntentReceipt({ intentId: ID }).catch(() => 'answered');
    await clock.advance(1_000);
    await next;
    expect(net.sent.map((x) => x.at - t0)).toEqual([0, 1_000]);
  });

  it('a Retry-After in milliseconds by mistake is cut to an hour, and no sleep overflows setTimeout', async () => {
    // 2^31 ms written as seconds: a hold of 68 years.
    expect(parseRetryAfter('2147484')).toBe(3_600);
    expect(parseRetryAfter('2147483648000')).toBe(3_600);
    vi.useFakeTimers();
    let woke = false;
    void realClock.sleep(2 ** 31 + 5_000).then(() => {
      woke = true;
    });
    // setTimeout fires a delay above 2^31 - 1 ms at once: the sleep must not.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(woke).toBe(false);
  });
});
