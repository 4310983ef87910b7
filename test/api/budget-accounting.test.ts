/**
 * The request budget's accounting (lib/api/budget.ts docstring): a Retry-After hold (ignored when not positive, a
 * shorter one changes nothing), a request not sent gives back its place in the window and its pace token, each lane
 * in the order asked, the background's places, and the wake-ups of a lane that waits behind another held one.
 */
import { describe, expect, it, vi } from 'vitest';
import { BACKGROUND_DUE_AFTER_MS, RequestBudget, TRACKER_BURST, TRACKER_PER_MINUTE } from '@/lib/api/budget';
import type { Lane } from '@/lib/api/budget-limits';
import { EventClock } from '../tracker/fakes';

/** Runs requests on `budget` that stay in flight until released; records when each started (ms from `t0`). */
function recorder(clock: EventClock, budget: RequestBudget) {
  const t0 = clock.monotonic();
  const started = new Map<string, number>();
  const releases = new Map<string, () => void>();
  const ask = (name: string, lane: Lane, scope?: string) =>
    budget.run(
      lane,
      () =>
        new Promise<void>((resolve) => {
          started.set(name, clock.monotonic() - t0);
          releases.set(name, resolve);
        }),
      scope === undefined ? {} : { scope },
    );
  /** Asks and answers at once (a request that takes no time). */
  const done = async (name: string, lane: Lane) => {
    const p = ask(name, lane);
    await clock.advance(0);
    releases.get(name)?.();
    await p;
  };
  const release = async (name: string) => {
    releases.get(name)!();
    await clock.advance(0);
  };
  return { ask, done, release, started };
}

describe('holdOff', () => {
  it('ignores a Retry-After that is zero, negative or not a number', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const told = vi.fn();
    budget.onHoldOff = told;
    for (const ms of [0, -1_000, Number.NaN]) budget.holdOff(ms, 'svc');
    expect(told).not.toHaveBeenCalled();
    const r = recorder(clock, budget);
    void r.ask('u', 'user', 'svc');
    await clock.advance(0);
    expect(r.started.get('u')).toBe(0);
  });

  it('a hold as long or shorter than the one in force changes nothing: the request waits for the longer', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const told = vi.fn();
    budget.onHoldOff = told;
    budget.holdOff(10_000, 'svc');
    budget.holdOff(10_000, 'svc');
    budget.holdOff(5_000, 'svc');
    expect(told.mock.calls).toEqual([[10_000, 'svc']]);
    const r = recorder(clock, budget);
    void r.ask('u', 'user', 'svc');
    await clock.advance(9_999);
    expect(r.started.has('u')).toBe(false);
    await clock.advance(1);
    expect(r.started.get('u')).toBe(10_000);
  });

  it('a kept hold (handed back from where it was kept) is held but not told back', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const told = vi.fn();
    budget.onHoldOff = told;
    budget.holdOff(3_000, 'svc', { kept: true });
    expect(told).not.toHaveBeenCalled();
    const r = recorder(clock, budget);
    void r.ask('u', 'user', 'svc');
    await clock.advance(2_999);
    expect(r.started.has('u')).toBe(false);
    await clock.advance(1);
    expect(r.started.get('u')).toBe(3_000);
    // A new 429's hold is told as before.
    budget.holdOff(4_000, 'svc');
    expect(told.mock.calls).toEqual([[4_000, 'svc']]);
  });

  // Found by the world's slowDisk family (seed 20261227 run 115): a GetIntent given its place, its `stillWanted` reading
  // IndexedDB for 5 ms, went out 5 ms after a 429 to another request had been read and held the budget.
  it('a request whose stillWanted is still being read when a 429 comes waits for the hold, then goes first', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const t0 = clock.monotonic();
    const sentAt: Record<string, number> = {};
    let answerWanted: (yes: boolean) => void = () => {};
    const wanted = new Promise<boolean>((r) => {
      answerWanted = r;
    });
    const a = budget.run(
      'background',
      async () => {
        sentAt.a = clock.monotonic() - t0;
      },
      { scope: 'svc', stillWanted: () => wanted },
    );
    await clock.advance(0);
    budget.holdOff(2_000, 'svc');
    answerWanted(true);
    await clock.advance(1_999);
    expect(sentAt.a).toBeUndefined();
    const b = budget.run(
      'background',
      async () => {
        sentAt.b = clock.monotonic() - t0;
      },
      { scope: 'svc' },
    );
    await clock.advance(1);
    await Promise.all([a, b]);
    expect(sentAt.a).toBe(2_000);
    expect(sentAt.b).toBeGreaterThanOrEqual(sentAt.a!);
    expect(budget.inFlight).toBe(0);
  });
});

