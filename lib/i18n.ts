/**
 * Every user-visible string goes through the browser's i18n (`public/_locales/<locale>/messages.json`, English is
 * `default_locale`). The browser picks the locale from its UI language; the user cannot switch it in the extension.
 */
import { browser } from 'wxt/browser';
import type en from '../public/_locales/en/messages.json';

/** A key of `public/_locales/en/messages.json`; `test/i18n/locales.test.ts` checks every locale has the same keys. */
export type MessageKey = keyof typeof en;

/**
 * The message `key` in the browser's locale, with `$1`…`$9` (the message's placeholders, in order) replaced by
 * `subs`. Returns the key itself when the browser has no such message (never an empty string).
 */
export function t(key: MessageKey, ...subs: Array<string | number>): string {
  return browser.i18n.getMessage(key, subs.map(String)) || key;
}

/** The browser's UI language (BCP 47, e.g. `en-US`, `es`, `zh-CN`) for `Intl` formats; `en` when it cannot say. */
export function uiLocale(): string {
  try {
    return browser.i18n.getUILanguage() || 'en';
  } catch {
    return 'en';
  }
}

/**
 * A formatter for the browser's UI language, made once per language (`Intl` objects are costly to build): `make`
 * gets the BCP 47 tag from `uiLocale()`.
 */
export function localized<T>(make: (locale: string) => T): () => T {
  let made: { locale: string; value: T } | undefined;
  return () => {
    const locale = uiLocale();
    if (made?.locale !== locale) made = { locale, value: make(locale) };
    return made.value;
  };
}

/** Gives a page the browser's language and a translated title (an HTML page cannot use `__MSG_…__` itself). */
export function localizePage(doc: Document, title: MessageKey): void {
  doc.documentElement.lang = uiLocale();
  doc.title = t(title);
}
