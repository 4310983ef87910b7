/**
 * The parts of the popup ↔ background protocol that extension pages need at run time, without zod (the schemas that
 * validate requests on the receiving side are in `./messages`).
 */

/** Broadcast type sent by the background after tracked intents or the tracker state changed (coalesced). */
export const CHANGED = 'intents-changed' as const;

/** The "changed" broadcast: the intents changed since the last one (empty when only the tracker state changed). */
export interface ChangedMessage {
  type: typeof CHANGED;
  intentIds: string[];
}

/** True for the background's "changed" broadcast. */
export function isChangedMessage(message: unknown): message is ChangedMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === CHANGED;
}

/** The lookup operations an extension page may ask the background to run (GetIntentHistory, …). */
export const LOOKUP_OPERATIONS = ['getIntentHistory', 'searchIntents', 'getExactOutputRoutes', 'getTokenPrices'] as const;
export type LookupOperation = (typeof LOOKUP_OPERATIONS)[number];
