/** The popup's access to the clipboard: `clipboardRead` is an optional permission, asked for on first use. */
import { CLIPBOARD_PERMISSION } from '@/lib/permissions';

/** Messages about the clipboard (whole sentences, one per case, so they can move to `_locales`). */
export const CLIPBOARD_TEXT = {
  denied: 'Reading the clipboard was not allowed. Paste the intent ID into the box instead.',
  unreadable: 'Could not read the clipboard. Paste the intent ID into the box instead.',
  empty: 'The clipboard holds no intent ID. Copy one, or paste it into the box.',
} as const;

/**
 * Asks the browser for `clipboardRead` (a prompt the first time; at once when already granted). Must be called
 * synchronously from a click. Resolves false when refused or when the browser cannot ask.
 */
export function requestClipboardPermission(): Promise<boolean> {
  return browser.permissions.request(CLIPBOARD_PERMISSION).catch(() => false);
}

/** Whether `clipboardRead` is granted already (never asks). */
export function hasClipboardPermission(): Promise<boolean> {
  return browser.permissions.contains(CLIPBOARD_PERMISSION).catch(() => false);
}
