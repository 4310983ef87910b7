/**
 * Desktop notifications through the WebExtension `notifications` API.
 *
 * Ids: `svc-intent:<intentId>:<time>` for one intent, `svc-group:<time>:<id>,<id>,…` for a summary,
 * `svc-stuck:<intentId>:<time>` for "taking longer than expected", `svc-progress:<intentId>:<time>` for the optional
 * progress notification and `svc-away:<time>` for the "while you were away" summary (`./calm-notifier`). A
 * notification can be traced to its intents (click → receipt) and found again after a worker restart.
 *
 * Grouping: the first notification shows at once; others that come within `groupWindowMs` (500 ms) of it are held and
 * shown together — one summary when two or more, so fifty intents that finish together make a few notifications, not
 * fifty. The held ones go once none has come for `groupQuietMs` (100 ms: the rows of one history page arrive within
 * it), once per window; after that, when the window closes. The window never stretches: nothing is held longer than
 * `groupWindowMs`, and a window makes at most three notifications.
 * Chrome gets "View receipt" / "Open in explorer" buttons; Firefox the basic form.
 * Outcomes switched off in the settings are not shown (and count as delivered: never shown later). A settings read
 * that fails falls back to the defaults: a notification is never held back by it.
 *
 * "Already shown?" (`exists`, asked before every delivery and when a worker restart finds a `pending` record): Chrome
 * answers from `notifications.getAll()`. Firefox forgets a notification once it leaves the screen, so there the
 * notifier marks each intent in IndexedDB ({@link NotificationMarks}) before creating its notification and answers
 * from the marks: at most once (README, "Exactly-once notifications").
 */
import type { browser as browserApi } from 'wxt/browser';
import { t } from '../i18n';
import { DEFAULT_NOTIFY, type NotifySettings, type TrackedIntent } from '../store';
import type { Notifier } from '../tracker/types';
import { groupContent, type NotificationContent, notificationContent, outcomeExplorerUrl, stuckContent } from './content';
import type { NotificationMarks } from './marks';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

const SINGLE = 'svc-intent:';
const GROUP = 'svc-group:';
const STUCK = 'svc-stuck:';
/** Prefix of progress notifications (not a final one unless `./calm-notifier` recorded it so). */
export const PROGRESS = 'svc-progress:';
/** Prefix of the "while you were away" summary; a click opens the popup. */
export const AWAY = 'svc-away:';

