/**
 * The services of the background worker, built from the browser APIs: the tracker, the message handler, the alarm
 * watchdog, the keep-alive, notification clicks and buttons, the context menu, the omnibox, watched addresses and
 * the badge. `entrypoints/background.ts` only wires listeners to these.
 */
import type { browser as browserApi } from 'wxt/browser';
import { SvcClient } from './api/client';
import { isNotFound } from './api/errors';
import { findIntentId, parseIntentId } from './api/intent-id';
import { describeError } from './format/errors';
import { shortId } from './format/intent';
import { CHANGED, type Reply, Request } from './messages';
import { badgeFor } from './notify/badge';
import { createBrowserNotifier, intentIdOfNotification, intentIdsOfNotification } from './notify/browser';
import { outcomeExplorerUrl } from './notify/content';
import {
  createIntentStore,
  createReceiptCache,
  createSettingsStore,
  createTrackerStateStore,
  createWatchedCheckpoints,
  type IntentStore,
  type SettingsStore,
  type TrackedIntent,
} from './store';
import { realClock } from './tracker/clock';
import { Tracker } from './tracker/engine';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** Name of the watchdog alarm that wakes the worker and resumes loops. */
export const WATCHDOG_ALARM = 'svc-watchdog';
/** Period of the watchdog in minutes (Chrome's minimum is 0.5). */
export const WATCHDOG_PERIOD_MINUTES = 0.5;
/** While a request is in flight, an extension API is called this often (ms) so Chrome does not stop the worker. */
export const KEEP_ALIVE_MS = 20_000;
/** Id of the context-menu item "Track intent". */
export const MENU_TRACK = 'svc-track-selection';
/** Watched addresses are checked at most this often (ms). */
export const WATCH_INTERVAL_MS = 60_000;
/** GetIntentHistory pages (of 50) one watched-address check reads at most per address. */
export const WATCH_MAX_PAGES = 5;
/** Finished intents kept at most; the oldest are pruned beyond it. */
export const MAX_FINISHED = 200;

/** What the menu says after tracking the `ids` of transaction `hash`, `added` of them new. */
function transactionMessage(hash: string, ids: string[], added: number): string {
  const tx = shortId(hash);
  if (added === 0) {
    return ids.length === 1
      ? `Intent ${shortId(ids[0]!)} of transaction ${tx} is already tracked.`
      : `The ${ids.length} intents of transaction ${tx} are already tracked.`;
  }
  if (ids.length === 1) return `Tracking intent ${shortId(ids[0]!)} of transaction ${tx}.`;
  const known = ids.length - added;
  return `Tracking ${added} intent${added === 1 ? '' : 's'} of transaction ${tx}${known > 0 ? ` (${known} already tracked)` : ''}.`;
}

/** Everything the background entrypoint wires. */
export interface BackgroundServices {
  tracker: Tracker;
  intents: IntentStore;
  settings: SettingsStore;
  /** Handles a message from an extension page; never throws. */
  handleMessage(message: unknown): Promise<Reply> | undefined;
  /** Ensures the watchdog alarm exists (alarms can be lost across updates and restarts). */
  ensureWatchdog(): Promise<void>;
  /** Creates the context-menu item (on install and update). */
  ensureMenus(): Promise<void>;
  /** Context menu clicked on a selection: track the intent, or every intent of a transaction hash. */
  trackSelection(selectionText: string): Promise<Reply>;
  /** Omnibox (`intent <id>`): opens that intent's receipt. */
  openFromOmnibox(text: string): Promise<void>;
  /** Opens the receipt of the intent behind a clicked notification (the tracked list for a summary). */
  openNotification(notificationId: string): Promise<void>;
  /** A notification button: 0 = View receipt, 1 = Open in explorer. */
  notificationButton(notificationId: string, index: number): Promise<void>;
  /** Tracks new intents of the watched addresses (throttled to once a minute unless `force`). */
  checkWatched(force?: boolean): Promise<number>;
  /** Updates the toolbar badge now. */
  updateBadge(): Promise<void>;
  /** Starts the keep-alive timer; returns a function that stops it. */
  startKeepAlive(): () => void;
}

