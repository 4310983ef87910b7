/**
 * The request budget's lane choice and pace arithmetic (lib/api/budget-lanes.ts), pure: the order of the lanes of
 * docs/tracking.md "One request budget for the whole worker", the window's last place kept for the background lane.
 */
import { describe, expect, it } from 'vitest';
import { chooseNext, type LaneWaiter, refilled, wholeTokenAt } from '@/lib/api/budget-lanes';

const w = (lane: LaneWaiter['lane'], n: number) => ({ lane, n });
const choice = (open: Array<ReturnType<typeof w>>, count: number, due = true, ready = true) =>
  chooseNext({ open, count, perMinute: 60, backgroundDue: () => due, trackerReady: () => ready });

describe('chooseNext', () => {
  it('the user first, then a due background request, then the tracker, each lane in the order asked', () => {
    const open = [w('tracker', 1), w('background', 2), w('user', 3), w('user', 4)];
    expect(choice(open, 0)).toEqual(w('user', 3));
    expect(
      choice(
        open.filter((x) => x.lane !== 'user'),
        0,
      ),
    ).toEqual(w('background', 2));
    expect(choice([w('tracker', 1), w('background', 2)], 0, false)).toEqual(w('tracker', 1));
    expect(choice([w('tracker', 1), w('tracker', 5)], 0)).toEqual(w('tracker', 1));
  });

  it('the window’s last place is the background lane’s; a due one blocked by the window blocks the tracker too', () => {
    expect(choice([w('user', 1)], 59)).toBeUndefined();
    expect(choice([w('user', 1)], 58)).toEqual(w('user', 1));
    // The user waits first in line: a background request behind it does not go meanwhile.
    expect(choice([w('user', 1), w('background', 2)], 59)).toBeUndefined();
    expect(choice([w('background', 2), w('tracker', 3)], 59)).toEqual(w('background', 2));
    expect(choice([w('background', 2), w('tracker', 3)], 60)).toBeUndefined();
    expect(choice([w('tracker', 3)], 59)).toBeUndefined();
    expect(choice([w('tracker', 3)], 58)).toEqual(w('tracker', 3));
  });

  it('with every place of theirs held (`full`), only the user’s look-up goes', () => {
    const full = (open: Array<ReturnType<typeof w>>) =>
      chooseNext({ open, count: 0, perMinute: 60, backgroundDue: () => true, trackerReady: () => true, full: true });
    expect(full([w('tracker', 1), w('background', 2), w('user', 3)])).toEqual(w('user', 3));
    expect(full([w('tracker', 1), w('background', 2)])).toBeUndefined();
  });

  it('the tracker waits for its pace; its pace is asked only when a tracker request could go', () => {
    expect(choice([w('tracker', 1)], 0, true, false)).toBeUndefined();
    let asked = 0;
    const ready = () => {
      asked++;
      return true;
    };
    chooseNext({ open: [w('user', 1), w('tracker', 2)], count: 0, perMinute: 60, backgroundDue: () => false, trackerReady: ready });
    chooseNext({ open: [w('tracker', 2)], count: 59, perMinute: 60, backgroundDue: () => false, trackerReady: ready });
    expect(asked).toBe(0);
    chooseNext({ open: [w('tracker', 2)], count: 0, perMinute: 60, backgroundDue: () => false, trackerReady: ready });
    expect(asked).toBe(1);
  });
});

describe('pace arithmetic', () => {
  it('refilled: tokens at perMinute a minute, never above the cap; a debt refills too', () => {
    expect(refilled(0, 30_000, 54, 5)).toBe(5);
    expect(refilled(0, 10_000, 54, 10)).toBeCloseTo(9, 6);
    expect(refilled(0, 10_000, 6, 5)).toBe(1);
    expect(refilled(-60, 60_000, 60, 2)).toBe(0);
  });

  it('wholeTokenAt: when the next whole token is there, at least 1 ms on', () => {
    expect(wholeTokenAt(1_000, 0, 60)).toBe(2_000);
    expect(wholeTokenAt(1_000, 0.5, 60)).toBe(1_500);
    expect(wholeTokenAt(1_000, 1, 60)).toBe(1_001);
    expect(wholeTokenAt(0, -1, 54)).toBe(Math.ceil(120_000 / 54));
  });
});