/** The intentIds a notification id made here stands for ([] for any other id). */
export function intentIdsOfNotification(notificationId: string): string[] {
  for (const prefix of [SINGLE, STUCK, PROGRESS]) {
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
  return notificationId.startsWith(SINGLE) || notificationId.startsWith(STUCK) || notificationId.startsWith(PROGRESS)
    ? intentIdsOfNotification(notificationId)[0]
    : undefined;
}

/** Whether the settings want a notification for this final status. */
export function wantsNotification(status: string | undefined, s: NotifySettings): boolean {
  switch (status) {
    case 'SUCCEEDED':
      return s.succeeded;
    case 'FAILED':
      return s.failed;
    case 'REFUNDED':
    case 'ABORTED':
      return s.refunded;
    default:
      return false;
  }
}

/** Options of {@link createBrowserNotifier}. */
export interface BrowserNotifierOptions {
  /** Extension-relative icon path. */
  iconUrl: string;
  /** Firefox: basic notifications, no buttons, no `silent`. */
  firefox: boolean;
  /** Current notification settings (the defaults apply when undefined or when the read fails). */
  settings: () => Promise<NotifySettings | undefined>;
  /** Marks to answer `exists` from, instead of `notifications.getAll()` (Firefox). */
  marks?: NotificationMarks;
  now?: () => number;
  /** Window in ms during which further notifications are held and grouped (default 500). */
  groupWindowMs?: number;
  /** Held notifications go once none has come for this long (ms), once per window (default 100). */
  groupQuietMs?: number;
}

/** The notifier of {@link createBrowserNotifier}: a Notifier, the stuck warning, and what `./calm-notifier` needs. */
export interface BrowserNotifier extends Notifier {
  showStuck(intent: TrackedIntent, minutes: number): Promise<void>;
  /** Shows `content` as one notification with id `svc-away:<now>` (no buttons); resolves with its id. */
  showAway(content: NotificationContent): Promise<string>;
  /**
   * Puts `content` on screen as the progress notification `id` (no sound): creates it, or replaces what it says —
   * `notifications.update` on Chrome (created anew when it is gone), clear and create on Firefox, which has no update.
   */
  showProgress(id: string, content: NotificationContent, replace: boolean): Promise<void>;
  /**
   * Chrome: turns the progress notification `id` into the intent's final one in place (buttons included); resolves
   * with what it says, or undefined when it is no longer on screen. Firefox: always undefined (no update there).
   */
  finalInPlace(id: string, intent: TrackedIntent): Promise<NotificationContent | undefined>;
  /** Removes a notification from the screen (errors ignored). */
  clear(id: string): Promise<void>;
}

/** A Notifier backed by `browser.notifications`, with grouping, buttons and the stuck warning. */
export function createBrowserNotifier(browser: Browser, options: BrowserNotifierOptions): BrowserNotifier {
  const now = options.now ?? Date.now;
  const windowMs = options.groupWindowMs ?? 500;
  const quietMs = options.groupQuietMs ?? 100;
  let windowEnds = 0;
  /** The window's early (quiet) flush is spent: what comes later waits for the window's end. */
  let quietSpent = false;
  let held: Array<{ intent: TrackedIntent; resolve: (c: NotificationContent) => void; reject: (e: unknown) => void }> = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const marks = options.marks;
  const settings = () =>
    Promise.resolve()
      .then(options.settings)
      .then(
        (s) => s ?? DEFAULT_NOTIFY,
        () => DEFAULT_NOTIFY,
      );

  const chromeOptions = (content: NotificationContent, withButtons: string | undefined, sound: boolean) => {
    const base = {
      type: 'basic' as const,
      iconUrl: browser.runtime.getURL(options.iconUrl as '/icon/128.png'),
      title: content.title,
      message: content.message,
    };
    return options.firefox
      ? base
      : ({
          ...base,
          priority: 2,
          silent: !sound,
          buttons: [{ title: t('viewReceipt') }, ...(withButtons ? [{ title: t('openInExplorer') }] : [])],
        } as typeof base);
  };
  const create = async (id: string, content: NotificationContent, withButtons: string | undefined, sound: boolean) => {
    await browser.notifications.create(id, chromeOptions(content, withButtons, sound));
  };
  // Firefox has no notifications.update (WXT's types claim it everywhere). Looked up at each call, as create is.
  const update = (id: string, o: object): Promise<boolean> | undefined =>
    options.firefox ? undefined : (browser.notifications as { update?: (id: string, o: object) => Promise<boolean> }).update?.(id, o);

  const flush = async () => {
    flushTimer = undefined;
    const batch = held;
    held = [];
    if (batch.length === 0) return;
    try {
      const { sound } = await settings();
      await marks?.add(
        batch.map((b) => b.intent.intentId),
        now(),
      );
      if (batch.length === 1) {
        const { intent, resolve } = batch[0]!;
        const content = notificationContent(intent);
        await create(`${SINGLE}${intent.intentId}:${now()}`, content, outcomeExplorerUrl(intent), sound);
        resolve(content);
        return;
      }
      const content = groupContent(batch.map((b) => b.intent));
      await create(`${GROUP}${now()}:${batch.map((b) => b.intent.intentId).join(',')}`, content, undefined, sound);
      for (const b of batch) b.resolve(content);
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  };

  return {
    async show(intent) {
      const s = await settings();
      if (!wantsNotification(intent.status, s)) return undefined;
      const t = now();
      if (t >= windowEnds && held.length === 0) {
        // Nothing recent: show at once, and hold what follows for a moment.
        windowEnds = t + windowMs;
        quietSpent = false;
        const content = notificationContent(intent);
        await marks?.add([intent.intentId], t);
        await create(`${SINGLE}${intent.intentId}:${t}`, content, outcomeExplorerUrl(intent), s.sound);
        return content;
      }
      return new Promise<NotificationContent>((resolve, reject) => {
        held.push({ intent, resolve, reject });
        clearTimeout(flushTimer);
        const early = !quietSpent && t + quietMs < windowEnds;
        flushTimer = setTimeout(
          () => {
            if (early) quietSpent = true;
            void flush();
          },
          Math.max(0, (early ? t + quietMs : windowEnds) - t),
        );
      });
    },
    async exists(intentId) {
      if (marks) return marks.has(intentId);
      const all = await browser.notifications.getAll();
      // A progress notification is not the final one (unless turned into it: the calm notifier records that).
      return Object.keys(all).some(
        (id) => !id.startsWith(STUCK) && !id.startsWith(PROGRESS) && intentIdsOfNotification(id).includes(intentId),
      );
    },
    async showAway(content) {
      const { sound } = await settings();
      const id = `${AWAY}${now()}`;
      const { buttons: _none, ...summary } = chromeOptions(content, undefined, sound) as ReturnType<typeof chromeOptions> & {
        buttons?: unknown;
      };
      await browser.notifications.create(id, summary);
      return id;
    },
    async showProgress(id, content, replace) {
      const opts = chromeOptions(content, undefined, false);
      if (replace && (await update(id, opts))) return;
      if (replace && options.firefox) await browser.notifications.clear(id).catch(() => false);
      await browser.notifications.create(id, opts);
    },
    async finalInPlace(id, intent) {
      if (options.firefox) return undefined;
      const { sound } = await settings();
      const content = notificationContent(intent);
      const done = await update(id, chromeOptions(content, outcomeExplorerUrl(intent), sound));
      return done ? content : undefined;
    },
    async clear(id) {
      await browser.notifications.clear(id).catch(() => false);
    },
    async showStuck(intent, minutes) {
      const s = await settings();
      if (!s.stuck) return;
      await create(`${STUCK}${intent.intentId}:${now()}`, stuckContent(intent, minutes), undefined, s.sound);
    },
    async forget(intentId) {
      await marks?.remove(intentId);
    },
  };
}
