/** Puts the badge of `lib/notify/badge` on the toolbar button, at most once per burst of changes. */
import type { browser as browserApi } from 'wxt/browser';
import { badgeFor } from '../notify/badge';
import type { Timers } from '../platform';
import type { TrackedIntent, TrackerState } from '../store';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** Changes within this many ms of the first one make one badge update. */
export const BADGE_COALESCE_MS = 200;

/** The toolbar badge. */
export interface ToolbarBadge {
  /** Updates the badge now. Rejects when the browser refuses. */
  update(): Promise<void>;
  /** Updates the badge soon, once for any number of calls within {@link BADGE_COALESCE_MS}; never throws. */
  schedule(): void;
}

/**
 * Creates the badge over `read`, which gives the tracked intents and the tracker state as they are now; the coalescing
 * timer runs on `timers` (the platform's).
 */
export function createToolbarBadge(
  browser: Browser,
  read: () => Promise<{ intents: readonly TrackedIntent[]; state: TrackerState }>,
  timers: Pick<Timers, 'setTimeout'> = { setTimeout: (fn, ms) => setTimeout(fn, ms) },
): ToolbarBadge {
  let scheduled = false;
  const update = async () => {
    const { intents, state } = await read();
    const view = badgeFor(intents, state);
    await browser.action.setBadgeText({ text: view.text });
    await browser.action.setBadgeBackgroundColor({ color: view.color });
    await browser.action.setTitle({ title: view.title });
  };
  return {
    update,
    schedule() {
      if (scheduled) return;
      scheduled = true;
      timers.setTimeout(() => {
        scheduled = false;
        void update().catch(() => {});
      }, BADGE_COALESCE_MS);
    },
  };
}
