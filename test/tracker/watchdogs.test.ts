import { describe, expect, it } from 'vitest';
import type { TrackedIntent } from '@/lib/store';
import { watch } from '@/lib/tracker/watchdogs';

const T = Date.parse('2026-11-22T10:00:00.000Z');
const tuning = { commitWindowMs: 11 * 60_000, stuckAfterMs: 15 * 60_000, freshForMs: 29_000 };
const intent = (status: string, extra: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId: 'a',
  addedAt: T,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  status,
  receipt: { intentId: 'x', status, createdAt: new Date(T).toISOString() },
  ...extra,
});

describe('watchdogs', () => {
  it('expiry: COMMITTED past the window expires on a fresh answer, asks first on an old one, waits before', () => {
    const past = T + 11 * 60_000 + 1;
    expect(watch(intent('COMMITTED', { lastCheckedAt: past - 28_999 }), past, tuning, true)).toEqual({ action: 'expire' });
    expect(watch(intent('COMMITTED', { lastCheckedAt: past - 29_000 }), past, tuning, true)).toEqual({ action: 'verify' });
    expect(watch(intent('COMMITTED'), past, tuning, true)).toEqual({ action: 'verify' });
    expect(watch(intent('COMMITTED', { lastCheckedAt: T }), T + 11 * 60_000, tuning, true)).toEqual({
      action: 'none',
      wakeAt: T + 11 * 60_000 + 1,
    });
    expect(watch(intent('COMMITTED', { receipt: { intentId: 'x', status: 'COMMITTED' } }), past, tuning, true)).toEqual({ action: 'none' });
    expect(watch(intent('EXECUTING', { lastCheckedAt: past }), past, tuning, false)).toEqual({ action: 'none' });
  });

  it('stuck: EXECUTING past max(15 min, 2 × estimate) warns once on a fresh answer', () => {
    const started = {
      intentId: 'a',
      status: 'EXECUTING',
      createdAt: new Date(T - 60_000).toISOString(),
      summary: { startedAt: new Date(T).toISOString() },
    };
    const at = T + 15 * 60_000 + 60_000;
    expect(watch(intent('EXECUTING', { receipt: started, lastCheckedAt: at - 1_000 }), at, tuning, true)).toEqual({
      action: 'stuck',
      minutes: 16,
    });
    expect(watch(intent('EXECUTING', { receipt: started, lastCheckedAt: at - 40_000 }), at, tuning, true)).toEqual({ action: 'verify' });
    expect(watch(intent('EXECUTING', { receipt: started, lastCheckedAt: at, stuckNotifiedAt: at }), at, tuning, true)).toEqual({
      action: 'none',
    });
    expect(watch(intent('EXECUTING', { receipt: started, lastCheckedAt: at }), at, tuning, false)).toEqual({ action: 'none' });
    // A 10-minute estimate: the limit is 20 minutes.
    expect(watch(intent('EXECUTING', { receipt: started, lastCheckedAt: at, estimatedDuration: 600 }), at, tuning, true)).toEqual({
      action: 'none',
      wakeAt: T + 20 * 60_000 + 1,
    });
    // No quote estimate: the route's typical duration (lib/eta's baseline) sets it, 2 × 12 minutes.
    expect(watch(intent('EXECUTING', { receipt: started, lastCheckedAt: at, routeDuration: 720 }), at, tuning, true)).toEqual({
      action: 'none',
      wakeAt: T + 24 * 60_000 + 1,
    });
    // The quote's estimate wins over the route's.
    expect(
      watch(intent('EXECUTING', { receipt: started, lastCheckedAt: at, estimatedDuration: 300, routeDuration: 720 }), at, tuning, true),
    ).toEqual({ action: 'stuck', minutes: 16 });
    // No startedAt: from the creation time.
    const created = { intentId: 'a', status: 'EXECUTING', createdAt: new Date(T).toISOString() };
    expect(watch(intent('EXECUTING', { receipt: created, lastCheckedAt: T }), T, tuning, true)).toEqual({
      action: 'none',
      wakeAt: T + 15 * 60_000 + 1,
    });
    expect(watch(intent('EXECUTING', { receipt: { intentId: 'x', status: 'EXECUTING' }, lastCheckedAt: at }), at, tuning, true)).toEqual({
      action: 'none',
    });
  });

  it('stuck: EXECUTING for exactly the limit is not longer than it; a millisecond more is', () => {
    const at = T + 15 * 60_000;
    expect(watch(intent('EXECUTING', { lastCheckedAt: at }), at, tuning, true)).toEqual({ action: 'none', wakeAt: at + 1 });
    expect(watch(intent('EXECUTING', { lastCheckedAt: at }), at + 1, tuning, true)).toEqual({ action: 'stuck', minutes: 15 });
  });

  it('only EXECUTING can be stuck and only COMMITTED expire; a record without a receipt waits for one', () => {
    const late = T + 60 * 60_000;
    for (const status of ['QUOTED', 'TELEPORTING']) {
      expect(watch(intent(status, { lastCheckedAt: late }), late, tuning, true), status).toEqual({ action: 'none' });
    }
    for (const status of ['COMMITTED', 'EXECUTING']) {
      expect(watch(intent(status, { receipt: undefined, lastCheckedAt: late }), late, tuning, true), status).toEqual({ action: 'none' });
    }
  });

  it('service time: the receipt is compared with the service clock, freshness with the local one, wakeAt made local', () => {
    // The user's clock is 10 min fast: local now = service now + 10 min.
    const skew = 10 * 60_000;
    const serviceNow = T + 5 * 60_000;
    const local = serviceNow + skew;
    expect(watch(intent('COMMITTED', { lastCheckedAt: local - 1_000 }), local, tuning, true, serviceNow)).toEqual({
      action: 'none',
      wakeAt: T + 11 * 60_000 + skew + 1,
    });
    const late = T + 11 * 60_000 + 1;
    expect(watch(intent('COMMITTED', { lastCheckedAt: late - skew - 1_000 }), late - skew, tuning, true, late)).toEqual({
      action: 'expire',
    });
    // 10 min slow: the stuck warning comes on the service's 15 min, not the user's.
    const executing = intent('EXECUTING', { receipt: { intentId: 'x', status: 'EXECUTING', createdAt: new Date(T).toISOString() } });
    const at = T + 16 * 60_000;
    expect(watch({ ...executing, lastCheckedAt: at - skew }, at - skew, tuning, true, at)).toEqual({ action: 'stuck', minutes: 16 });
    // 10 min fast, one minute into EXECUTING: the warning is due at the service's T + 15 min, the user's T + 25 min.
    expect(watch({ ...executing, lastCheckedAt: T + 11 * 60_000 }, T + 11 * 60_000, tuning, true, T + 60_000)).toEqual({
      action: 'none',
      wakeAt: T + 25 * 60_000 + 1,
    });
  });
  it('an absurd time (Go zero time, year 2150) is unknown: no stuck warning of a billion minutes, no expiry (issue 27, symptom 14)', () => {
    const at = T + 60_000;
    const zero = '0001-01-01T00:00:00Z';
    const executing = (startedAt: string, createdAt: string) =>
      intent('EXECUTING', { lastCheckedAt: at, receipt: { intentId: 'x', status: 'EXECUTING', createdAt, summary: { startedAt } } });
    // The start falls back to createdAt: the warning is 15 min after it, not now.
    expect(watch(executing(zero, new Date(T).toISOString()), at, tuning, true)).toEqual({ action: 'none', wakeAt: T + 15 * 60_000 + 1 });
    expect(watch(executing(zero, zero), at, tuning, true)).toEqual({ action: 'none' });
    expect(watch(executing('1970-01-01T00:00:00Z', '2006-01-01T00:00:00Z'), at, tuning, true)).toEqual({ action: 'none' });
    expect(watch(executing('2150-01-01T00:00:00Z', zero), at, tuning, true)).toEqual({ action: 'none' });
    const committed = intent('COMMITTED', { lastCheckedAt: at, receipt: { intentId: 'x', status: 'COMMITTED', createdAt: zero } });
    expect(watch(committed, at, tuning, true)).toEqual({ action: 'none' });
  });
});
