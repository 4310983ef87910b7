/**
 * The worker's one request budget (lib/api/budget.ts) and the HTTP calls through it (lib/api/http.ts), on virtual
 * time: at most 4 in flight and one more place for the user's own, the user first in line, background work paced by
 * the rate, a request aborted or no longer wanted while it waits never sent, and a call's time-out counted from when
 * it is sent.
 */
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '@/lib/api/budget';
import { SvcClient } from '@/lib/api/client';
import { EventClock } from '../tracker/fakes';

/** A fetch that records when each request reaches the "service", and answers when the test says so. */
function fakeFetch(clock: EventClock) {
  const sent: Array<{ at: number; op: string; answer: () => void }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetch: typeof globalThis.fetch = (input, init) => {
    const op = String(input).split('/').pop()!;
    // As the platform's fetch: a signal aborted already rejects at once, and nothing reaches the service.
    if (init?.signal?.aborted) return Promise.reject(init.signal.reason);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return new Promise<Response>((resolve, reject) => {
      const done = () => {
        inFlight--;
      };
      init?.signal?.addEventListener('abort', () => {
        done();
        reject(init.signal?.reason);
      });
      sent.push({
        at: clock.now(),
        op,
        answer: () => {
          done();
          resolve(new Response('{"error":"NotFound","code":8000,"msg":"no","status":400}', { status: 400 }));
        },
      });
    });
  };
  return { fetch, sent, maxInFlight: () => maxInFlight };
}

describe('RequestBudget', () => {
  it('lets at most 4 in flight, one more place the user’s, and gives the next free place to the user first, then background, then the tracker', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const release = async (name: string) => {
      releases.get(name)!();
      await clock.advance(0);
    };
    const job = (name: string) => () =>
      new Promise<void>((resolve) => {
        order.push(name);
        releases.set(name, resolve);
      });
    const all = [
      ...['t1', 't2', 't3', 't4'].map((n) => budget.run('tracker', job(n))),
      budget.run('user', job('u0')),
      budget.run('background', job('b1')),
      budget.run('tracker', job('t5')),
      budget.run('user', job('u1')),
    ];
    await clock.advance(0);
    // The fifth place is the user's own; the others wait for one of the 4.
    expect(order).toEqual(['t1', 't2', 't3', 't4', 'u0']);
    expect(budget.inFlight).toBe(5);
    await release('t1');
    expect(order.at(-1)).toBe('u1');
    // Four in flight, two of them the user's: the tracker and the background wait for fewer than 4.
    await release('u0');
    expect(order).toHaveLength(6);
    // The background request is due (its lane sent nothing yet): it goes before the tracker's.
    await release('t2');
    expect(order.at(-1)).toBe('b1');
    await release('t3');
    expect(order.at(-1)).toBe('t5');
    expect(budget.inFlight).toBe(4);
    for (const name of ['t4', 'u1', 'b1', 't5']) releases.get(name)!();
    await Promise.all(all);
  });

  it('paces background requests at the worker’s rate, whatever the tracker and the user spend', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60, burst: 2 });
    const starts: number[] = [];
    const t0 = clock.now();
    const runs = Array.from({ length: 10 }, () =>
      budget.run('background', async () => {
        starts.push(clock.now() - t0);
      }),
    );
    await clock.advance(30_000);
    await Promise.all(runs);
    // Two at once (the burst), then one a second.
    expect(starts.slice(0, 3)).toEqual([0, 0, 1_000]);
    expect(starts).toHaveLength(10);
    // The tracker spends 5 tokens at once, 22 s after the lane's last request: a background request is due at once
    // (the lane sent nothing for 10 s), whatever the debt.
    const tracker = Array.from({ length: 5 }, () => budget.run('tracker', async () => {}));
    await Promise.all(tracker);
    const at = clock.now();
    const times: number[] = [];
    const late = [1, 2].map(() =>
      budget.run('background', async () => {
        times.push(clock.now() - at);
      }),
    );
    await clock.advance(20_000);
    await Promise.all(late);
    // The second waits for the pace: 2 tokens held, 5 + 1 spent, a debt of 4; one token needed: 5 s at one a second
    // (before the lane's 10 s).
    expect(times).toEqual([0, 5_000]);
  });

  it('does not send a request aborted, or no longer wanted, while it waits for its place', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, maxInFlight: 1, perMinute: 60_000 });
    let release!: () => void;
    const first = budget.run('tracker', () => new Promise<void>((r) => (release = r)));
    const aborted = new AbortController();
    let sent = 0;
    const a = budget.run('tracker', async () => void sent++, { signal: aborted.signal }).catch((e: unknown) => e);
    const b = budget.run('tracker', async () => void sent++, { stillWanted: () => false }).catch((e: unknown) => (e as Error).name);
    await clock.advance(0);
    aborted.abort();
    expect(budget.waiting).toBe(1);
    release();
    await first;
    expect(await b).toBe('NotWantedError');
    expect(await a).toBeInstanceOf(DOMException);
    expect(sent).toBe(0);
    expect(budget.inFlight).toBe(0);
  });
});

