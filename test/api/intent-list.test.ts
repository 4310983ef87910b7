/** Reading a pasted list of intentIds: any separators, quotes and brackets, repeats, invalid tokens, bounds. */
import { describe, expect, it } from 'vitest';
import { isIntentList, MAX_LIST_TEXT, MAX_TRACK_MANY, readIntentList, splitIntentIds } from '@/lib/api/intent-list';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

describe('splitIntentIds', () => {
  it('splits on line breaks, commas, semicolons, spaces and tabs, and drops quotes and brackets around ids', () => {
    const text = `${hex(1)}\r\n${hex(2)},${hex(3)} ;\t${hex(4)}\n\n  "${hex(5)}", ['${hex(6)}']`;
    expect(splitIntentIds(text)).toEqual([1, 2, 3, 4, 5, 6].map(hex));
  });
  it('gives nothing for blank text', () => {
    expect(splitIntentIds(' \n\t, ;')).toEqual([]);
  });
});

describe('readIntentList', () => {
  it('normalises, keeps the first of each id in order, counts repeats, and reports invalid tokens with a reason', () => {
    const upper = hex(0xabc).toUpperCase().replace('0X', '0x');
    const list = readIntentList(`${upper}\n${hex(2)}\n${hex(0xabc)}\n0x1234\n${hex(2)}\nhello`);
    expect(list.intentIds).toEqual([hex(0xabc), hex(2)]);
    expect(list.duplicates).toBe(2);
    expect(list.invalid.map((i) => i.text)).toEqual(['0x1234', 'hello']);
    expect(list.invalid[0]?.message).toContain('64 hex digits');
    expect(list.tooLong).toBe(false);
  });

  it(`reads ${MAX_TRACK_MANY.toLocaleString('en')} ids, and refuses one more (nothing read)`, () => {
    const ids = Array.from({ length: MAX_TRACK_MANY }, (_, i) => hex(i));
    expect(readIntentList(ids.join('\n')).intentIds).toHaveLength(MAX_TRACK_MANY);
    const over = readIntentList([...ids, hex(MAX_TRACK_MANY)].join('\n'));
    expect(over).toEqual({ intentIds: [], duplicates: 0, invalid: [], tooLong: true });
  });

  it('refuses text over the size bound without splitting it, and reads text of exactly the bound', () => {
    expect(readIntentList('a'.repeat(MAX_LIST_TEXT + 1)).tooLong).toBe(true);
    const atBound = readIntentList(`${hex(1)}\n${'a'.repeat(MAX_LIST_TEXT - 67)}`);
    expect(atBound.tooLong).toBe(false);
    expect(atBound.intentIds).toEqual([hex(1)]);
  });
});

describe('isIntentList: pasted text read as a list rather than one intentId', () => {
  const asList = (text: string) => isIntentList(text, readIntentList(text));

  it('one token, valid or not, is one id', () => {
    expect(asList(hex(1))).toBe(false);
    expect(asList('hello')).toBe(false);
    expect(asList(`  ${hex(1)}\n`)).toBe(false);
  });

  it('two valid ids, even separated by a space only, or the same id twice, are a list', () => {
    expect(asList(`${hex(1)} ${hex(2)}`)).toBe(true);
    expect(asList(`${hex(1)} ${hex(1)}`)).toBe(true);
  });

  it('a phrase of words with spaces is one wrong id; words on lines, or after a comma, semicolon or tab, are a list', () => {
    expect(asList('not an intent id')).toBe(false);
    for (const sep of ['\n', '\r', '\t', ',', ';']) expect(asList(`first${sep}second`)).toBe(true);
  });

  it('a valid id with a word after a space is a list (the id is read, the word said invalid)', () => {
    expect(asList(`${hex(1)} note`)).toBe(true);
  });

  it('text over the bounds is a list (the caller says it is too long)', () => {
    expect(asList('a'.repeat(MAX_LIST_TEXT + 1))).toBe(true);
  });
});
