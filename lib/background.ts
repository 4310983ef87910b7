/**
 * The services of the background worker, built from the browser APIs: the tracker, the message handler, the
 * alarm watchdog, the keep-alive and notification clicks. `entrypoints/background.ts` only wires listeners to these.
 */
import type { browser as browserApi } from 'wxt/browser';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;
import { SvcClient } from './api/client';
import { parseIntentId } from './api/intent-id';
import { CHANGED, type Reply, Request } from './messages';
import { createBrowserNotifier, intentIdOfNotification } from './notify/browser';
import { describeError } from './format/errors';
import { badgeFor } from './notify/badge';
import {
  type IntentStore,
  type SettingsStore,
  createIntentStore,
  createReceiptCache,
  createSettingsStore,
  createTrackerStateStore,
} from './store';
import { type Clock, Tracker } from './tracker/engine';

/** Name of the watchdog alarm that wakes the worker and resumes loops. */
export const WATCHDOG_ALARM = 'svc-watchdog';
/** Period of the watchdog in minutes (Chrome's minimum is 0.5). */
export const WATCHDOG_PERIOD_MINUTES = 0.5;
/** While a request is in flight, an extension API is called this often (ms) so Chrome does not stop the worker. */
export const KEEP_ALIVE_MS = 20_000;

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
  /** Opens the receipt of the intent behind a clicked notification. */
  openNotification(notificationId: string): Promise<void>;
  /** Starts the keep-alive timer; returns a function that stops it. */
  startKeepAlive(): () => void;
}

/** Builds the background services. */
export function createBackground(browser: Browser): BackgroundServices {
  const intents = createIntentStore();
  const settings = createSettingsStore();
  const receipts = createReceiptCache();
  const stateStore = createTrackerStateStore();
  let badgeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Updates the toolbar badge soon (coalesces bursts of changes). */
  const updateBadge = () => {
    if (badgeTimer) return;
    badgeTimer = setTimeout(() => {
      badgeTimer = undefined;
      void (async () => {
        const view = badgeFor(await intents.list(), (await stateStore.get()) ?? {});
        await browser.action.setBadgeText({ text: view.text });
        await browser.action.setBadgeBackgroundColor({ color: view.color });
        await browser.action.setTitle({ title: view.title });
      })().catch(() => {});
    }, 200);
  };
  let client: { key: string; client: SvcClient } | undefined;

  /** The client for the current settings (rebuilt when they change), or undefined when not configured. */
  async function currentClient(): Promise<SvcClient | undefined> {
    const s = await settings.get();
    if (!s?.baseUrl || !s.accessKey) return undefined;
    const key = `${s.baseUrl}\n${s.accessKey}`;
    if (client?.key !== key) {
      try {
        client = { key, client: new SvcClient({ baseUrl: s.baseUrl, accessKey: s.accessKey }) };
      } catch {
        return undefined;
      }
    }
    return client.client;
  }

  const tracker = new Tracker({
    store: intents,
    stateStore,
    clock: realClock,
    notifier: createBrowserNotifier(browser, '/icon/128.png'),
    transport: currentClient,
    onChange(intentId) {
      // No receiver (popup closed) is normal.
      browser.runtime.sendMessage({ type: CHANGED, intentId }).catch(() => {});
      updateBadge();
    },
    onStateChange() {
      browser.runtime.sendMessage({ type: CHANGED, intentId: '' }).catch(() => {});
      updateBadge();
    },
  });

  async function handle(request: Request): Promise<Reply> {
    switch (request.type) {
      case 'track': {
        const parsed = parseIntentId(request.intentId);
        if (!parsed.ok) return { ok: false, message: parsed.message };
        const { added } = await tracker.track(parsed.intentId);
        return { ok: true, added, intentId: parsed.intentId };
      }
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
      case 'resume':
        await tracker.resume();
        return { ok: true };
      case 'settings-saved':
        client = undefined;
        await tracker.retryNow();
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
    async openNotification(notificationId) {
      const intentId = intentIdOfNotification(notificationId);
      if (!intentId) return;
      await browser.notifications.clear(notificationId);
      await browser.tabs.create({ url: `${browser.runtime.getURL('/popup.html')}#intent=${encodeURIComponent(intentId)}` });
    },
    startKeepAlive() {
      const timer = setInterval(() => {
        if (tracker.busy) void browser.runtime.getPlatformInfo();
      }, KEEP_ALIVE_MS);
      return () => clearInterval(timer);
    },
  };
}
