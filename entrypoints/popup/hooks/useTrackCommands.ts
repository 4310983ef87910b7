import { useState } from 'preact/hooks';
import { findIntentId, parseIntentId } from '@/lib/api/intent-id';
import { type IntentList, isIntentList, MAX_TRACK_MANY, readIntentList } from '@/lib/api/intent-list';
import { shortId } from '@/lib/format/intent';
import { tooLongOutcome, trackListOutcome } from '@/lib/format/track-list';
import { t } from '@/lib/i18n';
import type { ReplyOf } from '@/lib/messages';
import { CLIPBOARD_TEXT, requestClipboardPermission } from '../clipboard';
import { send } from '../worker-messages';

/** What a list of only invalid ids "answers": nothing was sent, nothing added. */
const NOTHING_SENT: ReplyOf<'track-many'> = { ok: true, added: 0, already: 0, invalid: [], invalidCount: 0 };

/** A line under the Track box: what happened, or what is wrong. */
export interface TrackMessage {
  text: string;
  error: boolean;
}

/** Tracking and removing from the popup, with the message that says what happened. */
export interface TrackCommands {
  message: TrackMessage | undefined;
  /** True while a track request is under way. */
  busy: boolean;
  /**
   * Tracks the intentId typed, or every one of a pasted list (validated here first, for an immediate message);
   * resolves with the text to leave in the box (see `lib/format/track-list.ts`), undefined to leave it as it is.
   */
  track(text: string): Promise<string | undefined>;
  /** Tracks the intentId on the clipboard; asks for the clipboard permission first (call it from a click). */
  trackClipboard(): Promise<void>;
  /** Stops tracking an intent. */
  remove(intentId: string): Promise<void>;
}

/** The popup's track and remove commands; `reload` re-reads the tracked list after each. */
export function useTrackCommands(reload: () => Promise<void>): TrackCommands {
  const [message, setMessage] = useState<TrackMessage | undefined>();
  const [busy, setBusy] = useState(false);

  const trackList = async (text: string, list: IntentList): Promise<string> => {
    setBusy(true);
    const reply =
      list.intentIds.length > 0
        ? await send({ type: 'track-many', intents: list.intentIds.map((intentId) => ({ intentId })) })
        : NOTHING_SENT;
    setBusy(false);
    const outcome = trackListOutcome(text, list, reply);
    setMessage({ text: outcome.text, error: outcome.error });
    await reload();
    return outcome.keep;
  };

  const track = async (text: string): Promise<string | undefined> => {
    const list = readIntentList(text);
    if (list.tooLong) {
      const outcome = tooLongOutcome(text, MAX_TRACK_MANY);
      setMessage({ text: outcome.text, error: true });
      return outcome.keep;
    }
    // A list: every id at once. One id (or a phrase): the single id's own messages.
    if (isIntentList(text, list)) return trackList(text, list);
    const parsed = parseIntentId(text);
    if (!parsed.ok) {
      setMessage({ text: parsed.message, error: true });
      return undefined;
    }
    setBusy(true);
    const reply = await send({ type: 'track', intentId: parsed.intentId });
    setBusy(false);
    if (!reply.ok) setMessage({ text: reply.message, error: true });
    else
      setMessage({
        text: reply.added ? t('trackingId', shortId(parsed.intentId)) : t('alreadyTracked', shortId(parsed.intentId)),
        error: false,
      });
    await reload();
    return undefined;
  };

  const trackClipboard = async () => {
    // Asked for on the first use, straight from the click (browsers grant permissions only during a user gesture);
    // once granted the browser answers at once, without a prompt.
    const allowed = await requestClipboardPermission();
    if (!allowed) {
      setMessage({ text: CLIPBOARD_TEXT.denied, error: true });
      return;
    }
    let text: string;
    try {
      text = await navigator.clipboard.readText();
    } catch {
      setMessage({ text: CLIPBOARD_TEXT.unreadable, error: true });
      return;
    }
    const id = findIntentId(text);
    if (!id) {
      setMessage({ text: CLIPBOARD_TEXT.empty, error: true });
      return;
    }
    await track(id);
  };

  const remove = async (intentId: string) => {
    await send({ type: 'remove', intentId });
    setMessage({ text: t('stoppedTracking', shortId(intentId)), error: false });
    await reload();
  };

  return { message, busy, track, trackClipboard, remove };
}
