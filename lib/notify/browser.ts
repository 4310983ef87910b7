/**
 * Desktop notifications through the WebExtension `notifications` API. Each notification id is
 * `svc-intent:<intentId>:<time>`, so a notification can be traced to its intent (click → receipt) and a second one
 * for the same intent would show up as a second id.
 */
import type { browser as browserApi } from 'wxt/browser';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;
import type { Notifier } from '../tracker/engine';
import { notificationContent } from './content';

const PREFIX = 'svc-intent:';

/** The intentId of a notification id made here, or undefined for any other id. */
export function intentIdOfNotification(notificationId: string): string | undefined {
  if (!notificationId.startsWith(PREFIX)) return undefined;
  const rest = notificationId.slice(PREFIX.length);
  const cut = rest.lastIndexOf(':');
  return cut > 0 ? rest.slice(0, cut) : undefined;
}

/** A Notifier backed by `browser.notifications`; `iconUrl` is an extension-relative path. */
export function createBrowserNotifier(browser: Browser, iconUrl: string, now: () => number = Date.now): Notifier {
  return {
    async show(intent) {
      const { title, message } = notificationContent(intent);
      await browser.notifications.create(`${PREFIX}${intent.intentId}:${now()}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL(iconUrl as '/icon/128.png'),
        title,
        message,
        priority: 2,
      });
      return { title, message };
    },
    async exists(intentId) {
      const all = await browser.notifications.getAll();
      return Object.keys(all).some((id) => intentIdOfNotification(id) === intentId);
    },
  };
}
