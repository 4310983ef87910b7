/**
 * The sliding-window counter of invariant I5 (lib/api/rate-window.ts): what it counts, and the property its docstring
 * proves — a budget that reserves only while the count is below the limit sends at most `limit` in ANY window.
 */
import { describe, expect, it } from 'vitest';
import { SlidingWindow } from '@/lib/api/rate-window';
import { maxInAnyMinute } from './rate';

describe('SlidingWindow', () => {
  it('counts a reserved place until it is sent or cancelled; a cancelled one no longer counts', () => {
    const w = new SlidingWindow(60_000);
    w.reserve();
    w.reserve();
    expect(w.count(0)).toBe(2);
    w.cancel();
    expect(w.count(0)).toBe(1);
    w.sent(0);
    expect(w.count(0)).toBe(1);
    w.cancel();
    expect(w.count(0)).toBe(1);
  });

  it('counts a sent request in (now - windowMs, now], and says when it leaves', () => {
    const w = new SlidingWindow(60_000);
    w.reserve();
    w.sent(1_000);
    w.reserve();
    w.sent(5_000);
    expect(w.nextExpiryAt(1_000)).toBe(61_000);
    expect(w.count(60_999)).toBe(2);
    expect(w.count(61_000)).toBe(1);
    expect(w.nextExpiryAt(61_000)).toBe(65_000);
    expect(w.count(65_000)).toBe(0);
    expect(w.nextExpiryAt(65_000)).toBe(Number.POSITIVE_INFINITY);
  });

  it('never lets more than the limit through in any window when places are reserved only below it (random schedules)', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 200; run++) {
      const limit = 1 + Math.floor(random() * 6);
      const w = new SlidingWindow(60_000);
      const sent: number[] = [];
      const pending: number[] = [];
      let now = 0;
      for (let step = 0; step < 60; step++) {
        now += Math.floor(random() * 20_000);
        const r = random();
        if (r < 0.5 && w.count(now) < limit) {
          w.reserve();
          pending.push(now);
        } else if (r < 0.85 && pending.length > 0) {
          pending.shift();
          w.sent(now);
          sent.push(now);
        } else if (pending.length > 0) {
          pending.shift();
          w.cancel();
        }
      }
      expect(maxInAnyMinute(sent)).toBeLessThanOrEqual(limit);
    }
  });
});
