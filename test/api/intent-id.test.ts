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

describe('parseIntentId: the other id-like tokens', () => {
  const reason = (input: string) => {
    const r = parseIntentId(input);
    expect(r.ok, input).toBe(false);
    return r.ok ? '' : r.message;
  };
  it('accepts an id of letters, digits, _ and -, as given, even with 0x inside it', () => {
    expect(parseIntentId(' order_2024-ABCDEF ')).toEqual({ ok: true, intentId: 'order_2024-ABCDEF' });
    expect(parseIntentId('order_0x12345678')).toEqual({ ok: true, intentId: 'order_0x12345678' });
  });
  it('refuses 0x + 64 hex digits with anything before or after them, as a wrong hex id', () => {
    const hex = 'a1'.repeat(32);
    expect(reason(`0x0x${hex}`)).toBe(reason('0x1234'));
    expect(reason(`0x${hex}zz`)).toBe(reason('0x1234'));
  });
  it('says a token with other characters has other characters, not spaces', () => {
    expect(reason('<b>hello</b>')).not.toBe('');
    expect(reason('<b>hello</b>')).not.toBe(reason('abc def'));
  });
});

describe('findIntentId: a whole token', () => {
  it('takes the whole text when it is an id-like token', () => {
    expect(findIntentId('  order_2024-ABCDEF\n')).toBe('order_2024-ABCDEF');
  });
});
