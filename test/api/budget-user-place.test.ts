/**
 * The place kept for the user's own look-ups (lib/api/budget-limits.ts `USER_PLACES`; docs/tracking.md I5, the user
 * first): with all 4 places held by the tracker's and the background's requests that the service does not answer
 * (long-polls held, a GetIntent that never answers until its time-out), a look-up is still sent at once. Seed 20261207
 * run 4523 of the world campaign: three long-polls and an ETA GetIntent, none answered, kept a History look-up
 * waiting 3.8 s (L1: 2 s).
 */
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '@/lib/api/budget';
import { SvcClient } from '@/lib/api/client';
import { EventClock } from '../tracker/fakes';

/** A job that records its start and ends when the test says so. */
function jobs() {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const job = (name: string) => () =>
    new Promise<void>((resolve) => {
      started.push(name);
      ends.set(name, resolve);
    });
  return { started, job, end: (name: string) => ends.get(name)!() };
}

describe('the user’s own place in the request budget', () => {
  it('sends a look-up at once while the tracker and the background hold all 4 places, and nothing else in that place', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const { started, job, end } = jobs();
    const held = [
      budget.run('tracker', job('wait1')),
      budget.run('tracker', job('wait2')),
      budget.run('tracker', job('wait3')),
      budget.run('background', job('intent')),
    ];
    await clock.advance(0);
    expect(started).toEqual(['wait1', 'wait2', 'wait3', 'intent']);
    // The tracker's next request and a background one wait for a place of theirs; the look-up does not.
    const more = [budget.run('tracker', job('read')), budget.run('background', job('watched'))];
    const lookUp = budget.run('user', job('history'));
    await clock.advance(0);
    expect(started).toEqual(['wait1', 'wait2', 'wait3', 'intent', 'history']);
    expect(budget.inFlight).toBe(5);
    // A second look-up waits only behind the user's own: the first one's end lets it go, not the tracker's read.
    const second = budget.run('user', job('search'));
    await clock.advance(0);
    expect(started.at(-1)).toBe('history');
    end('history');
    await lookUp;
    await clock.advance(0);
    expect(started.at(-1)).toBe('search');
    // The place a look-up frees is not the tracker's: with 4 others in flight nothing else starts.
    end('search');
    await second;
    await clock.advance(0);
    expect(started).toHaveLength(6);
    expect(budget.inFlight).toBe(4);
    // One of theirs ends: one of theirs waiting goes in its place, never a fifth of theirs.
    end('wait1');
    await clock.advance(0);
    expect(started).toHaveLength(7);
    expect(budget.inFlight).toBe(4);
    for (const n of ['wait2', 'wait3', 'intent', started.at(-1)!]) end(n);
    await clock.advance(1_000);
    expect(started).toHaveLength(8);
    end(started.at(-1)!);
    await Promise.all([...held, ...more]);
  });

  it('through SvcHttp: 4 long-polls the server holds, the user’s GetIntentHistory sent and answered at once', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const pending: Array<() => void> = [];
    const ops: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      const op = String(input).split('/').pop()!;
      ops.push(op);
      const answer = () => new Response('{"intents":[],"page":{}}', { status: 200 });
      if (op === 'GetIntentHistory') return Promise.resolve(answer());
      return new Promise<Response>((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        pending.push(() => resolve(new Response('{"error":"NotFound","code":8000,"msg":"no","status":400}', { status: 400 })));
      });
    };
    const client = (lane: 'user' | 'tracker') => new SvcClient({ baseUrl: 'https://svc.example', accessKey: 'k', fetch, budget, lane });
    const id = `0x${'1'.repeat(64)}`;
    const waits = Array.from({ length: 4 }, () =>
      client('tracker')
        .waitIntentReceipt({ intentId: id, lastReceiptStates: [] })
        .catch(() => 'done'),
    );
    await clock.advance(0);
    expect(ops).toHaveLength(4);
    const history = await client('user').getIntentHistory({ byOwnerAddress: `0x${'e'.repeat(40)}`, page: { pageSize: 20 } });
    expect(history.intents).toEqual([]);
    expect(ops.at(-1)).toBe('GetIntentHistory');
    for (const p of pending) p();
    await Promise.all(waits);
  }, 2_000);
});
