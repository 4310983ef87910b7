import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type LocaleMessage, readLocale, substitute } from './fake-i18n';

const LOCALES = readdirSync(new URL('../../public/_locales/', import.meta.url));
const en = readLocale('en');

/** `$name$` references in a message, lower-cased (Chrome matches placeholder names case-insensitively). */
const used = (m: LocaleMessage) => [...m.message.matchAll(/\$([A-Za-z0-9_@]+)\$/g)].map((x) => x[1]!.toLowerCase()).sort();
const declared = (m: LocaleMessage) =>
  Object.keys(m.placeholders ?? {})
    .map((k) => k.toLowerCase())
    .sort();
const contents = (m: LocaleMessage) =>
  Object.values(m.placeholders ?? {})
    .map((p) => p.content)
    .sort();

describe('locales', () => {
  it('has English and two more complete locales', () => {
    expect(LOCALES.sort()).toEqual(['en', 'es', 'zh_CN']);
  });

  for (const locale of LOCALES) {
    describe(locale, () => {
      const messages = readLocale(locale);

      it('has exactly the keys of en', () => {
        expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      });

      it('uses every placeholder it declares, declares every one it uses, and takes the same substitutions as en', () => {
        for (const [key, entry] of Object.entries(messages)) {
          expect(entry.message.trim(), `${locale}/${key} is empty`).not.toBe('');
          expect(new Set(used(entry)), `${locale}/${key}: placeholders used vs declared`).toEqual(new Set(declared(entry)));
          const base = en[key];
          if (base) expect(contents(entry), `${locale}/${key}: substitutions differ from en`).toEqual(contents(base));
        }
      });
    });
  }

  it('substitutes placeholders like the browser', () => {
    const entry = { message: 'Try in $SECONDS$ s ($$)', placeholders: { seconds: { content: '$1' } } };
    expect(substitute(entry, ['7'])).toBe('Try in 7 s ($)');
  });
});
