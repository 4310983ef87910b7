/**
 * The tracked list's rows as the worker sends them to the popup (pure): each record with its receipt cut down to the
 * fields a row, the list's search and its filters read. A desk's 5,000 whole records made a message of about 12 MB
 * that the worker serialized and the popup parsed for seconds; the rows of the simulator's receipts are under half their
 * size (the hashes, times and amounts a row reads make up most of a receipt), and fields the spec does not name never
 * reach the popup's list. The receipt view and the exports read whole records (`tracked` without `rows`).
 */
import type { IntentReceipt, IntentReceiptSummary, IntentTransaction, TokenMetadata } from '../api/schemas/receipt';
import type { TrackedIntent } from '../store';

/** The fields of `from` named in `keys` that it has (absent ones stay absent, so the row's JSON stays small). */
function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out as Pick<T, K>;
}

/** A token's metadata as a row shows it: its symbol and the decimals that scale its raw amount. */
const metaRow = (m: TokenMetadata | null | undefined) => m && pick(m, ['symbol', 'decimals']);

/** A leg as a row reads it: its state, its hash (the search looks in it), when it was mined, its amount and reason. */
const legRow = (leg: IntentTransaction | null | undefined) =>
  leg && pick(leg, ['chainId', 'status', 'statusReason', 'txnHash', 'txnMinedAt', 'createdAt', 'tokenAmount']);

/** The summary as a row reads it: the route, the amounts with their tokens' symbols and decimals, start and finish. */
function summaryRow(s: IntentReceiptSummary): IntentReceiptSummary {
  const row = pick(s, [
    'originChainId',
    'destinationChainId',
    'originTokenAmount',
    'destinationTokenAmount',
    'createdAt',
    'startedAt',
    'finishedAt',
  ]);
  const origin = metaRow(s.originTokenMetadata);
  const destination = metaRow(s.destinationTokenMetadata);
  return { ...row, ...(origin ? { originTokenMetadata: origin } : {}), ...(destination ? { destinationTokenMetadata: destination } : {}) };
}

/**
 * `receipt` with only what the list reads (`components/TrackedIntentRow`, `lib/query/tracked-filter`, `lib/eta`,
 * `lib/format/timeline`): status, route, times, the origin and destination amounts with their tokens' symbols and
 * decimals, and per leg its chain, state, reason, hash, mined time and amount. Fields the list never reads (addresses,
 * calldata, signatures, preconditions, fields the spec does not name) are left out.
 */
export function receiptRow(receipt: IntentReceipt): IntentReceipt {
  const row: IntentReceipt = {
    intentId: receipt.intentId,
    status: receipt.status,
    ...pick(receipt, ['id', 'originChainId', 'destinationChainId', 'createdAt', 'updatedAt']),
  };
  if (receipt.summary) row.summary = summaryRow(receipt.summary);
  for (const kind of ['depositTransaction', 'originTransaction', 'destinationTransaction', 'refundTransaction'] as const) {
    const leg = legRow(receipt[kind]);
    if (leg) row[kind] = leg;
  }
  return row;
}

/**
 * `t` as a row of the popup's list: every field of the record but `notified` (the words of its notification, which the
 * list never shows), the receipt cut by {@link receiptRow}. A new object; `t` is not changed.
 */
export function trackedRow(t: TrackedIntent): TrackedIntent {
  const { receipt, notified: _notified, ...rest } = t;
  return receipt ? { ...rest, receipt: receiptRow(receipt) } : rest;
}

/**
 * The whole record `whole` brought up to date by `row`, a newer row of the same intent (its receipt changed since
 * `whole` was read): every field the row has, the receipt's, its summary's, its token metadata's and each leg's
 * included, over what `whole` had; what only whole records have (addresses, calldata) stays as `whole` had it. Shown
 * while the newer whole record is read, so that an open receipt is never behind the list. A new object.
 */
export function withRow(whole: TrackedIntent, row: TrackedIntent): TrackedIntent {
  const out: TrackedIntent = { ...whole, ...row };
  const w = whole.receipt;
  const r = row.receipt;
  if (!w || !r) return out;
  const receipt: IntentReceipt = { ...w, ...r };
  if (r.summary) {
    const ws = w.summary ?? {};
    receipt.summary = { ...ws, ...r.summary };
    for (const m of ['originTokenMetadata', 'destinationTokenMetadata'] as const)
      if (r.summary[m]) receipt.summary[m] = { ...ws[m], ...r.summary[m] };
  }
  for (const kind of ['depositTransaction', 'originTransaction', 'destinationTransaction', 'refundTransaction'] as const)
    if (r[kind]) receipt[kind] = { ...w[kind], ...r[kind] };
  return { ...out, receipt };
}
