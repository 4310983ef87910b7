/** The calm-notification policy (pure): quiet hours in local time, snooze, the decision, the summary's words. */
import { describe, expect, it } from 'vitest';
import { awayContent, inQuietHours, parseClockTime, progressContent, quietHoursEnd, releaseAt } from '@/lib/notify/calm';
import type { TrackedIntent } from '@/lib/store';

/** Local wall-clock time on 22 and 23 November 2026 (no DST change near it in any zone). */
const at = (day: 22 | 23, h: number, m = 0) => new Date(2026, 10, day, h, m).getTime();
const NIGHT = { start: '22:00', end: '07:00' };
const A = `0x${'a'.repeat(64)}`;

describe('quiet hours', () => {
  it('reads "HH:MM" 24-hour times only', () => {
    expect(parseClockTime('07:05')).toBe(7 * 60 + 5);
    expect(parseClockTime('23:59')).toBe(23 * 60 + 59);
    for (const bad of ['7:05', '24:00', '12:60', '', '12:00 ']) expect(parseClockTime(bad)).toBeUndefined();
  });

  it('span midnight when the end is before the start; start included, end excluded', () => {
    const inside = (h: number, m: number) => inQuietHours(at(22, h, m), NIGHT);
    expect([inside(21, 59), inside(22, 0), inside(23, 30), inside(0, 0), inside(6, 59), inside(7, 0), inside(12, 0)]).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    const lunch = { start: '12:00', end: '13:30' };
    expect([inQuietHours(at(22, 11, 59), lunch), inQuietHours(at(22, 13, 29), lunch), inQuietHours(at(22, 13, 30), lunch)]).toEqual([
      false,
      true,
      false,
    ]);
    expect(inQuietHours(at(22, 9), { start: '09:00', end: '09:00' })).toBe(false);
    expect(inQuietHours(at(22, 23), undefined)).toBe(false);
  });

  it('end the next morning when it is evening, the same morning after midnight', () => {
    expect(quietHoursEnd(at(22, 23, 30), NIGHT)).toBe(at(23, 7));
    expect(quietHoursEnd(at(23, 2), NIGHT)).toBe(at(23, 7));
    expect(quietHoursEnd(at(22, 12), NIGHT)).toBeUndefined();
  });
});

describe('release time', () => {
  it('is now when nothing holds notifications back', () => {
    expect(releaseAt({}, {}, at(22, 12))).toBe(at(22, 12));
    expect(releaseAt({ snoozeUntil: at(22, 11) }, { quietHours: NIGHT }, at(22, 12))).toBe(at(22, 12));
  });

  it('is the snooze end, or the end of the quiet hours a snooze runs into, and the other way round', () => {
    expect(releaseAt({ snoozeUntil: at(22, 13) }, {}, at(22, 12))).toBe(at(22, 13));
    expect(releaseAt({ snoozeUntil: at(22, 22, 30) }, { quietHours: NIGHT }, at(22, 21, 30))).toBe(at(23, 7));
    expect(releaseAt({ snoozeUntil: at(23, 7, 30) }, { quietHours: NIGHT }, at(23, 6, 30))).toBe(at(23, 7, 30));
  });
});

describe('what the notifications say', () => {
  it('sums up the held outcomes in one line', () => {
    const held = (status: string) => ({ intentId: A, status, heldAt: 0 });
    expect(awayContent([held('SUCCEEDED'), held('REFUNDED'), held('SUCCEEDED')])).toEqual({
      title: 'While you were away: 3 intents finished',
      message: '2 succeeded, 1 refunded',
    });
    expect(awayContent([held('ABORTED'), held('FAILED')]).message).toBe('1 failed, 1 aborted');
    expect(awayContent([held('FAILED')]).title).toBe('While you were away: 1 intent finished');
  });

  it('shows the route and each leg in the progress notification', () => {
    const intent: TrackedIntent = {
      intentId: A,
      addedAt: 0,
      lastStates: [],
      phase: 'tracking',
      notification: 'none',
      status: 'EXECUTING',
      receipt: {
        intentId: A,
        status: 'EXECUTING',
        originChainId: 42161,
        destinationChainId: 8453,
        depositTransaction: { chainId: 42161, status: 'SUCCEEDED' },
        originTransaction: { chainId: 42161, status: 'PENDING' },
      },
    };
    expect(progressContent(intent)).toEqual({
      title: 'Intent executing · 0xaaaa…aaaa',
      message: 'Arbitrum One → Base\nDeposit done · Origin pending · Destination waiting',
    });
  });
});
