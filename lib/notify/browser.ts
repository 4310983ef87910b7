/**
 * The one adapter over `browser.notifications` (the pipeline, `./pipeline`, is its only user), and the notification
 * ids.
 *
 * Ids: `svc-intent:<intentId>:<time>` for one intent, `svc-group:<time>:<id>,<id>,…` for a summary of intents that
 * finished together, `svc-stuck:<intentId>:<time>` for "taking longer than expected", `svc-progress:<intentId>:<time>`
 * for the optional progress notification, `svc-chain:<intentId>:<time>` for a disagreement between a chain and the
 * service (lib/notify/chain.ts), `svc-away:<time>:<its first intentId>` for the "while you were away" summary and
 * `svc-info:<time>:<n>` for plain information. A notification can be traced to its intents (click → receipt).
 *
 * Buttons (Chrome only; Firefox has none): a notification of one intent gets "View receipt", and its final one
 * "Open in explorer" too when the leg that settled or failed has a known explorer. Summaries (grouped, away) get no
 * button: a click on their body opens the tracked list.
 *
 * What each browser can answer: Chrome's `getAll()` lists what is on screen or in the notification centre, and
 * `update()` answers false when the notification is no longer shown. Firefox has no `update`, and its `getAll()`
 * forgets a notification once it has left the screen (at once without a notification server): there `onScreen()`
 * answers undefined ("cannot tell").
 */
import type { browser as browserApi } from 'wxt/browser';
import { t } from '../i18n';
import type { NotificationContent } from './content';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** Prefix of the notification of one intent's final outcome. */
export const SINGLE = 'svc-intent:';
/** Prefix of the summary of several intents that finished together. */
export const GROUP = 'svc-group:';
/** Prefix of "taking longer than expected". */
export const STUCK = 'svc-stuck:';
/** Prefix of progress notifications. */
export const PROGRESS = 'svc-progress:';
/** Prefix of the "while you were away" summary; a click opens the popup. */
export const AWAY = 'svc-away:';
/** Prefix of a disagreement between a chain and the service about one intent (`svc-chain:<intentId>:<ms>`). */
export const CHAIN = 'svc-chain:';
/** Prefix of plain information notifications (`svc-info:<ms>:<n>`, what a user's action did); a click opens nothing. */
export const INFO = 'svc-info:';

/** The intentIds a notification id made here stands for ([] for any other id, the away summary included). */
export function intentIdsOfNotification(notificationId: string): string[] {
  for (const prefix of [SINGLE, STUCK, PROGRESS, CHAIN]) {
    if (notificationId.startsWith(prefix)) {
      const rest = notificationId.slice(prefix.length);
      const cut = rest.lastIndexOf(':');
      return cut > 0 ? [rest.slice(0, cut)] : [];
    }
  }
  if (notificationId.startsWith(GROUP)) {
    const rest = notificationId.slice(GROUP.length);
    const cut = rest.indexOf(':');
    return cut > 0
      ? rest
          .slice(cut + 1)
          .split(',')
          .filter(Boolean)
      : [];
  }
  return [];
}

/** The single intent of a per-intent notification id, or undefined (groups and other ids). */
export function intentIdOfNotification(notificationId: string): string | undefined {
  return [SINGLE, STUCK, PROGRESS, CHAIN].some((prefix) => notificationId.startsWith(prefix))
    ? intentIdsOfNotification(notificationId)[0]
    : undefined;
}

/** How a notification is shown. */
export interface ShowOptions {
  /** Play the system sound (Chrome; Firefox decides itself). */
  sound: boolean;
  /** Chrome: add "Open in explorer" after "View receipt" (only for an id of one intent). */
  explorer?: boolean;
}

/** The adapter: each call is one `browser.notifications` call; rejections are passed on (the pipeline retries). */
export interface NotificationAdapter {
  /** Firefox: no update, no buttons, `getAll()` forgets. */
  readonly firefox: boolean;
  /** Ids on screen (Chrome: `getAll()`); undefined on Firefox, which cannot tell. */
  onScreen(): Promise<Set<string> | undefined>;
  /** Creates notification `id` (Chrome: an id still shown is replaced in place). */
  create(id: string, content: NotificationContent, o: ShowOptions): Promise<void>;
  /** Chrome: changes notification `id` in place; false when it is no longer shown. Firefox: always false (no call). */
  update(id: string, content: NotificationContent, o: ShowOptions): Promise<boolean>;
  /** Removes notification `id` (idempotent). */
  clear(id: string): Promise<void>;
}

/** Creates the adapter over `browser.notifications`; `iconUrl` is extension-relative. */
export function createNotificationAdapter(browser: Browser, options: { iconUrl: string; firefox: boolean }): NotificationAdapter {
  const { firefox } = options;
  const optionsOf = (id: string, content: NotificationContent, o: ShowOptions) => {
    const base = {
      type: 'basic' as const,
      iconUrl: browser.runtime.getURL(options.iconUrl as '/icon/128.png'),
      title: content.title,
      message: content.message,
    };
    if (firefox) return base;
    const single = intentIdOfNotification(id) !== undefined;
    const buttons = single ? [{ title: t('viewReceipt') }, ...(o.explorer ? [{ title: t('openInExplorer') }] : [])] : [];
    return { ...base, priority: 2, silent: !o.sound, ...(buttons.length > 0 ? { buttons } : {}) } as typeof base;
  };
  return {
    firefox,
    async onScreen() {
      if (firefox) return undefined;
      return new Set(Object.keys(await browser.notifications.getAll()));
    },
    async create(id, content, o) {
      await browser.notifications.create(id, optionsOf(id, content, o));
    },
    async update(id, content, o) {
      // Firefox has no notifications.update (WXT's types claim it everywhere). Looked up at each call, as create is.
      const update = (browser.notifications as { update?: (id: string, o: object) => Promise<boolean> }).update;
      if (firefox || !update) return false;
      return (await update(id, optionsOf(id, content, o))) === true;
    },
    async clear(id) {
      await browser.notifications.clear(id);
    },
  };
}
