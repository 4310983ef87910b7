import { describe, expect, it } from 'vitest';
import { formatTokenAmount, formatTokenAmountWithSymbol } from '@/lib/format/amount';

describe('formatTokenAmount (raw ÷ 10^decimals, 2 to 8 fraction digits)', () => {
  it('formats whole and fractional USDC (6 decimals)', () => {
    expect(formatTokenAmount('250000000', 6)).toBe('250.00');
    expect(formatTokenAmount('249100000', 6)).toBe('249.10');
    expect(formatTokenAmount('1', 6)).toBe('0.000001');
  });
  it('formats 18-decimal amounts exactly, beyond float precision', () => {
    expect(formatTokenAmount('7845000000000000000', 18)).toBe('7.845');
    expect(formatTokenAmount('123456789012345678901234567890', 18)).toBe('123,456,789,012.3456789');
    expect(formatTokenAmount('1', 18)).toBe('0.00');
  });
  it('rounds half up at the 8th fraction digit', () => {
    expect(formatTokenAmount('123456785', 9)).toBe('0.12345679');
    expect(formatTokenAmount('123456784', 9)).toBe('0.12345678');
  });
  it('refuses what it cannot format rather than guessing', () => {
    expect(formatTokenAmount('12.5', 6)).toBeUndefined();
    expect(formatTokenAmount('abc', 6)).toBeUndefined();
    expect(formatTokenAmount('100', undefined)).toBeUndefined();
    expect(formatTokenAmount('100', 78)).toBeUndefined();
    expect(formatTokenAmountWithSymbol('abc', 6, 'USDC')).toBe('unknown amount');
    expect(formatTokenAmountWithSymbol('1500000000000000000', 18, 'ETH')).toBe('1.50 ETH');
  });
});
