/**
 * Desktop notifications through the WebExtension `notifications` API.
 *
 * Ids: `svc-intent:<intentId>:<time>` for one intent, `svc-group:<time>:<id>,<id>,…` for a summary, and
 * `svc-stuck:<intentId>:<time>` for "taking longer than expected". A notification can be traced to its intents
 * (click → receipt) and found again after a worker restart.
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
import { DEFAULT_NOTIFY, type NotifySettings, type TrackedIntent } from '../store';
import type { Notifier } from '../tracker/types';
import { groupContent, type NotificationContent, notificationContent, outcomeExplorerUrl, stuckContent } from './content';
import type { NotificationMarks } from './marks';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

const SINGLE = 'svc-intent:';
const GROUP = 'svc-group:';
const STUCK = 'svc-stuck:';

/** The intentIds a notification id made here stands for ([] for any other id). */
export function intentIdsOfNotification(notificationId: string): string[] {
  for (const prefix of [SINGLE, STUCK]) {
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
  return notificationId.startsWith(SINGLE) || notificationId.startsWith(STUCK) ? intentIdsOfNotification(notificationId)[0] : undefined;
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

/** A Notifier backed by `browser.notifications`, with grouping, buttons and the stuck warning. */
export function createBrowserNotifier(
  browser: Browser,
  options: BrowserNotifierOptions,
): Notifier & {
  showStuck(intent: TrackedIntent, minutes: number): Promise<void>;
} {
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

  const create = async (id: string, content: NotificationContent, withButtons: string | undefined, sound: boolean) => {
    const base = {
      type: 'basic' as const,
      iconUrl: browser.runtime.getURL(options.iconUrl as '/icon/128.png'),
      title: content.title,
      message: content.message,
    };
    await browser.notifications.create(
      id,
      options.firefox
        ? base
        : ({
            ...base,
            priority: 2,
            silent: !sound,
            buttons: [{ title: 'View receipt' }, ...(withButtons ? [{ title: 'Open in explorer' }] : [])],
          } as typeof base),
    );
  };

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
      return Object.keys(all).some((id) => !id.startsWith(STUCK) && intentIdsOfNotification(id).includes(intentId));
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
