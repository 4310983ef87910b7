/**
 * Hostile cases for L1's matching of look-ups to user requests (test/world/lookups.ts `checkLookups`), found against
 * the greedy matchings it had before it tried every way. Hand-made runs as ./lookups.test.ts makes them.
 *
 * The matching assumes the worker sends each look-up at most once; "held" below pins that (lib/worker/message-handlers.ts
 * `lookup` calls the client once, lib/api/http.ts `callWithText` sends at most once, and nothing retries), so every user
 * request is some look-up's own.
 *
 * Each case was a hole of a greedy matching (5cd5e82 or before). L1 cannot know which request is whose (the bodies are
 * the same), so "correct" means: pass if and only if some way of giving each request to one look-up explains the run
 * under L1's rules (one never sent is excused by a death only if it got no reply; one answered without a request only
 * by an IndexedDB refusal; every user request is someone's) — which L1 now checks by trying every way.
 */
import { describe, expect, it, vi } from 'vitest';
import { SvcReadClient } from '@/lib/api/read-client';
import { type MessageHandlerDeps, serviceHandlers } from '@/lib/worker/message-handlers';
import { LOOKED_UP } from './lookups';
import { END, lookupRun as run, run44040, lookupVerdict as verdict } from './lookups-runs';

/** Seed 20261227 run 44040 (./lookups-runs.ts; the last describe of ./lookups.test.ts). */
const { asked, hold, trio, user, tracker } = run44040;
const notSent = /^L1 a look-up asked at .* not sent within/;

describe('L1 matching: attacks it withstands', () => {
  it('sends each look-up at most once: no retry on a network error, a 500, a 429 or a bad body', async () => {
    const answers: Array<() => Response> = [
      () => {
        throw new TypeError('fetch failed');
      },
      () => Response.json({ error: 'WebrpcInternalError', code: -7, msg: 'x' }, { status: 500 }),
      () => Response.json({ error: 'RateLimited', code: 1007, msg: 'x' }, { status: 429, headers: { 'retry-after': '0' } }),
      () => new Response('{', { status: 200 }),
    ];
    for (const answer of answers) {
      const fetch = vi.fn(async () => answer());
      const client = new SvcReadClient({ baseUrl: 'https://svc.example', accessKey: 'k', fetch });
      const deps = { clients: { current: async () => client } } as unknown as MessageHandlerDeps;
      const request = { byOwnerAddress: LOOKED_UP, page: { pageSize: 20 } };
      const reply = await serviceHandlers(deps).lookup({ type: 'lookup', operation: 'getIntentHistory', request });
      expect(reply).toMatchObject({ ok: false });
      expect(fetch).toHaveBeenCalledTimes(1);
    }
  });

  it("does not hide a tracker's request by moving look-ups along: whichever way, one is sent after it", () => {
    // Run 44040 with a tracker request at +250 ms, before the third look-up's. The first look-up can only have the
    // request at +100 (answered then), so the others have +200 and +300, and one of them is sent after the tracker's.
    const { violations } = verdict(run({ windows: [hold], log: [user(100), user(200), tracker(250), user(300)] }), trio());
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(/^L1 a tracker wait went 50 ms before the look-up/);
  });

  it('does not hide a look-up sent late behind a chain: a request no wait holds is no look-up’s', () => {
    // Run 44040 with the third look-up sent at +2,300 ms (owed at +2,200): nobody can move onto it.
    const obs = trio();
    obs[2]!.repliedAt = asked + 2_400;
    const { violations } = verdict(run({ windows: [hold], log: [user(100), user(200), user(2_300)] }), obs);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(notSent);
  });
});