/** Builds the background services. */
export function createBackground(browser: Browser): BackgroundServices {
  const intents = createIntentStore();
  const settings = createSettingsStore();
  const receipts = createReceiptCache();
  const stateStore = createTrackerStateStore();
  const watched = createWatchedCheckpoints();
  const firefox = import.meta.env?.BROWSER === 'firefox';
  let client: { key: string; client: SvcClient } | undefined;
  let lastWatchCheck = 0;

  /** The client for the current settings (rebuilt when they change), or undefined when not configured. */
  async function currentClient(): Promise<SvcClient | undefined> {
    const s = await settings.get();
    if (!s?.baseUrl || !s.accessKey) return undefined;
    const key = `${s.baseUrl}\n${s.accessKey}`;
    if (client?.key !== key) {
      try {
        client = { key, client: new SvcClient({ baseUrl: s.baseUrl, accessKey: s.accessKey, timeoutMs: 20_000 }) };
      } catch {
        return undefined;
      }
    }
    return client.client;
  }

  async function updateBadge(): Promise<void> {
    const view = badgeFor(await tracker.list(), tracker.state);
    await browser.action.setBadgeText({ text: view.text });
    await browser.action.setBadgeBackgroundColor({ color: view.color });
    await browser.action.setTitle({ title: view.title });
  }
  let badgeScheduled = false;
  /** Updates the badge soon (coalesces bursts of changes). */
  const scheduleBadge = () => {
    if (badgeScheduled) return;
    badgeScheduled = true;
    setTimeout(() => {
      badgeScheduled = false;
      void updateBadge().catch(() => {});
    }, 200);
  };

  const notifier = createBrowserNotifier(browser, {
    iconUrl: '/icon/128.png',
    firefox,
    settings: async () => (await settings.get())?.notify,
  });

  const tracker = new Tracker({
    store: intents,
    stateStore,
    clock: realClock,
    notifier,
    transport: currentClient,
    onChange(intentId) {
      // No receiver (popup closed) is normal.
      browser.runtime.sendMessage({ type: CHANGED, intentId }).catch(() => {});
      scheduleBadge();
    },
    onStateChange() {
      browser.runtime.sendMessage({ type: CHANGED, intentId: '' }).catch(() => {});
      scheduleBadge();
    },
  });

  /** A plain information notification (no intent behind it). */
  const inform = (message: string) =>
    browser.notifications
      .create(`svc-info:${Date.now()}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: 'Svc Intent Tracker',
        message,
      })
      .catch(() => undefined);

  /** Forgets the oldest finished intents beyond {@link MAX_FINISHED}. */
  async function pruneFinished(): Promise<void> {
    const finished = (await tracker.list())
      .filter((t) => t.phase === 'final')
      .sort((a, b) => (b.notifiedAt ?? b.addedAt) - (a.notifiedAt ?? a.addedAt));
    for (const t of finished.slice(MAX_FINISHED)) await tracker.remove(t.intentId);
  }

  async function track(intentId: string, extra: Pick<TrackedIntent, 'source' | 'estimatedDuration'> = {}): Promise<Reply> {
    const parsed = parseIntentId(intentId);
    if (!parsed.ok) return { ok: false, message: parsed.message };
    const { added } = await tracker.track(parsed.intentId, extra);
    if (added) void pruneFinished();
    return { ok: true, added, intentId: parsed.intentId };
  }

  async function trackSelection(text: string): Promise<Reply> {
    const id = findIntentId(text);
    if (!id) {
      await inform('The selection holds no intent ID or transaction hash.');
      return { ok: false, message: 'The selection holds no intent ID or transaction hash.' };
    }
    const c = await currentClient();
    if (c && /^0x[0-9a-f]{64}$/.test(id)) {
      try {
        await c.getIntentReceipt({ intentId: id }, { timeoutMs: 10_000 });
      } catch (err) {
        if (isNotFound(err)) {
          // Not an intentId the service knows: maybe a transaction hash of some leg.
          try {
            const found = await c.searchByTransactionHash(id, { timeoutMs: 10_000 });
            if (found.intents.length > 0) {
              let added = 0;
              for (const i of found.intents) {
                const r = await track(i.intentId, { source: 'menu', estimatedDuration: i.quote?.estimatedDuration ?? undefined });
                if (r.ok && r.added) added++;
              }
              await inform(
                transactionMessage(
                  id,
                  found.intents.map((i) => i.intentId),
                  added,
                ),
              );
              return { ok: true, added: added > 0, intentId: found.intents[0]!.intentId };
            }
          } catch {
            // fall through: track it as an intentId (the tracker keeps trying for a while)
          }
        }
      }
    }
    const reply = await track(id, { source: 'menu' });
    if (reply.ok) await inform(reply.added ? `Tracking intent ${shortId(id)}.` : `Intent ${shortId(id)} is already tracked.`);
    return reply;
  }

  async function checkWatched(force = false): Promise<number> {
    const now = Date.now();
    if (!force && now - lastWatchCheck < WATCH_INTERVAL_MS) return 0;
    lastWatchCheck = now;
    const s = await settings.get();
    const addresses = s?.autoTrackAddresses ?? [];
    const c = await currentClient();
    if (!c || addresses.length === 0) return 0;
    const checkpoints = await watched.get();
    let added = 0;
    for (const address of addresses) {
      // Oldest first from the checkpoint, so that a check which stops early leaves a cursor to resume from and no
      // intent behind it. The first check looks back one hour.
      const start = checkpoints[address] ?? { fromTime: Math.floor(now / 1000) - 3600 };
      let after = start.after;
      try {
        let more = false;
        for (let page = 0; page < WATCH_MAX_PAGES; page++) {
          const res = await c.getIntentHistoryLite({
            byOwnerAddress: address,
            fromTime: start.fromTime,
            page: { column: 'createdAt', sort: [{ column: 'createdAt', order: 'ASC' }], pageSize: 50, ...(after ? { after } : {}) },
          });
          for (const row of res.intents) {
            const r = await track(row.intentId, { source: 'watched' });
            if (r.ok && r.added) added++;
          }
          more = !!res.nextPage && res.nextPage.more !== false && typeof res.nextPage.after === 'number';
          if (!more) break;
          after = res.nextPage!.after!;
        }
        // Everything read: the next check starts a minute before this one (an intent may show up in the history a
        // little after it was created). Otherwise it resumes at the cursor.
        checkpoints[address] = more ? { fromTime: start.fromTime, after: after! } : { fromTime: Math.floor(now / 1000) - 60 };
      } catch {
        // Resume after the last page read, at the next check.
        if (after !== start.after) checkpoints[address] = { fromTime: start.fromTime, after: after! };
      }
    }
    await watched.set(checkpoints);
    return added;
  }

  const receiptTab = (intentId: string) =>
    browser.tabs.create({ url: `${browser.runtime.getURL('/popup.html')}#intent=${encodeURIComponent(intentId)}` });

  async function handle(request: Request): Promise<Reply> {
    switch (request.type) {
      case 'track':
        return track(request.intentId, {
          source: 'user',
          ...(request.estimatedDuration ? { estimatedDuration: request.estimatedDuration } : {}),
        });
      case 'remove':
        await tracker.remove(request.intentId);
        return { ok: true };
      case 'refresh':
        await tracker.refresh(request.intentId);
        return { ok: true };
      case 'retry':
        await tracker.retryNow(request.intentId);
        return { ok: true };
      case 'receipt': {
        // The popup's own read: not through the tracker's connection slots, so it never waits behind a long-poll.
        const c = await currentClient();
        if (!c) return { ok: false, message: 'Set the service URL and access key in the settings.', openSettings: true };
        try {
          const { intentReceipt } = await c.getIntentReceipt({ intentId: request.intentId }, { timeoutMs: 15_000 });
          await receipts.put(request.intentId, { receipt: intentReceipt, fetchedAt: Date.now() });
          return { ok: true, receipt: intentReceipt };
        } catch (err) {
          const { text, openSettings } = describeError(err);
          return { ok: false, message: text, openSettings };
        }
      }
      case 'track-text':
        return trackSelection(request.text);
      case 'seen':
        await tracker.markSeen();
        await updateBadge();
        return { ok: true };
      case 'clear-finished': {
        for (const t of await tracker.list()) if (t.phase === 'final') await tracker.remove(t.intentId);
        return { ok: true };
      }
      case 'lookup': {
        // The popup's History, Search, Stuck funds and Routes calls: direct, never through the tracker's slots.
        const c = await currentClient();
        if (!c) return { ok: false, message: 'Set the service URL and access key in the settings.', openSettings: true };
        try {
          const data = await (c[request.operation] as (r: unknown) => Promise<unknown>).call(c, request.request ?? {});
          return { ok: true, data };
        } catch (err) {
          const { text, openSettings } = describeError(err);
          return { ok: false, message: text, openSettings };
        }
      }
      case 'resume':
        await tracker.resume();
        return { ok: true };
      case 'settings-saved':
        client = undefined;
        await tracker.retryNow();
        void checkWatched(true);
        return { ok: true };
    }
  }

  return {
    tracker,
    intents,
    settings,
    handleMessage(message) {
      const parsed = Request.safeParse(message);
      if (!parsed.success) return undefined;
      return handle(parsed.data).catch((err) => ({
        ok: false as const,
        message: `Something went wrong: ${err instanceof Error ? err.message : String(err)}`,
      }));
    },
    async ensureWatchdog() {
      const existing = await browser.alarms.get(WATCHDOG_ALARM);
      if (!existing) await browser.alarms.create(WATCHDOG_ALARM, { periodInMinutes: WATCHDOG_PERIOD_MINUTES });
    },
    async ensureMenus() {
      await browser.contextMenus.removeAll();
      browser.contextMenus.create({ id: MENU_TRACK, title: 'Track intent', contexts: ['selection'] });
    },
    trackSelection: (text) => trackSelection(text).catch((err) => ({ ok: false as const, message: String(err) })),
    async openFromOmnibox(text) {
      const id = findIntentId(text);
      if (!id) {
        await inform(`“${text.slice(0, 80)}” is not an intent ID.`);
        return;
      }
      await receiptTab(id);
    },
    async openNotification(notificationId) {
      const ids = intentIdsOfNotification(notificationId);
      if (ids.length === 0) return;
      await browser.notifications.clear(notificationId);
      if (ids.length === 1) await receiptTab(ids[0]!);
      else await browser.tabs.create({ url: browser.runtime.getURL('/popup.html') });
    },
    async notificationButton(notificationId, index) {
      const intentId = intentIdOfNotification(notificationId);
      if (!intentId) return;
      await browser.notifications.clear(notificationId);
      if (index === 0) {
        await receiptTab(intentId);
        return;
      }
      const intent = await intents.get(intentId);
      const url = intent ? outcomeExplorerUrl(intent) : undefined;
      if (url) await browser.tabs.create({ url });
    },
    checkWatched,
    updateBadge,
    startKeepAlive() {
      const timer = setInterval(() => {
        if (tracker.busy) void browser.runtime.getPlatformInfo();
      }, KEEP_ALIVE_MS);
      return () => clearInterval(timer);
    },
  };
}
