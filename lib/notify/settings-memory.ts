/**
 * The notification settings as the pipeline reads them (`./pipeline`): what a failed read means. The user's choices
 * (quiet hours, sound, which outcomes are told) are never replaced by the defaults because IndexedDB refused one read:
 * - a read that succeeds is the truth (nothing saved: {@link DEFAULT_NOTIFY}), and is remembered for this worker's life;
 * - a read that fails gives the last settings read in this life;
 * - a read that fails with none read before rejects with {@link SettingsUnreadableError}: nothing is decided — the
 *   notification stays where it is (the tracker's `pending` record, or its outbox job) and is decided at the next
 *   wake-up whose read succeeds (the 30 s watchdog at the latest).
 */
import { DEFAULT_NOTIFY, type NotifySettings } from '../store';

/** The settings could not be read, and none were read before in this worker's life. `cause`: the read's error. */
export class SettingsUnreadableError extends Error {
  override name = 'SettingsUnreadableError';
}

/**
 * Wraps `read` (the saved notification settings; undefined when none were saved) as described in the module's
 * docstring. The result resolves with complete settings (defaults under what was saved), or rejects with
 * {@link SettingsUnreadableError}.
 */
export function rememberedSettings(read: () => Promise<NotifySettings | undefined>): () => Promise<NotifySettings> {
  let lastGood: NotifySettings | undefined;
  return async () => {
    try {
      const saved = await read();
      lastGood = { ...DEFAULT_NOTIFY, ...(saved ?? {}) };
      return lastGood;
    } catch (err) {
      if (lastGood) return lastGood;
      throw new SettingsUnreadableError('notification settings unreadable', { cause: err });
    }
  };
}
