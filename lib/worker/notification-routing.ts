/**
 * Where a click on a notification leads: the body opens the receipt of its intent (the tracked list for a summary of
 * several, and for the "while you were away" summary); on Chrome, button 0 is "View receipt" and button 1 "Open in explorer" (the leg that settled or failed).
 */
import type { browser as browserApi } from 'wxt/browser';
import { AWAY, intentIdOfNotification, intentIdsOfNotification } from '../notify/browser';
import { outcomeExplorerUrl } from '../notify/content';
import type { IntentStore } from '../store';
import { openReceiptPage, openTrackedPage } from './pages';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** The notification click handlers. Ids not made by this extension are ignored. */
export interface NotificationRouting {
  /** The body of a notification was clicked. */
  openNotification(notificationId: string): Promise<void>;
  /** A button of a notification was clicked (`index` 0 or 1). */
  notificationButton(notificationId: string, index: number): Promise<void>;
}

/** Creates the handlers; `intents` gives the tracked intent whose explorer link a button opens. */
export function createNotificationRouting(browser: Browser, intents: Pick<IntentStore, 'get'>): NotificationRouting {
  return {
    async openNotification(notificationId) {
      if (notificationId.startsWith(AWAY)) {
        await browser.notifications.clear(notificationId);
        await openTrackedPage(browser);
        return;
      }
      const ids = intentIdsOfNotification(notificationId);
      if (ids.length === 0) return;
      await browser.notifications.clear(notificationId);
      if (ids.length === 1) await openReceiptPage(browser, ids[0]!);
      else await openTrackedPage(browser);
    },
    async notificationButton(notificationId, index) {
      const intentId = intentIdOfNotification(notificationId);
      if (!intentId) return;
      await browser.notifications.clear(notificationId);
      if (index === 0) {
        await openReceiptPage(browser, intentId);
        return;
      }
      const intent = await intents.get(intentId);
      const url = intent ? outcomeExplorerUrl(intent) : undefined;
      if (url) await browser.tabs.create({ url });
    },
  };
}