describe('a request not sent is not counted', () => {
  it('gives its pace token back: the background waits for the pace as if it had never been asked', async () => {
    const clock = new EventClock();
    // One token a second, two held at most.
    const budget = new RequestBudget({ clock, perMinute: 60, burst: 2 });
    const r = recorder(clock, budget);
    await r.done('u1', 'user'); // 2 → 1 token
    await expect(budget.run('user', async () => {}, { stillWanted: () => false })).rejects.toThrow();
    await r.done('b1', 'background'); // due: the lane sent nothing yet; 1 → 0 token
    void r.ask('b2', 'background');
    await clock.advance(999);
    expect(r.started.has('b2')).toBe(false);
    await clock.advance(1);
    // One token back after 1 s at 60 a minute.
    expect(r.started.get('b2')).toBe(1_000);
  });

  it('gives its place in the 60 s window back', async () => {
    const clock = new EventClock();
    // The user's requests use at most perMinute - 1 = 2 places of any window.
    const budget = new RequestBudget({ clock, perMinute: 3, burst: 3 });
    const r = recorder(clock, budget);
    await r.done('u1', 'user');
    await expect(budget.run('user', async () => {}, { stillWanted: () => false })).rejects.toThrow();
    void r.ask('u2', 'user');
    await clock.advance(0);
    expect(r.started.get('u2')).toBe(0);
  });
});

describe('order and places', () => {
  it('each lane goes in the order asked', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, maxInFlight: 1, perMinute: 60_000 });
    const r = recorder(clock, budget);
    for (const name of ['u1', 'u2', 'u3', 'u4', 'u5']) void r.ask(name, 'user');
    await clock.advance(0);
    expect([...r.started.keys()]).toEqual(['u1', 'u2']);
    await r.release('u1');
    await r.release('u2');
    expect([...r.started.keys()]).toEqual(['u1', 'u2', 'u3', 'u4']);
  });

  it('one background request in flight at most, even when the next is due; the other lanes do not free its place', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000, maxBackground: 1 });
    const r = recorder(clock, budget);
    void r.ask('b1', 'background');
    void r.ask('b2', 'background');
    await clock.advance(2 * BACKGROUND_DUE_AFTER_MS);
    expect(r.started.has('b2')).toBe(false);
    await r.done('u1', 'user');
    await r.done('t1', 'tracker');
    expect(r.started.has('b2')).toBe(false);
    await r.release('b1');
    expect(r.started.has('b2')).toBe(true);
  });
});

describe('a lane waiting behind a held one is woken on time', () => {
  it('the tracker’s request goes when its pace has a token, while a background request waits for a hold', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock, perMinute: 60_000 });
    const r = recorder(clock, budget);
    for (let i = 0; i < TRACKER_BURST; i++) await r.done(`t${i}`, 'tracker');
    budget.holdOff(60_000, 'other');
    void r.ask('b', 'background', 'other');
    void r.ask('t', 'tracker');
    const tokenMs = 60_000 / TRACKER_PER_MINUTE;
    await clock.advance(Math.floor(tokenMs) - 1);
    expect(r.started.has('t')).toBe(false);
    await clock.advance(2);
    expect(r.started.has('t')).toBe(true);
    expect(r.started.has('b')).toBe(false);
  });

  it('a background request goes when its pace has a token, while a tracker’s request waits for a hold', async () => {
    const clock = new EventClock();
    // One token a second, two held at most.
    const budget = new RequestBudget({ clock, perMinute: 60, burst: 2 });
    const r = recorder(clock, budget);
    await r.done('b0', 'background'); // 2 → 1
    await r.done('u1', 'user'); // 1 → 0
    await r.done('u2', 'user'); // 0 → -1
    budget.holdOff(60_000, 'other');
    void r.ask('t', 'tracker', 'other');
    void r.ask('b1', 'background');
    await clock.advance(1_999);
    expect(r.started.has('b1')).toBe(false);
    // Two tokens to win back at one a second: before the lane's 10 s.
    await clock.advance(1);
    expect(r.started.get('b1')).toBe(2_000);
    expect(r.started.has('t')).toBe(false);
  });
});
