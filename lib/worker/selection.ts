/**
 * Looking up what the user selected or typed outside the popup: the context menu's "Track intent" on a selection (an
 * intentId, or a transaction hash of any leg, resolved with SearchIntents) and the omnibox (`intent <id>`).
 */
import type { SvcClient } from '../api/client';
import { isNotFound } from '../api/errors';
import { findIntentId } from '../api/intent-id';
import { hasLegHash } from '../api/legs';
import { plausibleEstimate } from '../eta';
import { shortId } from '../format/intent';
import { t } from '../i18n';
import type { ReplyOf } from '../messages';
import type { TrackIntent } from './track';

/** Time-out of the look-ups behind a selection (ms). */
const LOOKUP_TIMEOUT_MS = 10_000;

/**
 * Most SearchIntents rows of one transaction hash checked (and so tracked) per click: a transaction belongs to one
 * intent, rarely a few; a longer answer is a search that ignored its filter, and its rows past these are not looked at.
 */
export const MAX_TX_CANDIDATES = 5;

/** What the selection and omnibox look-ups need. */
export interface SelectionDeps {
  /** The client for the current settings; undefined while not configured. */
  client(): Promise<Pick<SvcClient, 'getIntentReceipt' | 'searchByTransactionHash'> | undefined>;
  track: TrackIntent;
  /** Shows a plain information notification. */
  inform(message: string): Promise<unknown>;
  /** Opens an intent's receipt in a tab. */
  openReceipt(intentId: string): Promise<unknown>;
}

/** The menu and omnibox actions. */
export interface SelectionLookup {
  /**
   * Tracks what `text` holds: an intentId, or the intents of a transaction hash (SearchIntents rows whose receipt has a
   * leg with that hash, at most {@link MAX_TX_CANDIDATES}). Tells the user with a notification.
   * `added` is true only when at least one intent was newly tracked. Never throws.
   */
  trackSelection(text: string): Promise<ReplyOf<'track-text'>>;
  /** Opens the receipt of the intentId in `text`, or says that it holds none. */
  openFromOmnibox(text: string): Promise<void>;
}

/** What the menu says after tracking the `ids` of transaction `hash`, `added` of them new. */
export function transactionMessage(hash: string, ids: readonly string[], added: number): string {
  const tx = shortId(hash);
  if (added === 0) {
    return ids.length === 1 ? t('txOneAlreadyTracked', shortId(ids[0]!), tx) : t('txAllAlreadyTracked', ids.length, tx);
  }
  if (ids.length === 1) return t('txTrackingOne', shortId(ids[0]!), tx);
  const known = ids.length - added;
  if (known === 0) return t('txTrackingMany', added, tx);
  return added === 1 ? t('txTrackingSomeOne', tx, known) : t('txTrackingSome', added, tx, known);
}

/**
 * The rows of a SearchIntents answer for transaction `hash` that really are its intents: of the first
 * {@link MAX_TX_CANDIDATES} distinct intentIds, those whose receipt (GetIntentReceipt, read one at a time) has a leg
 * with that `txnHash`. A row whose receipt cannot be read is left out. Never throws.
 */
async function legsWithHash<T extends { intentId: string }>(
  client: Pick<SvcClient, 'getIntentReceipt'>,
  hash: string,
  rows: readonly T[],
): Promise<T[]> {
  const candidates = [...new Map(rows.map((r) => [r.intentId.toLowerCase(), r])).values()].slice(0, MAX_TX_CANDIDATES);
  const matching: T[] = [];
  for (const row of candidates) {
    const receipt = await client
      .getIntentReceipt({ intentId: row.intentId }, { timeoutMs: LOOKUP_TIMEOUT_MS })
      .then((r) => r.intentReceipt)
      .catch(() => undefined);
    if (receipt && receipt.intentId.toLowerCase() === row.intentId.toLowerCase() && hasLegHash(receipt, hash)) matching.push(row);
  }
  return matching;
}

/** Creates the menu and omnibox actions. */
export function createSelectionLookup(deps: SelectionDeps): SelectionLookup {
  /** The intents of a transaction hash, tracked; undefined when the hash names no intent or the search failed. */
  async function trackTransaction(hash: string): Promise<ReplyOf<'track-text'> | undefined> {
    const client = await deps.client();
    if (!client) return undefined;
    try {
      await client.getIntentReceipt({ intentId: hash }, { timeoutMs: LOOKUP_TIMEOUT_MS });
      return undefined; // an intentId the service knows
    } catch (err) {
      if (!isNotFound(err)) return undefined;
    }
    try {
      const found = await client.searchByTransactionHash(hash, { timeoutMs: LOOKUP_TIMEOUT_MS });
      const matching = await legsWithHash(client, hash, found.intents);
      if (matching.length === 0) return undefined;
      let added = 0;
      for (const i of matching) {
        const r = await deps.track(i.intentId, { source: 'menu', estimatedDuration: plausibleEstimate(i.quote?.estimatedDuration) });
        if (r.ok && r.added) added++;
      }
      await deps.inform(
        transactionMessage(
          hash,
          matching.map((i) => i.intentId),
          added,
        ),
      );
      return { ok: true, added: added > 0, intentId: matching[0]!.intentId };
    } catch {
      return undefined; // tracked as an intentId below: the tracker keeps trying for a while
    }
  }

  async function trackSelection(text: string): Promise<ReplyOf<'track-text'>> {
    const id = findIntentId(text);
    if (!id) {
      const message = t('selectionEmpty');
      await deps.inform(message);
      return { ok: false, message };
    }
    // A 0x + 64 hex id may as well be a transaction hash of some leg.
    if (/^0x[0-9a-f]{64}$/.test(id)) {
      const reply = await trackTransaction(id);
      if (reply) return reply;
    }
    const reply = await deps.track(id, { source: 'menu' });
    if (reply.ok) await deps.inform(reply.added ? t('trackingIntent', shortId(id)) : t('intentAlreadyTracked', shortId(id)));
    return reply;
  }

  return {
    trackSelection: (text) =>
      trackSelection(text).catch((err) => ({
        ok: false as const,
        message: t('somethingWentWrong', err instanceof Error ? err.message : String(err)),
      })),
    async openFromOmnibox(text) {
      const id = findIntentId(text);
      if (!id) {
        await deps.inform(t('notAnIntentId', text.slice(0, 80)));
        return;
      }
      await deps.openReceipt(id);
    },
  };
}
