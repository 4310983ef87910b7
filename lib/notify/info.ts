/** Plain information notifications (no intent behind them), e.g. what the context menu did. */
import type { browser as browserApi } from 'wxt/browser';
import { t } from '../i18n';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** Id prefix of information notifications; clicking one opens nothing. */
export const INFO_PREFIX = 'svc-info:';

/** Creates `inform(message)`: shows `message` under the extension's name; resolves with the id, or undefined on failure. */
export function createInformer(browser: Browser): (message: string) => Promise<string | undefined> {
  return (message) =>
    browser.notifications
      .create(`${INFO_PREFIX}${Date.now()}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: t('extName'),
        message,
      })
      .catch(() => undefined);
}
