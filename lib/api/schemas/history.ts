/**
 * History (docs/protocol.md §6): GetIntentHistory's rows, each with its receipt and, on request, the balances left at
 * its intent address; and the page cursors that walk through them.
 */
import * as z from 'zod/mini';
import { intentStatus, opt, RawAmount, SvcNumber } from './fields';
import { IntentReceipt } from './receipt';
import { listAnswer } from './rows';

/** TokenBalance: `balance` raw; `balanceUsd`/`priceUsd` USD strings. */
export const TokenBalance = z.looseObject({
  contractAddress: opt(z.string()),
  balance: opt(RawAmount),
  balanceUsd: opt(z.union([z.string(), z.number()])),
  priceUsd: opt(z.union([z.string(), z.number()])),
  decimals: opt(SvcNumber),
  chainId: opt(SvcNumber),
  symbol: opt(z.string()),
});
export type TokenBalance = z.output<typeof TokenBalance>;

/** BalanceEntry: what an intent address holds on one chain. */
export const BalanceEntry = z.looseObject({ intentAddress: opt(z.string()), chainId: opt(SvcNumber), tokens: opt(z.array(TokenBalance)) });
export type BalanceEntry = z.output<typeof BalanceEntry>;

/** IntentHistory: one row of GetIntentHistory with its full receipt. */
export const IntentHistory = z.looseObject({
  intentId: z.string(),
  status: intentStatus,
  expiresAt: opt(z.string()),
  receipt: opt(IntentReceipt),
  updatedAt: opt(z.string()),
  createdAt: opt(z.string()),
  hasBalance: opt(z.boolean()),
  balances: opt(z.array(BalanceEntry)),
});
export type IntentHistory = z.output<typeof IntentHistory>;

/** SortOrder and SortBy. */
export const SortBy = z.looseObject({ column: z.string(), order: z.string() as unknown as z.ZodMiniType<'ASC' | 'DESC'> });
export type SortBy = z.output<typeof SortBy>;

/**
 * Page: `column` is `id` or `createdAt`; `after`/`before` are cursors (values of `column`; ms since the
 * epoch for createdAt); `pageSize` defaults to 20; `more` tells whether another page exists.
 */
export const Page = z.looseObject({
  column: opt(z.string()),
  before: opt(SvcNumber),
  after: opt(SvcNumber),
  sort: opt(z.array(SortBy)),
  pageSize: opt(SvcNumber),
  more: opt(z.boolean()),
});
export type Page = z.output<typeof Page>;

/** GetIntentHistory request; every field optional. `fromTime`/`toTime` are Unix seconds, inclusive. */
export const GetIntentHistoryRequest = z.object({
  // Page's fields are all optional already: `z.partial(Page)` would add only zod's partial() to the worker (0.4 KB gzip).
  page: z.optional(Page),
  byProjectId: z.optional(z.number()),
  byOwnerAddress: z.optional(z.string()),
  byStatus: z.optional(intentStatus),
  byStatuses: z.optional(z.array(intentStatus)),
  originChainId: z.optional(z.number()),
  originTokenAddress: z.optional(z.string()),
  destinationChainId: z.optional(z.number()),
  destinationTokenAddress: z.optional(z.string()),
  fromTime: z.optional(z.number()),
  toTime: z.optional(z.number()),
  includeBalances: z.optional(z.boolean()),
  onlyRecoverable: z.optional(z.boolean()),
});
export type GetIntentHistoryRequest = z.input<typeof GetIntentHistoryRequest>;
/**
 * GetIntentHistory response: `nextPage` absent or null on the last page. Read row by row (`./rows`): a row that is not
 * an IntentHistory is set aside (`setAside`, with its reason) and the page's other rows are used.
 */
export const GetIntentHistoryResponse = listAnswer(IntentHistory, Page);
export type GetIntentHistoryResponse = z.output<typeof GetIntentHistoryResponse>;

/** The GetIntentHistory request of the light reading; `fromTime` in Unix seconds. */
export interface HistoryLiteRequest {
  byStatuses?: string[];
  byOwnerAddress?: string;
  fromTime?: number;
  /** `after` is the cursor of the next page: a value of `column` (ms since the epoch for createdAt). */
  page: { pageSize: number; after?: number; column?: 'id' | 'createdAt'; sort?: Array<{ column: string; order: 'ASC' | 'DESC' }> };
}

/**
 * One row of GetIntentHistory read lightly: only what the tracker's batch refresh and the watched-address check need
 * (intentId, status, receipt).
 */
export const HistoryLiteRow = z.looseObject({ intentId: z.string(), status: intentStatus, receipt: opt(IntentReceipt) });
/** The cursor part of a page, read lightly. */
const LitePage = z.looseObject({ after: opt(SvcNumber), more: opt(z.boolean()) });
/** GetIntentHistory read lightly, row by row as {@link GetIntentHistoryResponse}. */
export const HistoryLiteResponse = listAnswer(HistoryLiteRow, LitePage);
export type HistoryLiteResponse = z.output<typeof HistoryLiteResponse>;
