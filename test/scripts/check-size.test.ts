import { describe, expect, it } from 'vitest';
import { breachesOf, check, MAX_FILE_LINES, MAX_FUNCTION_LINES } from '../../scripts/check-size';

const lines = (n: number, line = '  x++;') => Array.from({ length: n }, () => line).join('\n');

describe('size limits of lib/ (scripts/check-size.ts)', () => {
  it('flags a function one line over the limit, and not one at the limit', () => {
    // A function of N lines: the opening line, N - 2 body lines, the closing line.
    const at = `function fits() {\n${lines(MAX_FUNCTION_LINES - 2)}\n}\n`;
    const over = `function long() {\n${lines(MAX_FUNCTION_LINES - 1)}\n}\n`;
    expect(breachesOf('lib/a.ts', at)).toEqual([]);
    expect(breachesOf('lib/a.ts', over)).toEqual([{ key: 'lib/a.ts#long', line: 1, lines: 81, limit: 80 }]);
  });

  it('counts a closure with the helpers it defines inside itself', () => {
    const helper = (i: number) => `  const h${i} = () => {\n${lines(8)}\n  };`;
    const text = `export function outer() {\n${[0, 1, 2, 3, 4, 5, 6, 7].map(helper).join('\n')}\n}\n`;
    const keys = breachesOf('lib/a.ts', text).map((b) => b.key);
    expect(keys).toEqual(['lib/a.ts#outer']);
  });

  it('names methods, arrows held by variables and properties, and flags a long file', () => {
    const text = [
      `class Engine {\n  run() {\n${lines(100)}\n  }\n}`,
      `const pump = () => {\n${lines(100)}\n};`,
      `const api = { send: function () {\n${lines(100)}\n} };`,
    ].join('\n');
    const found = breachesOf('lib/b.ts', text);
    expect(found.map((b) => b.key)).toEqual(['lib/b.ts', 'lib/b.ts#Engine.run', 'lib/b.ts#pump', 'lib/b.ts#send']);
    // 104 lines of the class, 102 of each function: over the file limit.
    expect(found[0]!.lines).toBe(308);
    expect(308).toBeGreaterThan(MAX_FILE_LINES);
  });

  it('passes on the project as it is, with its allow-list', () => {
    const { breaches, unused } = check();
    expect(breaches.map((b) => `${b.key} ${b.lines}`)).toEqual([]);
    expect(unused).toEqual([]);
  });
});
