/** RawAmount (docstring): an exact base-10 integer string, from a string, a JSON number or a bigint. */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { RawAmount } from '@/lib/api/schemas/fields';

describe('RawAmount', () => {
  it('writes a JSON integer in full, also above 10^21 where a number prints with an exponent', () => {
    expect(z.parse(RawAmount, 1e21)).toBe('1000000000000000000000');
    expect(z.parse(RawAmount, 2_500_000)).toBe('2500000');
  });
  it('keeps a string or a bigint exactly, and a non-integer number as it reads', () => {
    expect(z.parse(RawAmount, '7845000000000000000123')).toBe('7845000000000000000123');
    expect(z.parse(RawAmount, 7845000000000000000123n)).toBe('7845000000000000000123');
    expect(z.parse(RawAmount, 1.5)).toBe('1.5');
  });
});
