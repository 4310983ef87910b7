/**
 * Where a click on a notification leads: the body opens the receipt of its intent (the tracked list for a summary of
 * several, and for the "while you were away" summary); on Chrome, button 0 is "View receipt" and button 1 "Open in explorer" (the leg that settled or failed;
 * for an intent removed since, the link its notification was shown with).
 */
import type { browser as browserApi } from 'wxt/browser';
import { isKnownExplorerTxUrl } from '../format/chains';
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

/**
 * Creates the handlers; `intents` gives the tracked intent whose explorer link a button opens, `linkOf` the link a
 * notification was shown with (its outbox job, kept after its intent was removed), `seen` records that a clicked
 * notification was shown (`NotificationPipeline.clicked`: begun before anything opens, awaited before the clear, so
 * that the outbox does not show again what the click cleared).
 *
 * "Open in explorer" opens what can be opened: the intent's link, else the notification's own (a known explorer
 * only), else — nothing known any more — the intent's receipt page, which looks it up by its id and says what is
 * known. A notification is cleared only once something was opened for it; a refused clear does not undo the opening
 * (the page is open, the notification stays). Rejects only when no tab could be opened.
 */
export function createNotificationRouting(
  browser: Browser,
  intents: Pick<IntentStore, 'get'>,
  linkOf?: (notificationId: string) => Promise<string | undefined>,
  seen?: (notificationId: string) => Promise<void>,
): NotificationRouting {
  /**
   * Clears a notification once its page opened, after `shown` (the record that it was shown) settled; a refused clear
   * leaves it on screen and changes nothing else.
   */
  const clear = async (notificationId: string, shown: Promise<void> | undefined) => {
    await shown?.catch(() => {});
    return browser.notifications.clear(notificationId).catch(() => false);
  };
  return {
    async openNotification(notificationId) {
      if (notificationId.startsWith(AWAY)) {
        const shown = seen?.(notificationId);
        await openTrackedPage(browser);
        await clear(notificationId, shown);
        return;
      }
      const ids = intentIdsOfNotification(notificationId);
      if (ids.length === 0) return;
      const shown = seen?.(notificationId);
      if (ids.length === 1) await openReceiptPage(browser, ids[0]!);
      else await openTrackedPage(browser);
      await clear(notificationId, shown);
    },
    async notificationButton(notificationId, index) {
      const intentId = intentIdOfNotification(notificationId);
      if (!intentId) return;
      const shown = seen?.(notificationId);
      if (index === 0) {
        await openReceiptPage(browser, intentId);
        await clear(notificationId, shown);
        return;
      }
      const intent = await intents.get(intentId).catch(() => undefined);
      const url = (intent ? outcomeExplorerUrl(intent) : undefined) ?? (await linkOf?.(notificationId).catch(() => undefined));
      if (url && isKnownExplorerTxUrl(url)) await browser.tabs.create({ url });
      else await openReceiptPage(browser, intentId);
      await clear(notificationId, shown);
    },
  };
}
