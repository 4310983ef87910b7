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
