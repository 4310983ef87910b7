/** What the worker does for each request of the popup and options pages (`lib/messages.ts` lists them). */
import { describeError } from '../format/errors';
import { t } from '../i18n';
import type { Reply } from '../messages';
import type { CalmNotifier } from '../notify/calm-notifier';
import type { ReceiptCache } from '../store';
import type { Tracker } from '../tracker/engine';
import { isReceiptFor } from '../tracker/policy';
import type { ClientCache } from './client-cache';
import { intentDetails } from './details';
import type { MessageHandlers } from './dispatch';
import { clearFinished, type TrackIntent } from './track';

/** What the handlers use. */
export interface MessageHandlerDeps {
  tracker: Pick<Tracker, 'track' | 'list' | 'remove' | 'refresh' | 'retryNow' | 'markSeen' | 'resume'>;
  track: TrackIntent;
  clients: ClientCache;
  receipts: ReceiptCache;
  /** The context menu's action, for `track-text`. */
  trackSelection(text: string): Promise<Reply>;
  /** Updates the toolbar badge now. */
  updateBadge(): Promise<void>;
  /** Checks the watched addresses (`force` skips the once-a-minute throttle). */
  checkWatched(force?: boolean): Promise<number>;
  /** Mute and snooze; told when the settings change (quiet hours may have ended). */
  calm: Pick<CalmNotifier, 'mute' | 'snooze' | 'endSnooze' | 'release'>;
}

const notConfigured = (): Reply => ({ ok: false, message: t('notConfigured'), openSettings: true });

/** The reply for an error of a call the page asked for. */
function failed(err: unknown): Reply {
  const { text, openSettings } = describeError(err);
  return { ok: false, message: text, openSettings };
}

/** Creates the handler of every request type. */
export function createMessageHandlers(deps: MessageHandlerDeps): MessageHandlers {
  const { tracker } = deps;
  return {
    track: (r) => deps.track(r.intentId, { source: 'user', ...(r.estimatedDuration ? { estimatedDuration: r.estimatedDuration } : {}) }),
    'track-text': (r) => deps.trackSelection(r.text),
    async seen() {
      await tracker.markSeen();
      await deps.updateBadge();
      return { ok: true };
    },
    async 'clear-finished'() {
      await clearFinished(tracker);
      return { ok: true };
    },
    async remove(r) {
      await tracker.remove(r.intentId);
      return { ok: true };
    },
    async refresh(r) {
      await tracker.refresh(r.intentId);
      return { ok: true };
    },
    async retry(r) {
      await tracker.retryNow(r.intentId);
      return { ok: true };
    },
    async resume() {
      await tracker.resume();
      return { ok: true };
    },
    // The popup's own reads go straight to the service, never through the tracker's connection slots, so they never
    // wait behind a long-poll.
    async receipt(r) {
      const client = await deps.clients.current();
      if (!client) return notConfigured();
      try {
        const { intentReceipt } = await client.getIntentReceipt({ intentId: r.intentId }, { timeoutMs: 15_000 });
        // An answer about another intent (a misrouted answer) is not shown or kept as this one's.
        if (!isReceiptFor(r.intentId, intentReceipt.intentId)) {
          console.warn('receipt: the service answered about another intent; ignored', {
            asked: r.intentId,
            answered: intentReceipt.intentId,
          });
          return { ok: false, message: t('errForeignReceipt'), openSettings: false };
        }
        await deps.receipts.put(r.intentId, { receipt: intentReceipt, fetchedAt: Date.now() });
        return { ok: true, receipt: intentReceipt };
      } catch (err) {
        return failed(err);
      }
    },
    async details(r) {
      const client = await deps.clients.current();
      if (!client) return notConfigured();
      return { ok: true, data: await intentDetails(client, r.intentId) };
    },
    async lookup(r) {
      const client = await deps.clients.current();
      if (!client) return notConfigured();
      try {
        const run = client[r.operation] as (request: unknown) => Promise<unknown>;
        return { ok: true, data: await run.call(client, r.request ?? {}) };
      } catch (err) {
        return failed(err);
      }
    },
    async mute(r) {
      await deps.calm.mute(r.intentId, r.muted);
      return { ok: true };
    },
    async snooze(r) {
      await (r.end ? deps.calm.endSnooze() : deps.calm.snooze());
      return { ok: true };
    },
    async 'settings-saved'() {
      deps.clients.reset();
      void deps.calm.release().catch(() => {});
      await tracker.retryNow();
      void deps.checkWatched(true);
      return { ok: true };
    },
  };
}
