/**
 * The history sweeper: finds tracked intents that finished by reading GetIntentHistory for the final statuses,
 * one page per sweeper turn. History is an accelerator only: whatever it returns (nothing, other projects' intents,
 * thousands of rows, a repeated cursor, pages out of order, stale rows), the individual checks of the scheduler still
 * run, and only rows that say a tracked intent is final are acted on.
 *
 * Queries are grouped by owner address when the tracked intents have at most `maxOwnerGroups` owners (a busy project's
 * other owners then never fill our pages), else one query covers them all; `fromTime` is the oldest tracked intent of
 * the group. A group's batch ends after `maxBatchPages` pages; its walk goes on from the same cursor on the group's
 * next turn, and starts again from the first page only after the last page, when a cursor comes back, or after a
 * failed page. So every final row of the group is read once per walk, however many pages it takes: a walk that started
 * again from the first page after each batch never read past the group's first `maxBatchPages × pageSize` rows (with
 * 1,000 tracked intents finishing, 137 of those created first were never told within 90 s).
 */
import type { HistoryLiteRequest, HistoryLiteResponse } from '../api/schemas/history';
import type { IntentReceipt } from '../api/schemas/receipt';
import { FINAL_INTENT_STATUSES } from '../api/status';
import type { TrackedIntent } from '../store';
import { isFinalStatus } from './policy';

/** Owner groups at most before one query covers every tracked intent. */
export const MAX_OWNER_GROUPS = 3;
/** Rows per page asked for (the deployed service serves at most 100). */
export const HISTORY_PAGE_SIZE = 100;

interface Group {
  key: string;
  owner?: string;
  fromTime: number;
}

/** Groups intents that have a creation time by owner (or all together); each with the oldest creation time (Unix s). */
export function historyGroups(intents: readonly TrackedIntent[]): Group[] {
  const byOwner = new Map<string, number>();
  for (const t of intents) {
    const created = Date.parse(t.receipt?.createdAt ?? '');
    if (Number.isNaN(created)) continue;
    const owner = t.receipt?.ownerAddress?.toLowerCase() ?? '';
    byOwner.set(owner, Math.min(byOwner.get(owner) ?? created, created));
  }
  if (byOwner.size > MAX_OWNER_GROUPS || byOwner.has('')) {
    return [{ key: '*', fromTime: Math.floor(Math.min(...byOwner.values()) / 1000) }];
  }
  return [...byOwner].sort(([a], [b]) => (a < b ? -1 : 1)).map(([owner, at]) => ({ key: owner, owner, fromTime: Math.floor(at / 1000) }));
}

/** A row of history that says a tracked intent is final. */
export interface FinalRow {
  intentId: string;
  receipt: IntentReceipt;
}

/** Where a group's walk stands between its batches: the cursor to go on from, and the cursors it has seen. */
interface Walk {
  cursor: number;
  cursors: Set<number>;
}

/** Walks the history a page at a time, group after group. */
export class HistorySweeper {
  #group = 0;
  #groupKey: string | undefined;
  #cursor: number | undefined;
  #pages = 0;
  #cursors = new Set<number>();
  /** Walks left mid-way at the end of a batch, by group key: the group's next batch goes on from there. */
  readonly #walks = new Map<string, Walk>();

  constructor(readonly maxBatchPages: number) {}

  /** The next page to ask for, or undefined when no tracked intent can be looked for in history. */
  next(intents: readonly TrackedIntent[]): HistoryLiteRequest | undefined {
    const groups = historyGroups(intents);
    if (groups.length === 0) return undefined;
    for (const key of this.#walks.keys()) if (!groups.some((g) => g.key === key)) this.#walks.delete(key);
    let group = groups.find((g) => g.key === this.#groupKey);
    if (!group) {
      group = groups[this.#group % groups.length]!;
      this.#startCycle(group.key);
    }
    return {
      byStatuses: [...FINAL_INTENT_STATUSES],
      fromTime: group.fromTime,
      ...(group.owner ? { byOwnerAddress: group.owner } : {}),
      page: { pageSize: HISTORY_PAGE_SIZE, ...(this.#cursor !== undefined ? { after: this.#cursor } : {}) },
    };
  }

  /** Takes the answer to the last {@link next}; returns its rows that say an intent is final (tracked or not). */
  answer(res: HistoryLiteResponse): FinalRow[] {
    this.#pages++;
    const after = res.nextPage?.after;
    const more = res.nextPage && res.nextPage.more !== false && typeof after === 'number' && !this.#cursors.has(after);
    if (more && this.#pages < this.maxBatchPages) {
      this.#cursor = after;
      this.#cursors.add(after);
    } else {
      // The batch is over: a walk with pages left goes on from its cursor on the group's next turn.
      if (more && this.#groupKey !== undefined) {
        this.#cursors.add(after);
        this.#walks.set(this.#groupKey, { cursor: after, cursors: this.#cursors });
      } else if (this.#groupKey !== undefined) this.#walks.delete(this.#groupKey);
      this.#group++;
      this.#groupKey = undefined;
    }
    const rows: FinalRow[] = [];
    for (const row of res.intents) {
      const receipt = row.receipt;
      if (!receipt || !isFinalStatus(receipt.status)) continue;
      if (receipt.intentId !== row.intentId) continue;
      rows.push({ intentId: row.intentId, receipt });
    }
    return rows;
  }

  /** True while a cycle has more pages to read (its next request goes on from a cursor). */
  get midCycle(): boolean {
    return this.#cursor !== undefined && this.#groupKey !== undefined;
  }

  /** Forgets where it was (a failed page): the next request starts the group's walk again from its first page. */
  reset(): void {
    if (this.#groupKey !== undefined) this.#walks.delete(this.#groupKey);
    this.#groupKey = undefined;
  }

  /** Starts a batch of the group: from where its walk stopped, else from the first page. */
  #startCycle(key: string) {
    const walk = this.#walks.get(key);
    this.#walks.delete(key);
    this.#groupKey = key;
    this.#cursor = walk?.cursor;
    this.#pages = 0;
    this.#cursors = walk?.cursors ?? new Set<number>();
  }
}
