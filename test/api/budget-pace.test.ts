/**
 * The tracker's own pace in the request budget (lib/api/budget.ts, TRACKER_BURST / TRACKER_PER_MINUTE): after a burst
 * the tracker goes on at 54 a minute and never spends the worker's window alone. With the window alone, a pasted list
 * of 300 intents whose first reads were answered at once sent 59 requests in its first second and then nothing for a
 * minute: an intent tracked after the list waited that minute (found by test/e2e/desk.e2e.ts).
 */
import { describe, expect, it } from 'vitest';
import { RequestBudget, TRACKER_BURST, TRACKER_PER_MINUTE } from '@/lib/api/budget';
import { EventClock } from '../tracker/fakes';
import { maxInAnyMinute } from './rate';

describe('the tracker’s pace', () => {
  it('120 tracker requests asked at once: a burst, then one every 60 s / TRACKER_PER_MINUTE, at most 59 in any minute', async () => {
    const clock = new EventClock();
    const budget = new RequestBudget({ clock });
    const t0 = clock.monotonic();
    const sent: number[] = [];
    const runs = Array.from({ length: 120 }, () =>
      budget.run('tracker', async () => {
        sent.push(clock.monotonic() - t0);
        await clock.sleep(50);
      }),
    );
    await clock.runUntil(t0 + 300_000, []);
    await Promise.all(runs);
    expect(sent).toHaveLength(120);
    const gaps = sent.slice(1).map((t, i) => t - sent[i]!);
    expect(sent.filter((t) => t < 1_000).length).toBe(TRACKER_BURST);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(Math.ceil(60_000 / TRACKER_PER_MINUTE) + 50);
    expect(maxInAnyMinute(sent)).toBeLessThanOrEqual(59);
  });
});
