/** The one decision (pure) and the one table of outcomes. */
import { describe, expect, it } from 'vitest';
import { GUIDED_STATUSES, NOTIFYING_STATUSES, OUTCOMES, outcomeOf, outcomeRank, wantsNotification } from '@/lib/format/outcomes';
import { decide, groupFlushAt } from '@/lib/notify/decide';
import { DEFAULT_NOTIFY } from '@/lib/store';
import { NOTIFYING_STATUSES as TRACKER_NOTIFYING } from '@/lib/tracker/policy';

const at = (day: number, h: number, m = 0) => new Date(2026, 10, day, h, m).getTime();
const NIGHT = { start: '22:00', end: '07:00' };
const A = `0x${'a'.repeat(64)}`;
const none = { muted: [] as string[] };

describe('the table of outcomes', () => {
  it('says which statuses notify, under which setting, and is the one list the tracker and the guidance use', () => {
    expect(NOTIFYING_STATUSES).toEqual(['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED']);
    expect(TRACKER_NOTIFYING).toBe(NOTIFYING_STATUSES);
    expect(GUIDED_STATUSES).toEqual(['FAILED', 'REFUNDED', 'ABORTED']);
    expect(Object.fromEntries(Object.entries(OUTCOMES).map(([k, o]) => [k, o.setting ?? null]))).toEqual({
      SUCCEEDED: 'succeeded',
      FAILED: 'failed',
      REFUNDED: 'refunded',
      ABORTED: 'refunded',
      INVALID: null,
    });
    for (const s of ['EXECUTING', 'COMMITTED', 'QUOTED', 'toString', undefined]) expect(outcomeOf(s)).toBeUndefined();
    expect(outcomeOf('INVALID')).toMatchObject({ final: true, notifies: false });
    expect(wantsNotification('ABORTED', { ...DEFAULT_NOTIFY, refunded: false })).toBe(false);
    expect(wantsNotification('REFUNDED', DEFAULT_NOTIFY)).toBe(true);
    expect(wantsNotification('INVALID', DEFAULT_NOTIFY)).toBe(false);
    expect(wantsNotification('EXECUTING', DEFAULT_NOTIFY)).toBe(false);
    expect(['ABORTED', 'X', 'SUCCEEDED'].sort((a, b) => outcomeRank(a) - outcomeRank(b))).toEqual(['SUCCEEDED', 'ABORTED', 'X']);
  });
});