describe('L1 matching: correct workers it once failed (now every way is tried)', () => {
  it('passes a look-up lost with a dying worker beside run 44040 (5cd5e82 and before failed it)', () => {
    // Run 44040, after a look-up asked at -1 s and lost when its worker died at -900 ms (the first of the three woke
    // the next one at 0). A greedy matching gave the lost one (its wait reaches +2,100 ms) the free request at +300,
    // so the path first → +100 → second → +200 → third → +300 ended at it and the first look-up went without.
    // Correct: pass (the three have their own requests, the lost one is excused by the death), as 5cd5e82 says ("never
    // that one goes without while each could have its own"). L1 now tries every way and keeps the best.
    const ctx = run({
      windows: [hold],
      deaths: [{ at: asked - 900, kind: 'kill', restartAt: asked }],
      log: [user(100), user(200), user(300)],
    });
    const { violations } = verdict(ctx, [{ at: asked - 1_000, replied: false }, ...trio()]);
    expect(violations).toEqual([]);
  });

  it('passes a look-up answered without a request under a refusal, a tracker request before it (5cd5e82 failed it)', () => {
    // A (0) is answered at +1,300 without a request, IndexedDB refusing from +200 to +600 (excused). The tracker sent at
    // +100 while A read its settings. B (+400) is sent at +1,000, C (+800) at +2,500, in order. 5cd5e82 matched C (no
    // window near its wait) first to +1,000, then gave A +1,000 by an augmenting path (C moved to +2,500), and the
    // tracker's +100 was "before" A. Correct: pass (A unsent under the refusal, B +1,000, C +2,500: no rule broken).
    // The old matching passed it (A and B both left unsent, excused by the refusal).
    const ctx = run({
      windows: [{ from: asked + 200, to: asked + 600, why: 'idb refusal' }],
      log: [tracker(100), user(1_000), user(2_500)],
    });
    const { violations } = verdict(ctx, [
      { at: asked, replied: true, repliedAt: asked + 1_300 },
      { at: asked + 400, replied: true, repliedAt: asked + 1_200 },
      { at: asked + 800, replied: true, repliedAt: asked + 2_600 },
    ]);
    expect(violations).toEqual([]);
  });
});

describe('L1 matching: defects it once hid', () => {
  it('fails run 44040 and a fourth look-up answered without any request, a death later in its wait (5cd5e82 passed it)', () => {
    // X (+400) is answered at +450 with no request and no IndexedDB refusal anywhere: a worker defect (four look-ups
    // answered, three requests). 5cd5e82 gave the three their requests and left X, which a death at +2,350 (inside
    // X's 2 s, outside the others') excused; a death excuses only a look-up that got no answer. Correct: fail, X not sent.
    const ctx = run({
      windows: [hold],
      deaths: [{ at: asked + 2_350, kind: 'kill', restartAt: asked + 2_400 }],
      log: [user(100), user(200), user(300)],
    });
    const { violations } = verdict(ctx, [...trio(), { at: asked + 400, replied: true, repliedAt: asked + 450 }]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(new RegExp(`^L1 a look-up asked at ${asked + 400 - END} ms \\(before the end\\) not sent within`));
  });

  it('fails a look-up answered at once without a request, a death 1.5 s later (excused before)', () => {
    // The root of the case above, one look-up alone. Correct: fail (only a refusal answers without a request).
    const ctx = run({ deaths: [{ at: asked + 1_500, kind: 'kill', restartAt: asked + 1_600 }] });
    const { violations } = verdict(ctx, [{ at: asked, replied: true, repliedAt: asked + 50 }]);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatch(notSent);
  });

  it('fails a look-up sent late whose request no wait reaches, another excused by a refusal (passed before)', () => {
    // A (0, IndexedDB refusing 0–200 ms) is sent at +500 and answered at +600. B (+300) is sent at +2,800, 500 ms after
    // it was owed. The greedy matchings gave B A's request (+500, in B's wait), excused A as "answered without a
    // request" under the refusal, and left +2,800 to nobody. Correct: fail — +2,800 is someone's (each look-up is sent once, nothing else
    // is in the user lane) and only B's wait, late, reaches it (A was answered at +600).
    const ctx = run({ windows: [{ from: asked, to: asked + 200, why: 'idb refusal' }], log: [user(500), user(2_800)] });
    const { violations } = verdict(ctx, [
      { at: asked, replied: true, repliedAt: asked + 600 },
      { at: asked + 300, replied: true, repliedAt: asked + 2_900 },
    ]);
    expect(violations).toEqual([`L1 a look-up sent at ${asked + 2_800 - END} ms (before the end) outside the wait of every look-up`]);
  });
});
