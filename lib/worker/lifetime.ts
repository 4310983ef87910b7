/**
 * Keeping the MV3 worker useful across its short lives: the watchdog alarm that wakes it, the context-menu item
 * (created on install and update) and the keep-alive that stops Chrome from ending it during a long-poll.
 */
import type { browser as browserApi } from 'wxt/browser';
import { t } from '../i18n';
import type { Timers } from '../platform';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** Name of the watchdog alarm that wakes the worker and resumes the tracker. */
export const WATCHDOG_ALARM = 'svc-watchdog';
/** Period of the watchdog in minutes (Chrome's minimum is 0.5). */
export const WATCHDOG_PERIOD_MINUTES = 0.5;
/** While a request is in flight, an extension API is called this often (ms): Chrome stops a worker idle for 30 s. */
export const KEEP_ALIVE_MS = 20_000;
/** Id of the context-menu item "Track intent". */
export const MENU_TRACK = 'svc-track-selection';

/** Creates the watchdog alarm when it is missing (alarms can be lost across updates and restarts). */
export async function ensureWatchdog(browser: Browser): Promise<void> {
  const existing = await browser.alarms.get(WATCHDOG_ALARM);
  if (!existing) await browser.alarms.create(WATCHDOG_ALARM, { periodInMinutes: WATCHDOG_PERIOD_MINUTES });
}

/** Creates the "Track intent" item of the selection's context menu, replacing any earlier one. */
export async function ensureMenus(browser: Browser): Promise<void> {
  await browser.contextMenus.removeAll();
  browser.contextMenus.create({ id: MENU_TRACK, title: t('menuTrackIntent'), contexts: ['selection'] });
}

/**
 * Calls an extension API every {@link KEEP_ALIVE_MS} while `busy()`, on `timers` (the platform's; one timer re-armed
 * after each beat); returns a function that stops it.
 */
export function startKeepAlive(
  browser: Browser,
  busy: () => boolean,
  timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
): () => void {
  let stopped = false;
  let timer: unknown;
  const beat = () => {
    if (stopped) return;
    if (busy()) void browser.runtime.getPlatformInfo();
    timer = timers.setTimeout(beat, KEEP_ALIVE_MS);
  };
  timer = timers.setTimeout(beat, KEEP_ALIVE_MS);
  return () => {
    stopped = true;
    timers.clearTimeout(timer);
  };
}
