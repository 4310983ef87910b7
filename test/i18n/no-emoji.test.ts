/**
 * No emoji glyph anywhere in the UI: a system without an emoji font (Debian's Chromium) draws one as an empty box.
 * Icons are SVG (components/icons.tsx). Scans the sources of components/ and entrypoints/ and the messages of every
 * locale (the pages show those too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR, readLocale } from './fake-i18n';

/** An emoji: a pictographic code point, or the variation selector that asks for the emoji form of one. */
const EMOJI = /\p{Extended_Pictographic}|\uFE0F/gu;

/** Emoji found in `text`, as `where: glyph`. */
function emojiIn(where: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => [...line.matchAll(EMOJI)].map((m) => `${where}:${i + 1}: ${m[0]}`));
}

describe('no emoji glyph in the UI', () => {
  it('finds emoji, and leaves typography alone (the check itself works)', () => {
    expect(emojiIn('x', 'a 🔔 b\n🔕 · → ← × … “” ≈ —')).toEqual(['x:1: 🔔', 'x:2: 🔕']);
    expect(emojiIn('x', 'ok ✔️')).toHaveLength(2);
  });

  it('components/ and entrypoints/ draw no emoji', () => {
    const root = process.cwd();
    const files = ['components', 'entrypoints'].flatMap((dir) =>
      readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && /\.(tsx?|html|css)$/.test(e.name))
        .map((e) => join(e.parentPath, e.name)),
    );
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => emojiIn(relative(root, f), readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('no locale message holds an emoji', () => {
    const found = readdirSync(LOCALES_DIR).flatMap((locale) =>
      Object.entries(readLocale(locale)).flatMap(([key, m]) => emojiIn(`${locale}/${key}`, m.message)),
    );
    expect(found).toEqual([]);
  });
});
