/**
 * The windowed list's height in view: never more than its largest height, even when its box is taller (a box as
 * tall as the rows it stands in for rendered every row, one render in two, at 1,000 and 5,000 tracked intents).
 */
import { describe, expect, it } from 'vitest';
import { viewportHeight, visibleRange } from '@/components/WindowedList';

describe('viewportHeight', () => {
  it('is the box laid out, at most the largest height; the largest height before layout', () => {
    expect(viewportHeight(300, 420)).toBe(300);
    expect(viewportHeight(75_000, 420)).toBe(420);
    expect(viewportHeight(0, 420)).toBe(420);
    expect(viewportHeight(undefined, 420)).toBe(420);
  });

  it('keeps the rows rendered to those in view when the box is 5,000 rows tall', () => {
    const offsets = Float64Array.from({ length: 5_001 }, (_, i) => i * 76);
    const { start, end } = visibleRange(offsets, 0, viewportHeight(5_000 * 76, 420));
    expect(start).toBe(0);
    expect(end - start).toBeLessThan(20);
  });
});
