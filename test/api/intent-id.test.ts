import { describe, expect, it } from 'vitest';
import { findIntentId, parseIntentId } from '@/lib/api/intent-id';

const id = `0x${'a1'.repeat(32)}`;

describe('parseIntentId', () => {
  it('accepts a hex id, trimmed and lower-cased', () => {
    expect(parseIntentId(`  ${id.toUpperCase().replace('0X', '0x')} `)).toEqual({ ok: true, intentId: id });
  });
  it('explains what is wrong', () => {
    expect(parseIntentId('')).toMatchObject({ ok: false, message: 'Enter an intent ID.' });
    expect(parseIntentId('0x1234')).toMatchObject({ ok: false, message: expect.stringContaining('64 hex digits') });
    expect(parseIntentId('abc def ghi')).toMatchObject({ ok: false, message: expect.stringContaining('no spaces') });
    expect(parseIntentId('<b>hello</b>')).toMatchObject({ ok: false });
    expect(parseIntentId('x'.repeat(10_000))).toMatchObject({ ok: false, message: expect.stringContaining('too long') });
  });
});

describe('findIntentId (clipboard)', () => {
  it('finds a hex id inside surrounding text', () => {
    expect(findIntentId(`Your intent ${id} was committed.`)).toBe(id);
  });
  it('finds nothing in plain text', () => {
    expect(findIntentId('hello world')).toBeUndefined();
    expect(findIntentId('')).toBeUndefined();
  });
});
