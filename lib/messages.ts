/**
 * Messages from the popup and options pages to the background worker: one zod schema per request type, checked on
 * the receiving side (`lib/worker/dispatch.ts`); unknown or malformed messages are ignored. Pages import only the
 * types, so their bundles carry no zod.
 */
import * as z from 'zod/mini';
import type { BalanceEntry } from './api/schemas/history';
import type { IntentReceipt } from './api/schemas/receipt';
import { LOOKUP_OPERATIONS } from './protocol';

const intentId = () => z.string().check(z.maxLength(200));

/** The schema of each request, by its `type`. */
export const REQUESTS = {
  /** Track an intentId (raw user input; validated by the worker too). `estimatedDuration` in seconds. */
  track: z.object({
    type: z.literal('track'),
    intentId: z.string().check(z.maxLength(10_000)),
    estimatedDuration: z.optional(z.number().check(z.positive(), z.lte(86_400))),
  }),
  /** Track what a selection holds: an intentId, or a transaction hash (every intent of it) — the context menu's action. */
  'track-text': z.object({ type: z.literal('track-text'), text: z.string().check(z.maxLength(10_000)) }),
  /** The popup showed the finished intents: they are seen (clears the failed count on the badge). */
  seen: z.object({ type: z.literal('seen') }),
  /** Forget every finished intent. */
  'clear-finished': z.object({ type: z.literal('clear-finished') }),
  /** Stop tracking and forget an intent. */
  remove: z.object({ type: z.literal('remove'), intentId: intentId() }),
  /** Check a tracked intent's receipt soon (GetIntentReceipt through the tracker) and record it. */
  refresh: z.object({ type: z.literal('refresh'), intentId: intentId() }),
  /** Retry now: clear back-off and resume stopped intents (one, or all). */
  retry: z.object({ type: z.literal('retry'), intentId: z.optional(intentId()) }),
  /** An extension page opened: make sure the tracker runs (wakes a stopped worker). */
  resume: z.object({ type: z.literal('resume') }),
  /** Read any intent's receipt now (GetIntentReceipt) and keep it in the receipt cache. */
  receipt: z.object({ type: z.literal('receipt'), intentId: intentId() }),
  /** What the receipt view shows beyond the receipt: fee total, token prices, the intent address's holdings. */
  details: z.object({ type: z.literal('details'), intentId: intentId() }),
  /** Run one lookup operation of the service for an extension page (its answer or error comes back). */
  lookup: z.object({ type: z.literal('lookup'), operation: z.enum(LOOKUP_OPERATIONS), request: z.unknown() }),
  /** Mute (or unmute) one tracked intent's desktop notifications; its status is still tracked. */
  mute: z.object({ type: z.literal('mute'), intentId: intentId(), muted: z.boolean() }),
  /** Snooze every notification for one hour, or (`end`) end the snooze now. */
  snooze: z.object({ type: z.literal('snooze'), end: z.optional(z.boolean()) }),
  /**
   * The options page's Test connection, for settings not saved yet: the worker sends the probe through its request
   * budget (the reply's `data` is a ConnectionResult of `lib/api/connection`).
   */
  'test-connection': z.object({
    type: z.literal('test-connection'),
    baseUrl: z.string().check(z.maxLength(2_000)),
    accessKey: z.string().check(z.maxLength(2_000)),
  }),
  /** Settings were saved: rebuild the client and resume a paused tracker. */
  'settings-saved': z.object({ type: z.literal('settings-saved') }),
} as const;

/** The type of a request. */
export type RequestType = keyof typeof REQUESTS;
/** The request of one type, as validated. */
export type RequestOf<K extends RequestType> = z.infer<(typeof REQUESTS)[K]>;
/** Any request the background answers. */
export type Request = { [K in RequestType]: RequestOf<K> }[RequestType];

/**
 * The answer to `details` (in `data`): `feeUsd` the intent's fee total in USD (GetIntent `fees.totalFeeUsd`);
 * `prices` USD per display unit of the origin and destination tokens (GetTokenPrices); `holdings` what the intent
 * address holds (GetIntentHistory with `includeBalances`; only for FAILED, REFUNDED and ABORTED, `[]` when nothing).
 */
export interface IntentDetails {
  feeUsd?: number;
  prices?: { origin?: number; destination?: number };
  holdings?: BalanceEntry[];
}

/**
 * Answer to every request: ok (with the receipt for `receipt`, `data` for `lookup`), or a user-facing message;
 * `openSettings` when the settings are the fix.
 */
export type Reply =
  | { ok: true; added?: boolean; intentId?: string; receipt?: IntentReceipt; data?: unknown }
  | { ok: false; message: string; openSettings?: boolean };