describe('the decision', () => {
  const final = (progressOnScreen = false, status = 'SUCCEEDED') => ({ kind: 'final' as const, intentId: A, status, progressOnScreen });
  it('final: skips a muted intent and a switched-off outcome, even in quiet hours', () => {
    expect(decide(final(), DEFAULT_NOTIFY, { muted: [A] }, at(22, 12))).toBe('skip');
    expect(decide(final(), { ...DEFAULT_NOTIFY, succeeded: false, quietHours: NIGHT }, none, at(22, 23))).toBe('skip');
    expect(decide(final(false, 'INVALID'), DEFAULT_NOTIFY, none, at(22, 12))).toBe('skip');
  });
  it('final: holds while snoozed or in quiet hours (across midnight), shows otherwise', () => {
    expect(decide(final(), DEFAULT_NOTIFY, { ...none, snoozeUntil: at(22, 13) }, at(22, 12))).toBe('hold');
    expect(decide(final(), { ...DEFAULT_NOTIFY, quietHours: NIGHT }, none, at(23, 1))).toBe('hold');
    expect(decide(final(), { ...DEFAULT_NOTIFY, quietHours: NIGHT }, none, at(23, 7))).toBe('show');
    expect(decide(final(), DEFAULT_NOTIFY, { ...none, snoozeUntil: at(22, 12) }, at(22, 12))).toBe('show');
  });
  it('final: updates its progress notification in place when progress notifications are on', () => {
    expect(decide(final(true), { ...DEFAULT_NOTIFY, progress: true }, none, at(22, 12))).toBe('update');
    expect(decide(final(true), DEFAULT_NOTIFY, none, at(22, 12))).toBe('show');
    expect(decide(final(true), { ...DEFAULT_NOTIFY, progress: true, quietHours: NIGHT }, none, at(23, 1))).toBe('hold');
  });
  it('progress and stuck: news only now — skipped (not held) when off, muted, snoozed or quiet', () => {
    const p = (on: boolean) => ({ kind: 'progress' as const, intentId: A, progressOnScreen: on });
    const on = { ...DEFAULT_NOTIFY, progress: true };
    expect(decide(p(false), on, none, at(22, 12))).toBe('show');
    expect(decide(p(true), on, none, at(22, 12))).toBe('update');
    expect(decide(p(false), DEFAULT_NOTIFY, none, at(22, 12))).toBe('skip');
    expect(decide(p(true), on, { muted: [A] }, at(22, 12))).toBe('skip');
    expect(decide(p(true), { ...on, quietHours: NIGHT }, none, at(22, 23))).toBe('skip');
    const stuck = { kind: 'stuck' as const, intentId: A };
    expect(decide(stuck, DEFAULT_NOTIFY, none, at(22, 12))).toBe('show');
    expect(decide(stuck, { ...DEFAULT_NOTIFY, stuck: false }, none, at(22, 12))).toBe('skip');
    expect(decide(stuck, DEFAULT_NOTIFY, { ...none, snoozeUntil: at(22, 13) }, at(22, 12))).toBe('skip');
    expect(decide(stuck, DEFAULT_NOTIFY, { muted: [A] }, at(22, 12))).toBe('skip');
  });
  it('away: held until neither the snooze nor the quiet hours hold it', () => {
    expect(decide({ kind: 'away' }, { ...DEFAULT_NOTIFY, quietHours: NIGHT }, none, at(23, 6, 59))).toBe('hold');
    expect(decide({ kind: 'away' }, { ...DEFAULT_NOTIFY, quietHours: NIGHT }, none, at(23, 7))).toBe('show');
    expect(decide({ kind: 'away' }, DEFAULT_NOTIFY, { ...none, snoozeUntil: at(22, 13) }, at(22, 12))).toBe('hold');
  });
  it('grouping: at once opens a window; then 100 ms after the last, once per window; else at the window end', () => {
    const w0 = { endsAt: 0, quietSpent: false };
    expect(groupFlushAt(w0, 0, 1000)).toEqual({
      at: 1000,
      early: false,
      window: { endsAt: 1500, quietSpent: false, lengthMs: 500, held: false },
    });
    const w = { endsAt: 1500, quietSpent: false };
    expect(groupFlushAt(w, 0, 1010)).toEqual({ at: 1110, early: true, window: { ...w, held: true } });
    expect(groupFlushAt({ ...w, quietSpent: true }, 1, 1200)).toMatchObject({ at: 1500, early: false });
    expect(groupFlushAt(w, 1, 1450)).toMatchObject({ at: 1500, early: false });
    expect(groupFlushAt(w, 1, 1600)).toMatchObject({ at: 1600 });
    expect(groupFlushAt(w, 0, 1500)).toMatchObject({ at: 1500, window: { endsAt: 2000 } });
  });
  it('grouping in a burst: each window that follows a grouping one within its length is twice as long, up to the widest', () => {
    // Windows of 300 ms, 2,000 at most. The first finish opens a window of 300 ms and goes at once.
    const BURST = { windowMs: 300, quietMs: 100, maxWindowMs: 2_000 };
    let w = groupFlushAt({ endsAt: 0, quietSpent: false }, 0, 10_000, BURST).window;
    expect(w).toEqual({ endsAt: 10_300, quietSpent: false, lengthMs: 300, held: false });
    // One held in it: the window grouped.
    w = groupFlushAt(w, 0, 10_050, BURST).window;
    expect(w.held).toBe(true);
    // The next finish, within 300 ms of the window's end (flush done, none held): at once, in a window of 600 ms.
    const next = groupFlushAt(w, 0, 10_500, BURST);
    expect(next).toEqual({ at: 10_500, early: false, window: { endsAt: 11_100, quietSpent: false, lengthMs: 600, held: false } });
    // Doubling while every window groups: 1,200, then 2,000 (the widest), then 2,000 again.
    const lengths: number[] = [];
    w = next.window;
    for (let i = 0; i < 4; i++) {
      w = groupFlushAt(w, 0, w.endsAt - 1, BURST).window; // one held just before the end
      w = groupFlushAt(w, 0, w.endsAt + 10, BURST).window; // the next opens 10 ms after it
      lengths.push(w.lengthMs!);
    }
    expect(lengths).toEqual([1_200, 2_000, 2_000, 2_000]);
    // A held one never waits longer than the widest window.
    const held = groupFlushAt({ ...w, quietSpent: true }, 3, w.endsAt - 2_000 + 1, BURST);
    expect(held.at - (w.endsAt - 2_000 + 1)).toBeLessThanOrEqual(2_000);
    // A window that held nothing: the next is the shortest again, however close.
    const calm = groupFlushAt({ endsAt: 20_000, quietSpent: false, lengthMs: 2_000, held: false }, 0, 20_001, BURST);
    expect(calm.window.lengthMs).toBe(300);
    // A gap of the last window's length or more after a grouping one: the shortest again.
    const gap = groupFlushAt({ endsAt: 20_000, quietSpent: false, lengthMs: 1_200, held: true }, 0, 21_200, BURST);
    expect(gap.window.lengthMs).toBe(300);
    const close = groupFlushAt({ endsAt: 20_000, quietSpent: false, lengthMs: 1_200, held: true }, 0, 21_199, BURST);
    expect(close.window.lengthMs).toBe(2_000);
    // Without a widest window given, windows never widen.
    expect(groupFlushAt({ endsAt: 20_000, quietSpent: false, held: true }, 0, 20_001).window.lengthMs).toBe(500);
  });
});
