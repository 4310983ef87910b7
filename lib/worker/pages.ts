/** The extension's own pages the worker opens in a tab. */
import type { browser as browserApi } from 'wxt/browser';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** URL of the popup page showing the receipt of `intentId` (the popup reads `#intent=`). */
export function receiptPageUrl(browser: Browser, intentId: string): string {
  return `${browser.runtime.getURL('/popup.html')}#intent=${encodeURIComponent(intentId)}`;
}

/** Opens the receipt of `intentId` in a new tab. */
export function openReceiptPage(browser: Browser, intentId: string): Promise<unknown> {
  return browser.tabs.create({ url: receiptPageUrl(browser, intentId) });
}

/** Opens the popup page (the tracked list) in a new tab. */
export function openTrackedPage(browser: Browser): Promise<unknown> {
  return browser.tabs.create({ url: browser.runtime.getURL('/popup.html') });
}

/** URL of the welcome page: what the extension does, its setup, the first intent to track, the shortcuts. */
export function welcomePageUrl(browser: Browser): string {
  return browser.runtime.getURL('/welcome.html');
}

/**
 * `runtime.onInstalled`: a new install (`reason` 'install') opens the welcome page in a tab; an update, a browser
 * update or a shared-module change opens nothing. Resolves true when it opened the page.
 */
export async function welcomeOnInstall(browser: Browser, reason: string): Promise<boolean> {
  if (reason !== 'install') return false;
  await browser.tabs.create({ url: welcomePageUrl(browser) });
  return true;
}
