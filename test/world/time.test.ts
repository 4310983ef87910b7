/** The world's wall clock history (test/world/time.ts `maxSkew`), which the oracle reads for a kept hold's last write. */
import { describe, expect, it } from 'vitest';
import { WorldTime } from './time';

describe('WorldTime.maxSkew', () => {
  it('is the largest skew the wall clock had in a span: jumps, a drift and its correction', async () => {
    const time = new WorldTime(0);
    time.jump(120_000);
    await time.runUntil(100_000);
    time.jump(-600_000);
    await time.runUntil(200_000);
    time.setDrift(0.5);
    await time.runUntil(300_000);
    time.correct();
    await time.runUntil(400_000);
    expect(time.maxSkew(0, 50_000)).toBe(120_000);
    expect(time.maxSkew(90_000, 110_000)).toBe(120_000);
    expect(time.maxSkew(100_001, 150_000)).toBe(-480_000);
    // The drift gains 0.5 ms a ms from -480 s at 200 s: -430 s at 300 s, just before NTP sets it right.
    expect(time.maxSkew(150_000, 299_000)).toBe(-480_000 + 0.5 * 99_000);
    expect(time.maxSkew(250_000, 400_000)).toBe(0);
    expect(time.maxSkew(400_000, 400_000)).toBe(time.skew());
  });
});
