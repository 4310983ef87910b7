/** What the worker does for each request of the popup and options pages (`lib/messages.ts` lists them). */
import { testConnection } from '../api/connection';
import { describeError } from '../format/errors';
import { t } from '../i18n';
import type { Failure, ReplyOf } from '../messages';
import type { CalmNotifier } from '../notify/pipeline';
import type { ReceiptCache, RemovedIntents } from '../store';
import type { Tracker } from '../tracker/engine';
import { isReceiptFor } from '../tracker/policy';
import type { ClientCache } from './client-cache';
import { intentDetails } from './details';
import type { MessageHandlers } from './dispatch';
import { clearFinished, type TrackIntent } from './track';
import type { TrackList } from './track-many';
import { createTrackManyHandler } from './track-many-handler';
import { createTrackedHandler } from './tracked-handler';

/** What the handlers use. */
export interface MessageHandlerDeps {
  tracker: Pick<Tracker, 'track' | 'list' | 'remove' | 'refresh' | 'retryNow' | 'markSeen' | 'resume'>;
  track: TrackIntent;
  /** Tracks a list at once (`track-many`: a paste, an import). */
  trackList: TrackList;
  clients: ClientCache;
  receipts: ReceiptCache;
  /** Marks what the user removes, so that the watched-address check does not track it again. */
  removed?: Pick<RemovedIntents, 'add'>;
  /** The context menu's action, for `track-text`. */
  trackSelection(text: string): Promise<ReplyOf<'track-text'>>;
  /** Updates the toolbar badge now. */
  updateBadge(): Promise<void>;
  /** Checks the watched addresses (`force` skips the once-a-minute throttle). */
  checkWatched(force?: boolean): Promise<number>;
  /** Mute and snooze; told when the settings change (quiet hours may have ended). */
  calm: Pick<CalmNotifier, 'mute' | 'snooze' | 'endSnooze' | 'release'>;
  /** Wall-clock time in ms (the platform's clock; default `Date.now`): when a looked-up receipt was fetched. */
  now?: () => number;
}

const notConfigured = (): Failure => ({ ok: false, message: t('notConfigured'), openSettings: true });

/** The reply for an error of a call the page asked for. */
function failed(err: unknown): Failure {
  const { text, openSettings } = describeError(err);
  return { ok: false, message: text, openSettings };
}

/** Creates the handler of every request type. */
export function createMessageHandlers(deps: MessageHandlerDeps): MessageHandlers {
  return { ...trackingHandlers(deps), ...serviceHandlers(deps), ...calmHandlers(deps) };
}

/** The requests that change what is tracked (track, paste, remove, clear) or how (refresh, retry, resume, seen). */
export function trackingHandlers(
  deps: MessageHandlerDeps,
): Pick<
  MessageHandlers,
  'track' | 'track-many' | 'track-text' | 'tracked' | 'seen' | 'clear-finished' | 'remove' | 'refresh' | 'retry' | 'resume'
> {
  const { tracker } = deps;
  const trackMany = createTrackManyHandler({ trackList: deps.trackList, tracker, calm: deps.calm });
  return {
    track: (r) => deps.track(r.intentId, { source: 'user', ...(r.estimatedDuration ? { estimatedDuration: r.estimatedDuration } : {}) }),
    async 'track-many'(r) {
      const { added, already, invalid, invalidCount } = await trackMany(r);
      return { ok: true, added: added.length, already, invalid, invalidCount };
    },
    'track-text': (r) => deps.trackSelection(r.text),
    tracked: createTrackedHandler(tracker),
    async seen() {
      await tracker.markSeen();
      await deps.updateBadge();
      return { ok: true };
    },
    async 'clear-finished'() {
      // The marks first: a worker that dies before the removals leaves them tracked (the user may clear again),
      // never removed and unmarked (the watched check would track them again).
      await deps.removed?.add((await tracker.list()).filter((t) => t.phase === 'final').map((t) => t.intentId));
      await clearFinished(tracker);
      return { ok: true };
    },
    async remove(r) {
      await deps.removed?.add([r.intentId]);
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
  };
}

/** The pages' reads of the service (receipt, details, a look-up) and Test connection: the user's own calls. */
export function serviceHandlers(deps: MessageHandlerDeps): Pick<MessageHandlers, 'receipt' | 'details' | 'lookup' | 'test-connection'> {
  return {
    // The popup's own reads are the user's: first in line, with a place of their own beyond the worker's 4 (lib/api/budget.ts).
    async receipt(r) {
      const client = await deps.clients.current('user');
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
        await deps.receipts.put(r.intentId, { receipt: intentReceipt, fetchedAt: (deps.now ?? Date.now)() });
        return { ok: true, receipt: intentReceipt };
      } catch (err) {
        return failed(err);
      }
    },
    async details(r) {
      const client = await deps.clients.current('user');
      if (!client) return notConfigured();
      return { ok: true, data: await intentDetails(client, r.intentId) };
    },
    async lookup(r) {
      const client = await deps.clients.current('user');
      if (!client) return notConfigured();
      try {
        const run = client[r.operation] as (request: unknown) => Promise<unknown>;
        return { ok: true, data: await run.call(client, r.request ?? {}) };
      } catch (err) {
        return failed(err);
      }
    },
    async 'test-connection'(r) {
      let client: ReturnType<ClientCache['forSettings']>;
      try {
        client = deps.clients.forSettings(r.baseUrl, r.accessKey);
      } catch (err) {
        return { ok: false, message: err instanceof Error ? err.message : String(err) };
      }
      return { ok: true, data: await testConnection(client) };
    },
  };
}

/** Mute, snooze, and the settings saved (a new client, notifications held by quiet hours released, a retry now). */
export function calmHandlers(deps: MessageHandlerDeps): Pick<MessageHandlers, 'mute' | 'snooze' | 'settings-saved'> {
  return {
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
      await deps.tracker.retryNow();
      void deps.checkWatched(true);
      return { ok: true };
    },
  };
}
