/**
 * A 429's `Retry-After` holds the whole worker (invariant I5), found by the campaign of the whole worker: a look-up
 * of the ETA baselines answered 429 while the tracker and the watched-address check went on sending, and a worker
 * restarted inside the wait forgot it. What is checked is when requests reach the (fake) service.
 */
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '@/lib/api/budget';
import { SvcClient } from '@/lib/api/client';
import { MemoryStateStore, MemoryStore } from '@/lib/store/memory';
import { Tracker } from '@/lib/tracker/engine';
import { EventClock, RecordingNotifier, ScriptedTransport } from '../tracker/fakes';

/** A fetch that answers every request at once: 429 with `Retry-After: 3` for the first, NotFound for the others. */
function rateLimitingFetch(clock: EventClock) {
  const sent: Array<{ at: number; op: string }> = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    sent.push({ at: clock.now(), op: String(input).split('/').pop()! });
    if (sent.length === 1)
      return new Response('{"error":"RateLimited","code":1007,"msg":"slow down","status":429}', {
        status: 429,
        headers: { 'Retry-After': '3' },
      });
    return new Response('{"error":"NotFound","code":8000,"msg":"no","status":400}', { status: 400 });
  };
  return { fetch, sent };
}

describe('Retry-After holds every request of the worker', () => {
  it('a 429 to a background look-up holds the tracker’s and the user’s next requests until it ends', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const service = rateLimitingFetch(clock);
    const client = (lane: 'user' | 'tracker' | 'background') =>
      new SvcClient({ baseUrl: 'https://svc.example', accessKey: 'k', fetch: service.fetch, budget, lane });
    const t0 = clock.now();
    const first = await client('background')
      .getIntent({ intentId: `0x${'1'.repeat(64)}` })
      .catch((e: { httpStatus?: number }) => e.httpStatus);
    expect(first).toBe(429);
    const next = [
      client('tracker').getIntentReceipt({ intentId: `0x${'2'.repeat(64)}` }),
      client('user').getIntentReceipt({ intentId: `0x${'3'.repeat(64)}` }),
    ].map((p) => p.catch(() => 'answered'));
    await clock.advance(2_999);
    expect(service.sent).toHaveLength(1);
    await clock.advance(1);
    await Promise.all(next);
    // After the wait, the user first.
    expect(service.sent.slice(1).map((s) => [s.at - t0, s.op])).toEqual([
      [3_000, 'GetIntentReceipt'],
      [3_000, 'GetIntentReceipt'],
    ]);
  });

  it('the hold is kept in the tracker’s state: a restarted worker neither sends nor lets its budget send before it ends', async () => {
    const clock = new EventClock();
    const state = new MemoryStateStore();
    const store = new MemoryStore();
    const id = `0x${'4'.repeat(64)}`;
    const first = new Tracker({ store, stateStore: state, clock, notifier: new RecordingNotifier(), transport: async () => undefined });
    await first.track(id);
    // The worker's budget was told of a 429 to another request (Retry-After 60 s); the tracker keeps it.
    await first.holdOff(60_000);
    first.stop();
    // A new worker 10 s later: the first served none of the hold, so its tracker and its budget hold a whole minute
    // from their start (time while no worker ran is not counted as served: the wall clock cannot be trusted for it).
    await clock.advance(10_000);
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const transport = new ScriptedTransport();
    const t0 = clock.now();
    const second = new Tracker({
      store,
      stateStore: state,
      clock,
      notifier: new RecordingNotifier(),
      transport: async () => transport,
      onStateChange: (st) => {
        if (st.pausedUntil !== undefined) budget.holdOff(st.pausedUntil - clock.now());
      },
    });
    await second.resume();
    let lookUpAt: number | undefined;
    void budget.run('user', async () => {
      lookUpAt = clock.now() - t0;
    });
    await clock.advance(59_000);
    expect(transport.calls).toHaveLength(0);
    expect(lookUpAt).toBeUndefined();
    await clock.advance(2_000);
    expect(lookUpAt).toBe(60_000);
    expect(transport.calls.length).toBeGreaterThan(0);
    second.stop();
  });
});
