/** Every unit file that mocks modules or stubs globals runs isolated (test/isolated-files.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_UNIT_FILES, KEPT_FILES } from './isolated-files';

const ROOT = process.cwd();

/** The unit project's test files (paths from the project root). */
function unitFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'e2e' || e.name === 'built' ? [] : unitFiles(path);
    return /\.test\.tsx?$/.test(e.name) ? [relative(ROOT, path)] : [];
  });
}

describe('the unit files that need their own module graph', () => {
  it('are listed in test/isolated-files.ts, and every one listed exists', () => {
    const files = unitFiles();
    // This file names the calls it looks for, in this very pattern: it is not one of them.
    const self = 'test/isolated-files.test.ts';
    const mocking = files.filter((f) => f !== self && /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(mocking.filter((f) => !ISOLATED_UNIT_FILES.includes(f))).toEqual([]);
    expect(ISOLATED_UNIT_FILES.filter((f) => !files.includes(f))).toEqual([]);
  });
});

describe('the kept schedules (the kept project)', () => {
  it('are listed files that exist and share their module graph', () => {
    const files = unitFiles();
    expect(KEPT_FILES.filter((f) => !files.includes(f))).toEqual([]);
    expect(KEPT_FILES.filter((f) => ISOLATED_UNIT_FILES.includes(f))).toEqual([]);
  });
});
