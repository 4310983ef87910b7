/**
 * Reading the clipboard from the background, for the "track the intent ID on the clipboard" keyboard command. The
 * Chrome MV3 worker has no DOM: it asks an offscreen document (reason CLIPBOARD). Firefox's MV3 background is an
 * event page with a DOM, where `navigator.clipboard.readText()` works with the `clipboardRead` permission.
 */
import type { browser as browserApi } from 'wxt/browser';
import { OFFSCREEN_READ_CLIPBOARD } from '../commands';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** Reads the clipboard's text; rejects when it cannot (no permission, no clipboard). */
export type ClipboardReader = () => Promise<string>;

/** The part of `chrome.offscreen` used here (the polyfill's types do not have it). */
export interface OffscreenApi {
  createDocument(params: { url: string; reasons: string[]; justification: string }): Promise<void>;
  hasDocument?(): Promise<boolean>;
}

const OFFSCREEN_PATH = '/offscreen.html';

/**
 * Chrome: the clipboard through the offscreen document, created on first use and kept (Chrome allows one).
 * `offscreen` is `chrome.offscreen` (undefined where the browser has none: every read then rejects).
 */
export function createOffscreenClipboardReader(browser: Browser, offscreen: OffscreenApi | undefined): ClipboardReader {
  let creating: Promise<void> | undefined;
  const ensureDocument = async () => {
    if (!offscreen) throw new Error('This browser has no offscreen documents.');
    if (await offscreen.hasDocument?.()) return;
    creating ??= offscreen
      .createDocument({
        url: browser.runtime.getURL(OFFSCREEN_PATH),
        reasons: ['CLIPBOARD'],
        justification: 'Read the intent ID the user copied, when they press the "track from clipboard" shortcut.',
      })
      .catch((err: unknown) => {
        // Created meanwhile by an earlier worker instance: that one answers as well.
        if (!String(err).includes('Only a single offscreen')) throw err;
      })
      .finally(() => {
        creating = undefined;
      });
    await creating;
  };
  return async () => {
    await ensureDocument();
    const text: unknown = await browser.runtime.sendMessage({ type: OFFSCREEN_READ_CLIPBOARD });
    if (typeof text !== 'string') throw new Error('The clipboard could not be read.');
    return text;
  };
}

/** Firefox: the event page reads the clipboard itself. */
export function createPageClipboardReader(): ClipboardReader {
  return () => navigator.clipboard.readText();
}
