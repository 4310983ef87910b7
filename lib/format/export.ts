/**
 * Exports of the tracked intents as JSON and CSV (pure). Amounts in raw units (exact strings) and display units.
 * Built from the tracked records only: the settings, and so the access key, are never part of an export.
 */
import { LEG_KINDS, legOf } from '../api/legs';
import type { TrackedIntent } from '../store';
import { formatTokenAmount } from './amount';

/** One exported row. Raw amounts are in the token's smallest unit; display amounts are raw ÷ 10^decimals. */
export interface ExportRow {
  intentId: string;
  status: string;
  tracking: string;
  originChainId: number | '';
  destinationChainId: number | '';
  originToken: string;
  originAmountRaw: string;
  originAmount: string;
  destinationToken: string;
  destinationAmountRaw: string;
  destinationAmount: string;
  createdAt: string;
  addedAt: string;
  notifiedAt: string;
  depositTxHash: string;
  originTxHash: string;
  destinationTxHash: string;
  refundTxHash: string;
  failureReason: string;
  /** The intent's desktop notifications are muted (its status is still tracked). */
  muted: boolean;
}

/** The columns, in order. */
export const EXPORT_COLUMNS: readonly (keyof ExportRow)[] = [
  'intentId',
  'status',
  'tracking',
  'originChainId',
  'destinationChainId',
  'originToken',
  'originAmountRaw',
  'originAmount',
  'destinationToken',
  'destinationAmountRaw',
  'destinationAmount',
  'createdAt',
  'addedAt',
  'notifiedAt',
  'depositTxHash',
  'originTxHash',
  'destinationTxHash',
  'refundTxHash',
  'failureReason',
  'muted',
];

/** The export row of one tracked intent; `muted` when its notifications are muted. */
export function exportRow(t: TrackedIntent, muted = false): ExportRow {
  const r = t.receipt;
  const s = r?.summary;
  const hash = (kind: (typeof LEG_KINDS)[number]) => (r ? (legOf(r, kind)?.txnHash ?? '') : '');
  const reason = r ? (LEG_KINDS.map((k) => legOf(r, k)?.statusReason).find(Boolean) ?? '') : '';
  return {
    intentId: t.intentId,
    status: t.status ?? '',
    tracking: t.phase,
    originChainId: r?.originChainId ?? s?.originChainId ?? '',
    destinationChainId: r?.destinationChainId ?? s?.destinationChainId ?? '',
    originToken: s?.originTokenMetadata?.symbol ?? s?.originTokenAddress ?? '',
    originAmountRaw: s?.originTokenAmount ?? '',
    originAmount: formatTokenAmount(s?.originTokenAmount, s?.originTokenMetadata?.decimals)?.replace(/,/g, '') ?? '',
    destinationToken: s?.destinationTokenMetadata?.symbol ?? s?.destinationTokenAddress ?? '',
    destinationAmountRaw: s?.destinationTokenAmount ?? '',
    destinationAmount: formatTokenAmount(s?.destinationTokenAmount, s?.destinationTokenMetadata?.decimals)?.replace(/,/g, '') ?? '',
    createdAt: r?.createdAt ?? s?.createdAt ?? '',
    addedAt: new Date(t.addedAt).toISOString(),
    notifiedAt: t.notifiedAt ? new Date(t.notifiedAt).toISOString() : '',
    depositTxHash: hash('deposit'),
    originTxHash: hash('origin'),
    destinationTxHash: hash('destination'),
    refundTxHash: hash('refund'),
    failureReason: reason,
    muted,
  };
}

/**
 * JSON export: `{exportedAt, intents: [{...row, receipt}]}`, pretty-printed; `muted` the intentIds whose
 * notifications are muted. `lib/format/import.ts` reads it back.
 */
export function exportJson(intents: readonly TrackedIntent[], now = Date.now(), muted: ReadonlySet<string> = new Set()): string {
  return `${JSON.stringify(
    {
      exportedAt: new Date(now).toISOString(),
      intents: intents.map((t) => ({ ...exportRow(t, muted.has(t.intentId)), receipt: t.receipt ?? null })),
    },
    null,
    2,
  )}\n`;
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break; a text starting with = + - @ is
 * prefixed with ' so that spreadsheets do not run it as a formula.
 */
export function csvCell(value: string | number | boolean): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * CSV export: a header line, then one line per intent (CRLF line ends); `muted` the intentIds whose notifications are
 * muted. `lib/format/import.ts` reads it back.
 */
export function exportCsv(intents: readonly TrackedIntent[], muted: ReadonlySet<string> = new Set()): string {
  const lines = [EXPORT_COLUMNS.join(',')];
  for (const t of intents) {
    const row = exportRow(t, muted.has(t.intentId));
    lines.push(EXPORT_COLUMNS.map((c) => csvCell(row[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
