/** The record transitions alone: each pure function, and the table of allowed phase changes they keep. */
import { describe, expect, it, vi } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import {
  ALLOWED,
  allowed,
  answered,
  baselineSet,
  expired,
  type Failure,
  failed,
  guarded,
  notConfigured,
  removable,
  retried,
  seen,
  stuckWarned,
  tracked,
} from '@/lib/tracker/transitions';
import { DEFAULT_TUNING } from '@/lib/tracker/types';
import { receipt, trackedRecord } from './fakes';

const ID = `0x${'1'.repeat(64)}`;
const NOW = 1_800_000_000_000;
/** This worker's life began an hour before NOW. */
const LIFE = NOW - 3_600_000;
const rec = (extra: Partial<TrackedIntent> = {}) => trackedRecord(ID, { addedAt: NOW - 1_000, ...extra });
const failure = (extra: Partial<Failure> = {}): Failure => ({
  notFound: false,
  kind: 'network',
  message: 'reset',
  retryAfterMs: 0,
  random: 0.5,
  ...extra,
});

describe('the phase table', () => {
  it('final is terminal but for removal; a stopped intent may be tracked again; nothing new but tracking', () => {
    expect(ALLOWED.final).toEqual(['final', 'removed']);
    expect(allowed('final', 'tracking')).toBe(false);
    expect(allowed('expired', 'tracking')).toBe(true);
    expect(allowed('not-found', 'final')).toBe(false);
    expect(allowed(undefined, 'tracking')).toBe(true);
    expect(allowed(undefined, 'final')).toBe(false);
  });

  it('a transition that breaks the table writes nothing and is logged', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(guarded(rec({ phase: 'final' }), rec({ phase: 'tracking' }))).toBeUndefined();
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});

describe('transitions', () => {
  it('tracked: a new record; a stopped one again; a tracking or final one left alone', () => {
    expect(tracked(undefined, ID, NOW, { source: 'watched' })).toEqual({
      intentId: ID,
      addedAt: NOW,
      lastStates: [],
      phase: 'tracking',
      notification: 'none',
      source: 'watched',
    });
    const again = tracked(rec({ phase: 'expired', lastError: { kind: 'expired', message: 'x', at: 1 } }), ID, NOW);
    expect(again).toMatchObject({ phase: 'tracking', addedAt: NOW });
    expect(again?.lastError).toBeUndefined();
    expect(tracked(rec(), ID, NOW)).toBeUndefined();
    expect(tracked(rec({ phase: 'final' }), ID, NOW)).toBeUndefined();
  });

  it('answered: a final status moves to final with its notification pending; INVALID is final without one', () => {
    const a = answered(rec({ status: 'EXECUTING', receipt: receipt(ID, 'EXECUTING') }), receipt(ID, 'SUCCEEDED'), ['SUCCEEDED'], NOW, 5);
    expect(a.news).toBe(true);
    expect(a.next).toMatchObject({ phase: 'final', notification: 'pending', status: 'SUCCEEDED', lastCheckedAt: NOW });
    expect(a.next?.nextCheckAt).toBeUndefined();
    const invalid = answered(rec(), receipt(ID, 'INVALID'), undefined, NOW, undefined);
    expect(invalid.next).toMatchObject({ phase: 'final', notification: 'none' });
  });

  it('answered: a non-final status keeps tracking, whatever else the answer said; an unchanged one is no news', () => {
    const t = rec({ status: 'EXECUTING', receipt: receipt(ID, 'EXECUTING'), lastStates: ['PENDING'], lastChangeAt: 7 });
    const a = answered(t, receipt(ID, 'EXECUTING'), ['PENDING'], NOW, NOW + 5_000);
    expect(a.news).toBe(false);
    expect(a.next).toMatchObject({ phase: 'tracking', nextCheckAt: NOW + 5_000, lastChangeAt: 7 });
    const b = answered(t, receipt(ID, 'EXECUTING'), ['SUCCEEDED'], NOW, undefined);
    expect(b.news).toBe(true);
    expect(b.next?.lastChangeAt).toBe(NOW);
  });

  it('answered: a status behind the believed one (COMMITTED after EXECUTING) is stale: counted as a check, nothing else changes', () => {
    const t = rec({ status: 'EXECUTING', receipt: receipt(ID, 'EXECUTING'), lastStates: ['PENDING'], lastCheckedAt: 1, lastChangeAt: 7 });
    const a = answered(t, receipt(ID, 'COMMITTED'), ['UNKNOWN'], NOW, NOW + 5_000);
    expect(a.news).toBe(false);
    expect(a.next).toMatchObject({ phase: 'tracking', status: 'EXECUTING', lastStates: ['PENDING'], lastCheckedAt: NOW, lastChangeAt: 7 });
    expect(a.next?.receipt?.status).toBe('EXECUTING');
    expect(expired(a.next, NOW)).toBeUndefined();
    // An unknown status is not ordered: it is believed as sent.
    expect(answered(t, receipt(ID, 'PAUSED'), ['PENDING'], NOW, undefined).next?.status).toBe('PAUSED');
  });

  it('answered: a final record stays final (a later answer is not written)', () => {
    const t = rec({ phase: 'final', status: 'FAILED', notification: 'shown' });
    expect(answered(t, receipt(ID, 'SUCCEEDED'), undefined, NOW, undefined)).toEqual({ next: undefined, news: false });
  });

  it('failed: NotFound is retried within the grace period, then not-found', () => {
    const soon = failed(rec(), failure({ notFound: true }), NOW, DEFAULT_TUNING, LIFE);
    expect(soon).toMatchObject({ phase: 'tracking', retry: { attempt: 1 }, lastError: { kind: 'not-found-yet' } });
    expect(soon!.retry!.nextAt).toBeGreaterThan(NOW);
    const late = failed(rec({ addedAt: NOW - DEFAULT_TUNING.notFoundGraceMs }), failure({ notFound: true }), NOW, DEFAULT_TUNING, LIFE);
    expect(late).toMatchObject({ phase: 'not-found', gaveUpAt: NOW, lastError: { kind: 'not-found' } });
  });

  it('failed: another error backs off, Retry-After honoured, with its typed kind', () => {
    const t = failed(
      rec({ retry: { attempt: 2, nextAt: 0 } }),
      failure({ kind: 'foreign-receipt', retryAfterMs: 9_000 }),
      NOW,
      DEFAULT_TUNING,
      LIFE,
    );
    expect(t).toMatchObject({ retry: { attempt: 3, nextAt: NOW + 9_000 }, lastError: { kind: 'foreign-receipt', at: NOW } });
    expect(failed(rec({ phase: 'final' }), failure(), NOW, DEFAULT_TUNING, LIFE)).toBeUndefined();
  });

  it('failed: the back-off counts failures of its own kind in a row, not the NotFound answers before them (nor the reverse)', () => {
    // 13 NotFound answers (an intent the service had not indexed yet), then one network error: the back-off of a first
    // failure, at most the base (1 s at random 1), not the 60 s cap the 14th failure in a row would reach.
    const afterNotFound = rec({ retry: { attempt: 13, nextAt: 0 }, lastError: { kind: 'not-found-yet', at: NOW - 1, message: '' } });
    const t = failed(afterNotFound, failure({ random: 1 }), NOW, DEFAULT_TUNING, LIFE);
    expect(t).toMatchObject({ retry: { attempt: 1, nextAt: NOW + DEFAULT_TUNING.backoffBaseMs }, lastError: { kind: 'network' } });
    // Five network errors, then NotFound: the grace's first, short delay (2 s ± 20 %), not the sixth's.
    const afterErrors = rec({ retry: { attempt: 5, nextAt: 0 }, lastError: { kind: 'network', at: NOW - 1, message: 'reset' } });
    const n = failed(afterErrors, failure({ notFound: true, random: 1 }), NOW, DEFAULT_TUNING, LIFE);
    expect(n).toMatchObject({ retry: { attempt: 1, nextAt: NOW + 2_000 }, lastError: { kind: 'not-found-yet' } });
  });

  it('expired: only a tracking COMMITTED intent', () => {
    expect(expired(rec({ status: 'COMMITTED' }), NOW)).toMatchObject({ phase: 'expired', lastError: { kind: 'expired', at: NOW } });
    expect(expired(rec({ status: 'EXECUTING' }), NOW)).toBeUndefined();
    expect(expired(rec({ status: 'COMMITTED', phase: 'final' }), NOW)).toBeUndefined();
  });

  it('stuckWarned, notConfigured, baselineSet, seen: once each', () => {
    expect(stuckWarned(rec(), NOW)?.stuckNotifiedAt).toBe(NOW);
    expect(stuckWarned(rec({ stuckNotifiedAt: 1 }), NOW)).toBeUndefined();
    expect(notConfigured(rec(), NOW)?.lastError?.kind).toBe('not-configured');
    expect(notConfigured(rec({ lastError: { kind: 'not-configured', message: '', at: 1 } }), NOW)).toBeUndefined();
    expect(baselineSet(rec(), { estimatedDuration: 60 })?.estimatedDuration).toBe(60);
    expect(baselineSet(rec({ routeDuration: 30 }), { estimatedDuration: 60 })).toBeUndefined();
    expect(seen(rec({ phase: 'final' }))?.seen).toBe(true);
    expect(seen(rec())).toBeUndefined();
  });

  it('retried: back-off cleared, a not-found intent given a new grace period; a final one untouched', () => {
    expect(retried(rec({ phase: 'not-found', retry: { attempt: 3, nextAt: 1 } }), NOW)).toMatchObject({
      phase: 'tracking',
      addedAt: NOW,
      resumedAt: NOW,
    });
    // Back from expired: owed a check within S(N) from now (the scheduler's order); one still tracking is not "resumed".
    expect(retried(rec({ phase: 'expired' }), NOW)).toMatchObject({ phase: 'tracking', resumedAt: NOW });
    expect(retried(rec({ phase: 'tracking' }), NOW)?.resumedAt).toBeUndefined();
    expect(retried(rec({ phase: 'final' }), NOW)).toBeUndefined();
    expect(removable(rec({ phase: 'final' }))).toBe(true);
    expect(removable(undefined)).toBe(false);
  });
});
