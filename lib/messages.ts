/**
 * Messages from the popup and options pages to the background worker, validated with zod on the receiving side
 * (unknown or malformed messages are ignored), and the broadcast the worker sends when tracked intents change.
 */
import * as z from 'zod/mini';
import type { IntentReceipt } from './api/schemas/receipt';
import { CHANGED, LOOKUP_OPERATIONS } from './protocol';

export { CHANGED };

/** Requests the background answers. */
export const Request = z.discriminatedUnion('type', [
  /** Track an intentId (raw user input; validated by the background too). `estimatedDuration` in seconds. */
  z.object({
    type: z.literal('track'),
    intentId: z.string().check(z.maxLength(10_000)),
    estimatedDuration: z.optional(z.number().check(z.positive(), z.lte(86_400))),
  }),
  /** Track what a selection holds: an intentId, or a transaction hash (every intent of it) — the context menu's action. */
  z.object({ type: z.literal('track-text'), text: z.string().check(z.maxLength(10_000)) }),
  /** The popup showed the finished intents: they are seen (clears the failed count on the badge). */
  z.object({ type: z.literal('seen') }),
  /** Forget every finished intent. */
  z.object({ type: z.literal('clear-finished') }),
  /** Stop tracking and forget an intent. */
  z.object({ type: z.literal('remove'), intentId: z.string().check(z.maxLength(200)) }),
  /** Read the receipt once now (GetIntentReceipt) and record it. */
  z.object({ type: z.literal('refresh'), intentId: z.string().check(z.maxLength(200)) }),
  /** Retry now: clear back-off and resume stopped loops (one intent, or all). */
  z.object({ type: z.literal('retry'), intentId: z.optional(z.string().check(z.maxLength(200))) }),
  /** An extension page opened: make sure every tracked intent has its loop (wakes a stopped worker). */
  z.object({ type: z.literal('resume') }),
  /** Read any intent's receipt now (GetIntentReceipt), through the background's receipt cache. */
  z.object({ type: z.literal('receipt'), intentId: z.string().check(z.maxLength(200)) }),
  /** Run one lookup operation of the service for an extension page (its answer or error comes back). */
  z.object({ type: z.literal('lookup'), operation: z.enum(LOOKUP_OPERATIONS), request: z.unknown() }),
  /** Settings were saved: rebuild the client and resume paused loops. */
  z.object({ type: z.literal('settings-saved') }),
]);
export type Request = z.infer<typeof Request>;

/**
 * Answer to every request: ok (with the receipt for `receipt`), or a user-facing message; `openSettings` when the
 * settings are the fix.
 */
export type Reply =
  | { ok: true; added?: boolean; intentId?: string; receipt?: IntentReceipt; data?: unknown }
  | { ok: false; message: string; openSettings?: boolean };
