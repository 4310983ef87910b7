/** `plainClone` gives what `structuredClone` gives, for the plain data it copies itself and for what it hands over. */
import { describe, expect, it } from 'vitest';
import { plainClone } from './clone';

describe('plainClone', () => {
  it('copies plain data deeply, as structuredClone does', () => {
    const values: unknown[] = [
      0,
      -0,
      Number.NaN,
      'x',
      true,
      null,
      undefined,
      10n,
      [],
      [1, 'a', null, undefined, [2, [3]]],
      { a: 1, b: { c: [1, { d: 'e' }] }, u: undefined },
      Array.from({ length: 2_000 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`),
    ];
    for (const v of values) {
      const copy = plainClone(v);
      expect(copy).toStrictEqual(structuredClone(v));
      if (v !== null && typeof v === 'object') expect(copy).not.toBe(v);
    }
  });

  it('keeps key order, holes, shared and cyclic references; a null-prototype object comes back plain', () => {
    const shared = { n: 1 };
    const cyclic: Record<string, unknown> = { z: 1, a: shared, b: shared };
    cyclic.self = cyclic;
    const copy = plainClone(cyclic);
    expect(Object.keys(copy)).toEqual(['z', 'a', 'b', 'self']);
    expect(copy.a).toBe(copy.b);
    expect(copy.a).not.toBe(shared);
    expect(copy.self).toBe(copy);
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    const holes = plainClone([1, , 3]);
    expect(1 in holes).toBe(false);
    expect(holes).toHaveLength(3);
    const bare = Object.assign(Object.create(null), { k: 1 });
    expect(Object.getPrototypeOf(plainClone(bare))).toBe(Object.getPrototypeOf(structuredClone(bare)));
  });

  it('leaves symbol keys out and copies what a getter returns, once', () => {
    let reads = 0;
    const v = {
      [Symbol('s')]: 1,
      get g() {
        reads++;
        return [reads];
      },
    };
    expect(plainClone(v)).toStrictEqual({ g: [1] });
    expect(reads).toBe(1);
  });

  it('hands anything else to structuredClone: a Date or a Map is copied, a function or a symbol throws its DataCloneError', () => {
    const date = new Date(1_800_000_000_000);
    const copied = plainClone({ at: date, m: new Map([[1, 2]]) });
    expect(copied.at).toBeInstanceOf(Date);
    expect(copied.at).not.toBe(date);
    expect(copied.at.getTime()).toBe(date.getTime());
    expect(copied.m.get(1)).toBe(2);
    expect(() => plainClone({ f: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    expect(() => plainClone([Symbol('s')])).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    class Point {
      x = 1;
    }
    expect(Object.getPrototypeOf(plainClone(new Point()))).toBe(Object.prototype);
  });
});
