/**
 * `browser.i18n` for unit tests (fakeBrowser does not implement it): getMessage reads the real
 * `public/_locales/<locale>/messages.json` and substitutes like Chrome does (`$name$` → the placeholder's content,
 * `$1`…`$9` → the substitutions, `$$` → `$`); getUILanguage answers the locale the test set (English by default).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeBrowser } from 'wxt/testing/fake-browser';

/** One message of a `messages.json`. */
export interface LocaleMessage {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string; example?: string }>;
}

/** Where the locales are (tests run from the project root; `import.meta.url` is not a file URL under jsdom). */
export const LOCALES_DIR = join(process.cwd(), 'public', '_locales');

/** Reads `public/_locales/<locale>/messages.json`. */
export function readLocale(locale: string): Record<string, LocaleMessage> {
  return JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'messages.json'), 'utf8'));
}

/** Chrome's substitution: named placeholders first, then `$1`…`$9` in their contents and the message. */
export function substitute(entry: LocaleMessage, subs: readonly string[]): string {
  const placeholders = Object.fromEntries(Object.entries(entry.placeholders ?? {}).map(([k, v]) => [k.toLowerCase(), v.content]));
  return entry.message
    .replace(/\$([A-Za-z0-9_@]+)\$/g, (whole, name: string) => placeholders[name.toLowerCase()] ?? whole)
    .replace(/\$(\$|[1-9])/g, (_, d: string) => (d === '$' ? '$' : (subs[Number(d) - 1] ?? '')));
}

/** Makes fakeBrowser speak `locale` (folder name, e.g. `en`, `es`, `zh_CN`). */
export function useLocale(locale: string): void {
  const messages = readLocale(locale);
  const i18n = fakeBrowser.i18n as unknown as Record<string, unknown>;
  i18n.getMessage = (key: string, subs?: string | string[]) => {
    const entry = messages[key];
    if (!entry) return '';
    return substitute(entry, subs === undefined ? [] : Array.isArray(subs) ? subs : [subs]);
  };
  i18n.getUILanguage = () => locale.replace('_', '-');
}

useLocale('en');
