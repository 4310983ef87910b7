import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTokenAmountWithSymbol } from '@/lib/format/amount';
import { formatRelative } from '@/lib/format/time';
import { formatUsd } from '@/lib/format/usd';
import { t } from '@/lib/i18n';
import { LOCALES_DIR, type LocaleMessage, readLocale, substitute, useLocale } from './fake-i18n';

const LOCALES = readdirSync(LOCALES_DIR);
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

  describe("in the browser's language", () => {
    afterEach(() => useLocale('en'));

    it('English by default: texts, amounts in display units, dollars, relative times', () => {
      expect(t('trackingId', '0xabc')).toBe('Tracking 0xabc.');
      expect(formatTokenAmountWithSymbol('12345500000', 6, 'USDC')).toBe('12,345.50 USDC');
      expect(formatUsd(12345.5)).toBe('$12,345.50');
      expect(formatRelative(0, 5 * 60_000)).toBe('5 minutes ago');
    });

    it('Spanish and Simplified Chinese when the browser speaks them', () => {
      useLocale('es');
      expect(t('trackingId', '0xabc')).toBe('Siguiendo 0xabc.');
      expect(formatTokenAmountWithSymbol('12345500000', 6, 'USDC')).toBe('12.345,50 USDC');
      expect(formatUsd(12345.5)).toMatch(/^12\.345,50\sUS\$$/); // a no-break space before US$
      expect(formatRelative(0, 5 * 60_000)).toBe('hace 5 minutos');
      useLocale('zh_CN');
      expect(t('trackingId', '0xabc')).toBe('正在跟踪 0xabc。');
      expect(formatRelative(0, 5 * 60_000)).toBe('5分钟前');
    });
  });
});
