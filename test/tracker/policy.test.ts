import { describe, expect, it } from 'vitest';
import { SvcNetworkError, SvcServiceError } from '@/lib/api/errors';
import type { TrackedIntent } from '@/lib/store';
import {
  backoffDelay,
  byLongPollRank,
  errorMeaning,
  FLAP_MEMORY_STATES,
  isFinalStatus,
  isNews,
  lastHeardAt,
  longPollRank,
  NOTIFYING_STATUSES,
  notFoundDelay,
  rememberState,
  sameStates,
  stalenessBound,
} from '@/lib/tracker/policy';

const base: TrackedIntent = { intentId: 'a', addedAt: 100, lastStates: [], phase: 'tracking', notification: 'none' };
const service = (errorName: string, code: number, httpStatus: number) => new SvcServiceError('X', { errorName, code, msg: '', httpStatus });

describe('policy', () => {
  it('final statuses end tracking; others do not', () => {
    for (const s of ['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID']) expect(isFinalStatus(s), s).toBe(true);
    for (const s of ['QUOTED', 'COMMITTED', 'EXECUTING', 'TELEPORTING', undefined]) expect(isFinalStatus(s), String(s)).toBe(false);
  });

  it('SUCCEEDED, FAILED, REFUNDED and ABORTED notify; INVALID ends tracking without a notification', () => {
    expect([...NOTIFYING_STATUSES].sort()).toEqual(['ABORTED', 'FAILED', 'REFUNDED', 'SUCCEEDED']);
    expect(NOTIFYING_STATUSES).not.toContain('INVALID');
  });

  it('backoffDelay: full jitter under a doubling ceiling, at least 250 ms and Retry-After', () => {
    expect(backoffDelay(1, 1, 1_000, 60_000)).toBe(1_000);
    expect(backoffDelay(3, 1, 1_000, 60_000)).toBe(4_000);
    expect(backoffDelay(10, 1, 1_000, 60_000)).toBe(60_000);
    expect(backoffDelay(3, 0.5, 1_000, 60_000)).toBe(2_000);
    expect(backoffDelay(1, 0, 1_000, 60_000)).toBe(250);
    expect(backoffDelay(1, 1, 1_000, 60_000, 7_000)).toBe(7_000);
    expect(backoffDelay(20, 1, 1_000, 60_000)).toBe(60_000);
    expect(backoffDelay(1, 0, 1_000, 60_000, 5_000)).toBe(5_000);
  });

  it('notFoundDelay: 2 s growing by a quarter, at most 30 s, up to 20 % less with jitter', () => {
    expect(notFoundDelay(1, 1)).toBe(2_000);
    expect(notFoundDelay(2, 1)).toBe(2_500);
    expect(notFoundDelay(3, 1)).toBe(3_125);
    expect(notFoundDelay(1, 0)).toBe(1_600);
    expect(notFoundDelay(40, 1)).toBe(30_000);
    expect(notFoundDelay(40, 0)).toBe(24_000);
  });

  it('errorMeaning tells the key, the origin, the rate limit and NotFound apart from the rest', () => {
    expect(errorMeaning(service('AccessKeyNotFound', 1101, 401))).toBe('key-rejected');
    expect(errorMeaning(service('InvalidOrigin', 1103, 403))).toBe('origin-rejected');
    expect(errorMeaning(service('RateLimited', 1007, 429))).toBe('rate-limited');
    expect(errorMeaning(service('NotFound', 8000, 400))).toBe('not-found');
    expect(errorMeaning(service('WebrpcInternalError', -7, 500))).toBe('retry');
    expect(errorMeaning(new SvcNetworkError('X', 'http://x', 'reset'))).toBe('retry');
    expect(errorMeaning(new Error('other'))).toBe('retry');
  });

  it('long-poll rank: never asked, EXECUTING, not known yet, COMMITTED, others; most recently changed first', () => {
    const never = { ...base, intentId: 'never' };
    const executing = { ...base, intentId: 'exec', status: 'EXECUTING', lastCheckedAt: 1, receipt: { intentId: 'x', status: 'EXECUTING' } };
    const notKnown = { ...base, intentId: 'nf', retry: { attempt: 1, nextAt: 0 } };
    const committed = { ...base, intentId: 'com', status: 'COMMITTED', lastCheckedAt: 1, receipt: { intentId: 'x', status: 'COMMITTED' } };
    const other = { ...base, intentId: 'other', status: 'QUOTED', lastCheckedAt: 1, receipt: { intentId: 'x', status: 'QUOTED' } };
    expect([other, committed, notKnown, executing, never].sort(byLongPollRank).map((t) => t.intentId)).toEqual([
      'never',
      'exec',
      'nf',
      'com',
      'other',
    ]);
    expect(longPollRank({ ...executing, lastChangeAt: 500 })).toEqual([1, -500]);
    expect(longPollRank(executing)).toEqual([1, -100]);
    const older = { ...executing, intentId: 'old', lastChangeAt: 10 };
    const newer = { ...executing, intentId: 'new', lastChangeAt: 20 };
    expect([older, newer].sort(byLongPollRank).map((t) => t.intentId)).toEqual(['new', 'old']);
  });

  it('S(N) is max(60 s, N_cold × individualEveryMs)', () => {
    expect(stalenessBound(0, { individualEveryMs: 5_000 })).toBe(60_000);
    expect(stalenessBound(12, { individualEveryMs: 5_000 })).toBe(60_000);
    expect(stalenessBound(13, { individualEveryMs: 5_000 })).toBe(65_000);
    expect(stalenessBound(100, { individualEveryMs: 5_000 })).toBe(500_000);
  });

  it('lastHeardAt counts error answers but not a missing configuration', () => {
    expect(lastHeardAt(base)).toBe(0);
    expect(lastHeardAt({ ...base, lastCheckedAt: 50 })).toBe(50);
    expect(lastHeardAt({ ...base, lastCheckedAt: 50, lastError: { kind: 'not-found-yet', message: '', at: 80 } })).toBe(80);
    expect(lastHeardAt({ ...base, lastCheckedAt: 50, lastError: { kind: 'not-configured', message: '', at: 80 } })).toBe(50);
  });

  it('news is a first answer, another status, other leg states, or the end', () => {
    const known = { ...base, receipt: { intentId: 'x', status: 'EXECUTING' }, status: 'EXECUTING', lastStates: ['PENDING'] };
    expect(isNews(base, 'COMMITTED', undefined, false)).toBe(true);
    // A first receipt is news, whatever status the record held before it.
    expect(isNews({ ...base, status: 'COMMITTED' }, 'COMMITTED', undefined, false)).toBe(true);
    expect(isNews(known, 'EXECUTING', ['PENDING'], false)).toBe(false);
    expect(isNews(known, 'EXECUTING', undefined, false)).toBe(false);
    expect(isNews(known, 'EXECUTING', ['SUCCEEDED'], false)).toBe(true);
    expect(isNews(known, 'REFUNDED', ['PENDING'], false)).toBe(true);
    expect(isNews(known, 'EXECUTING', ['PENDING'], true)).toBe(true);
    // Known from single reads only (no leg states yet): the first long-poll's states are not a change.
    expect(isNews({ ...known, lastStates: [] }, 'EXECUTING', ['PENDING'], false)).toBe(false);
    expect(sameStates(['A', 'B'], ['A', 'B'])).toBe(true);
    expect(sameStates(['A'], ['A', 'B'])).toBe(false);
    expect(sameStates(['A', 'C'], ['A', 'B'])).toBe(false);
  });
});

