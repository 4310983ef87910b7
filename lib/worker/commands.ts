/** What the keyboard commands do in the worker (`_execute_action` is the browser's own: it opens the popup). */
import { findIntentId } from '../api/intent-id';
import { COMMAND_TRACK_CLIPBOARD } from '../commands';
import { t } from '../i18n';
import type { ReplyOf } from '../messages';
import type { ClipboardReader } from './clipboard';

/** What the commands use. */
export interface CommandDeps {
  /** Whether the optional `clipboardRead` permission is granted. */
  canReadClipboard(): Promise<boolean>;
  readClipboard: ClipboardReader;
  /** The context menu's action: tracks an intentId, or every intent of a transaction hash, and says so. */
  trackSelection(text: string): Promise<ReplyOf<'track-text'>>;
  /** Shows a plain information notification. */
  inform(message: string): Promise<unknown>;
}

/** Messages of the clipboard command (whole sentences, one per case, so they can move to `_locales`). */
export const CLIPBOARD_COMMAND_TEXT = {
  get noPermission() {
    return t('commandNoPermission');
  },
  get unreadable() {
    return t('commandUnreadable');
  },
  get empty() {
    return t('commandEmpty');
  },
};

/**
 * Creates the handler of `commands.onCommand`. The clipboard command tracks what the clipboard holds (as the context
 * menu does with a selection) and tells the user with a notification; without the permission it says how to give it
 * (a shortcut is no place for the browser's prompt). Resolves with the outcome; never throws.
 */
export function createCommandHandler(deps: CommandDeps): (command: string) => Promise<ReplyOf<'track-text'> | undefined> {
  const fail = async (message: string): Promise<ReplyOf<'track-text'>> => {
    await deps.inform(message);
    return { ok: false, message };
  };
  return async (command) => {
    if (command !== COMMAND_TRACK_CLIPBOARD) return undefined;
    if (!(await deps.canReadClipboard().catch(() => false))) return fail(CLIPBOARD_COMMAND_TEXT.noPermission);
    let text: string;
    try {
      text = await deps.readClipboard();
    } catch {
      return fail(CLIPBOARD_COMMAND_TEXT.unreadable);
    }
    if (!findIntentId(text)) return fail(CLIPBOARD_COMMAND_TEXT.empty);
    return deps.trackSelection(text);
  };
}