describe('SvcHttp through the budget', () => {
  it('starts a call’s time-out when it is sent, not while it waits for a place', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const service = fakeFetch(clock);
    const client = new SvcClient({ baseUrl: 'https://svc.example', accessKey: 'k', fetch: service.fetch, budget, lane: 'tracker' });
    // Four long-polls and a look-up of the user's the server holds (virtual), and a look-up with a 300 ms time-out
    // (real timers: short), which waits behind the user's own for a place.
    const waits = Array.from({ length: 4 }, () => client.getIntentReceipt({ intentId: `0x${'1'.repeat(64)}` }).catch(() => 'done'));
    const held = client.getIntentReceipt({ intentId: `0x${'3'.repeat(64)}` }, { lane: 'user' }).catch(() => 'done');
    const lookUp = client.getIntentReceipt({ intentId: `0x${'2'.repeat(64)}` }, { timeoutMs: 300, lane: 'user' }).then(
      () => 'answered',
      (err: { kind?: string; code?: number }) => err.kind ?? 'other',
    );
    await clock.advance(0);
    expect(service.sent).toHaveLength(5);
    // The look-up waits longer than its own time-out for a place, then is sent and answered in time.
    await new Promise((r) => setTimeout(r, 500));
    expect(service.sent).toHaveLength(5);
    service.sent[0]!.answer();
    await clock.advance(0);
    await new Promise((r) => setTimeout(r, 20));
    expect(service.sent).toHaveLength(6);
    service.sent[5]!.answer();
    expect(await lookUp).toBe('service');
    for (const s of service.sent.slice(1, 5)) s.answer();
    await Promise.all([...waits, held]);
    expect(service.maxInFlight()).toBe(5);
  });
});

describe('a gate: nothing is sent before a restarted worker has its kept hold back', () => {
  it('every lane waits until the gate settles, then the hold given meanwhile applies', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock });
    const sent: Array<{ lane: string; at: number }> = [];
    let restore!: () => void;
    budget.gate(new Promise<void>((resolve) => (restore = resolve)));
    const lanes = ['background', 'tracker', 'user'] as const;
    const runs = lanes.map((lane) => budget.run(lane, async () => void sent.push({ lane, at: clock.now() }), { scope: 's' }));
    await clock.advance(5_000);
    expect(sent).toEqual([]);
    // The previous worker's 429 left 60 s of hold: restored before the gate opens.
    budget.holdOff(60_000, 's');
    restore();
    await clock.advance(59_000);
    expect(sent).toEqual([]);
    await clock.advance(2_000);
    await Promise.all(runs);
    expect(sent.map((s) => s.lane).sort()).toEqual(['background', 'tracker', 'user']);
    expect(Math.min(...sent.map((s) => s.at))).toBeGreaterThanOrEqual(65_000);
  });

  it('a gate that rejects (the state could not be read) opens too', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock });
    budget.gate(Promise.reject(new Error('refused')));
    let sent = false;
    await budget.run('user', async () => {
      sent = true;
    });
    expect(sent).toBe(true);
  });
});