describe('rememberState (flapping)', () => {
  it('a return to an earlier state is flapping, however long ago; the same state again or a new one is not', () => {
    let seen: string[] = [];
    const step = (key: string) => {
      const r = rememberState(seen, key);
      seen = r.seen;
      return r.returned;
    };
    expect([step('A'), step('A'), step('B'), step('A'), step('B'), step('C')]).toEqual([false, false, false, true, true, false]);
    expect(seen).toEqual(['A', 'B', 'C']);
  });

  it('remembers at most FLAP_MEMORY_STATES states', () => {
    let seen: string[] = [];
    for (let i = 0; i <= FLAP_MEMORY_STATES; i++) seen = rememberState(seen, `S${i}`).seen;
    expect(seen).toHaveLength(FLAP_MEMORY_STATES);
    expect(rememberState(seen, 'S0').returned).toBe(false);
    expect(rememberState(seen, 'S1').returned).toBe(true);
  });
});

describe('lastHeardAt', () => {
  it('an error answer counts as heard; an answer about another intent does not (the intent stays due)', () => {
    const base = { intentId: 'a', addedAt: 1, lastStates: [], phase: 'tracking', notification: 'none', lastCheckedAt: 10 } as TrackedIntent;
    expect(lastHeardAt({ ...base, lastError: { kind: 'network', message: '', at: 50 } })).toBe(50);
    expect(lastHeardAt({ ...base, lastError: { kind: 'foreign-receipt', message: '', at: 50 } })).toBe(10);
    expect(lastHeardAt({ ...base, lastError: { kind: 'not-configured', message: '', at: 50 } })).toBe(10);
  });
});
