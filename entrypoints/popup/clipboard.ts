/** The popup's access to the clipboard: `clipboardRead` is an optional permission, asked for on first use. */

import { t } from '@/lib/i18n';
import { CLIPBOARD_PERMISSION } from '@/lib/permissions';

/** Messages about the clipboard (whole sentences, one per case, so they can move to `_locales`). */
export const CLIPBOARD_TEXT = {
  get denied() {
    return t('clipboardDenied');
  },
  get unreadable() {
    return t('clipboardUnreadable');
  },
  get empty() {
    return t('clipboardEmpty');
  },
};

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
