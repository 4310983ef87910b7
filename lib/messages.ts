/**
 * The page ↔ worker boundary, in one module: what the extension pages (popup, side panel, options, welcome) ask the
 * background worker — one zod schema per request type, checked on the receiving side (`lib/worker/dispatch.ts`;
 * unknown or malformed messages are ignored) — what the worker answers to each kind ({@link ReplyOf}), and the
 * worker's "changed" broadcast to the pages. The schemas are built inside one pure call, so a page that uses only the
 * types and the broadcast helpers carries no zod in its bundle (`npm run budget`).
 */
import * as z from 'zod/mini';
import type { ConnectionResult } from './api/connection';
import { type InvalidId, MAX_TRACK_MANY } from './api/intent-list';
import type { LookupApi } from './api/lookup';
import type { BalanceEntry } from './api/schemas/history';
import type { IntentReceipt } from './api/schemas/receipt';
import type { TrackedIntent } from './store';

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
/** One lookup operation's name. */
export type LookupOperation = (typeof LOOKUP_OPERATIONS)[number];

const intentId = () => z.string().check(z.maxLength(200));

/** The schema of each request, by its `type` (built in one pure call: dropped from bundles that do not validate). */
export const REQUESTS = /* @__PURE__ */ (() => ({
  /** Track an intentId (raw user input; validated by the worker too). `estimatedDuration` in seconds. */
  track: z.object({
    type: z.literal('track'),
    intentId: z.string().check(z.maxLength(10_000)),
    estimatedDuration: z.optional(z.number().check(z.positive(), z.lte(86_400))),
  }),
  /**
   * Track a list at once: pasted intentIds (`intentId` only: raw user input), or the intents of an import
   * (`lib/format/import.ts`: `muted`, `status`, times in ms, `receipt` checked against the IntentReceipt schema by the
   * worker). Each intentId is validated by the worker; repeats are tracked once. At most MAX_TRACK_MANY.
   */
  'track-many': z.object({
    type: z.literal('track-many'),
    intents: z
      .array(
        z.object({
          intentId: z.string().check(z.maxLength(1_000)),
          muted: z.optional(z.boolean()),
          status: z.optional(z.string().check(z.maxLength(40))),
          addedAt: z.optional(z.number()),
          notifiedAt: z.optional(z.number()),
          receipt: z.optional(z.unknown()),
        }),
      )
      .check(z.maxLength(MAX_TRACK_MANY)),
  }),
  /**
   * The tracked intents as the worker holds them (`lib/worker/tracked-handler.ts`), newest added first: the first
   * screenful in the popup's order (`first` rows), the intents a change named (`intentIds`), or all (neither); with
   * `rows`, as the list's rows (`lib/query/tracked-row.ts`: the receipt cut to what a row reads), else whole records.
   */
  tracked: z.object({
    type: z.literal('tracked'),
    first: z.optional(z.number().check(z.gte(1), z.lte(1_000))),
    intentIds: z.optional(z.array(intentId()).check(z.maxLength(MAX_TRACK_MANY))),
    rows: z.optional(z.boolean()),
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
}))();

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

/** A request that failed: a user-facing message; `openSettings` when the settings are the fix. */
export interface Failure {
  ok: false;
  message: string;
  openSettings?: boolean;
}

/** What each request kind answers on success, beyond `ok: true`. */
export interface ReplyData {
  /** `added` false when it was tracked already; `intentId` as normalised. */
  track: { added: boolean; intentId: string };
  /**
   * `added` how many were newly tracked, `already` how many were tracked before; `invalid` the first texts that are
   * not intentIds with the reason (`lib/worker/track-many.ts`), `invalidCount` all of them.
   */
  'track-many': { added: number; already: number; invalid: InvalidId[]; invalidCount: number };
  /** `intents` as asked (a named intent missing from them is not tracked); `total` how many are tracked. */
  tracked: { intents: TrackedIntent[]; total: number };
  /** The first intent the text named (an intentId, or the first intent of a transaction hash). */
  'track-text': { added: boolean; intentId: string };
  seen: Record<never, never>;
  'clear-finished': Record<never, never>;
  remove: Record<never, never>;
  refresh: Record<never, never>;
  retry: Record<never, never>;
  resume: Record<never, never>;
  /** The receipt as GetIntentReceipt gave it now. */
  receipt: { receipt: IntentReceipt };
  details: { data: IntentDetails };
  /** The operation's answer; {@link LookupReply} types it by operation. */
  lookup: { data: unknown };
  mute: Record<never, never>;
  snooze: Record<never, never>;
  'settings-saved': Record<never, never>;
  /** Test connection's plain answer, the call sent by the worker through its one request budget. */
  'test-connection': { data: ConnectionResult };
}

/** The answer to a request of kind `K`: ok with that kind's data, or a {@link Failure}. */
export type ReplyOf<K extends RequestType> = ({ ok: true } & ReplyData[K]) | Failure;

/** The answer to any request (what the dispatcher hands back). */
export type Reply = { [K in RequestType]: ReplyOf<K> }[RequestType];

/** The answer of the lookup operation `Op`, as {@link LookupApi} types it. */
export type LookupResult<Op extends LookupOperation> = Awaited<ReturnType<LookupApi[Op]>>;

/** A lookup request for the operation `Op`, its request typed as {@link LookupApi} takes it. */
export interface LookupRequest<Op extends LookupOperation> {
  type: 'lookup';
  operation: Op;
  request: Parameters<LookupApi[Op]>[0];
}

/** The answer to a lookup of `Op`: its typed result, or a {@link Failure}. */
export type LookupReply<Op extends LookupOperation> = { ok: true; data: LookupResult<Op> } | Failure;
