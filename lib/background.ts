/**
 * The services of the background worker, built from the browser APIs: the tracker, the message handler, the alarm
 * watchdog, the keep-alive, notification clicks and buttons, the context menu, the omnibox, watched addresses and
 * the badge. `entrypoints/background.ts` only wires listeners to these.
 */
import type { browser as browserApi } from 'wxt/browser';
import { SvcApi } from './api/api';
import { isNotFound } from './api/errors';
import { findIntentId, parseIntentId } from './api/intent-id';
import { describeError } from './format/errors';
import { shortId } from './format/intent';
import { CHANGED, type Reply, Request } from './messages';
import { badgeFor } from './notify/badge';
import { createBrowserNotifier, intentIdOfNotification, intentIdsOfNotification } from './notify/browser';
import { outcomeExplorerUrl } from './notify/content';
import { createNotificationMarks } from './notify/marks';
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
import { type Clock, Tracker } from './tracker/engine';

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
/** Finished intents kept at most; the oldest are pruned beyond it. */
export const MAX_FINISHED = 200;

/** A clock on real time. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

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
  let client: { key: string; client: SvcApi } | undefined;
  let lastWatchCheck = 0;

  /** The client for the current settings (rebuilt when they change), or undefined when not configured. */
  async function currentClient(): Promise<SvcApi | undefined> {
    const s = await settings.get();
    if (!s?.baseUrl || !s.accessKey) return undefined;
    const key = `${s.baseUrl}\n${s.accessKey}`;
    if (client?.key !== key) {
      try {
        client = { key, client: new SvcApi({ baseUrl: s.baseUrl, accessKey: s.accessKey, timeoutMs: 20_000 }) };
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

  // Firefox's notifications.getAll() forgets what left the screen: "already shown?" is answered from marks there.
  const marks = firefox ? createNotificationMarks() : undefined;
  const notifier = createBrowserNotifier(browser, {
    iconUrl: '/icon/128.png',
    firefox,
    marks,
    settings: async () => (await settings.get())?.notify,
  });
  /** Stops tracking an intent; a later re-track may notify again. */
  const untrack = async (intentId: string) => {
    await tracker.remove(intentId);
    await marks?.remove(intentId).catch(() => {});
  };

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
    for (const t of finished.slice(MAX_FINISHED)) await untrack(t.intentId);
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
              for (const i of found.intents)
                await track(i.intentId, { source: 'menu', estimatedDuration: i.quote?.estimatedDuration ?? undefined });
              const n = found.intents.length;
              await inform(
                n === 1
                  ? `Tracking intent ${shortId(found.intents[0]!.intentId)} of transaction ${shortId(id)}.`
                  : `Tracking ${n} intents of transaction ${shortId(id)}.`,
              );
              return { ok: true, added: true, intentId: found.intents[0]!.intentId };
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
    const checkedAt = await watched.get();
    let added = 0;
    for (const address of addresses) {
      // The first check looks back one hour; later ones from the previous check (a minute of overlap).
      const since = checkedAt[address] !== undefined ? checkedAt[address]! - 60 : Math.floor(now / 1000) - 3600;
      try {
        let after: number | undefined;
        for (let page = 0; page < 5; page++) {
          const res = await c.getIntentHistoryLite({
            byOwnerAddress: address,
            fromTime: since,
            page: { pageSize: 50, ...(after ? { after } : {}) },
          });
          for (const row of res.intents) {
            const r = await track(row.intentId, { source: 'watched' });
            if (r.ok && r.added) added++;
          }
          if (!res.nextPage || res.nextPage.more === false || typeof res.nextPage.after !== 'number') break;
          after = res.nextPage.after;
        }
        checkedAt[address] = Math.floor(now / 1000);
      } catch {
        // try again at the next check
      }
    }
    await watched.set(checkedAt);
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
        await untrack(request.intentId);
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
        for (const t of await tracker.list()) if (t.phase === 'final') await untrack(t.intentId);
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
