/**
 * Reading back the extension's own exports (`./export.ts`), JSON or CSV, to move tracked intents to another browser
 * (pure). What an export holds is kept: the intentId, whether its notifications are muted, when it was added, its
 * status and when its notification was shown, and (JSON) its receipt — so that an intent that had already ended is
 * not notified again (`lib/tracker/track-many.ts`).
 *
 * A row that cannot be read is reported with its number and reason and the others are still imported. A file that is
 * not an export, is over {@link MAX_IMPORT_CHARS}, or holds over {@link MAX_IMPORT_ROWS} rows is refused whole with a
 * message. A CSV cell holding a spreadsheet formula (`=`, `+`, `-`, `@` not escaped by the export's `'`) refuses its
 * row. Nothing here evaluates or trusts a field beyond its type.
 */

import { parseIntentId } from '../api/intent-id';
import { MAX_TRACK_MANY } from '../api/intent-list';
import type { IntentReceipt } from '../api/schemas/receipt';
import { FINAL_INTENT_STATUSES, type IntentStatus } from '../api/status';
import { t } from '../i18n';
import { EXPORT_COLUMNS } from './export';

/**
 * What an import knows of an intent from the export it comes from. Times in ms since the epoch. A `receipt` is kept
 * only when it is about this intentId.
 */
export interface ImportSeed {
  /** When it was first tracked (the export's `addedAt`). */
  addedAt?: number;
  /** Its status when exported. */
  status?: IntentStatus;
  /** When its final notification was shown (the export's `notifiedAt`). */
  notifiedAt?: number;
  /** Its receipt as exported (JSON exports only). */
  receipt?: IntentReceipt;
}

/** Characters of a file read at most (about 20 MB: an export of 10,000 intents with their receipts fits). */
export const MAX_IMPORT_CHARS = 20_000_000;
/** Rows imported at most (as many as one request tracks). */
export const MAX_IMPORT_ROWS = MAX_TRACK_MANY;

/** One intent read from an export: `row` its 1-based number among the file's intents (the CSV header not counted). */
export interface ImportedIntent {
  row: number;
  intentId: string;
  muted: boolean;
  seed: ImportSeed;
}

/** A row that could not be read: its number (as {@link ImportedIntent.row}) and why, in the user's language. */
export interface ImportRowError {
  row: number;
  message: string;
}

/**
 * What reading a file gives: the intents to import (unique intentIds, the first row of each), the rows refused, and
 * how many rows repeated an intentId already read; or the reason the whole file is refused.
 */
export type ImportParse =
  | { ok: true; format: 'json' | 'csv'; intents: ImportedIntent[]; errors: ImportRowError[]; duplicates: number }
  | { ok: false; message: string };

/** A field's value as the file gave it (a JSON value, or a CSV cell's text). */
type Field = unknown;

/** Reads an export (JSON when it starts with `{` or `[`, else CSV). Never throws. */
export function parseImport(text: string): ImportParse {
  if (text.length > MAX_IMPORT_CHARS) return { ok: false, message: t('importTooBig', Math.round(MAX_IMPORT_CHARS / 1_000_000)) };
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body === '') return { ok: false, message: t('importEmpty') };
  const rows = body.startsWith('{') || body.startsWith('[') ? jsonRows(body) : csvRows(body);
  if (!rows.ok) return rows;
  if (rows.rows.length > MAX_IMPORT_ROWS) return { ok: false, message: t('importTooManyRows', MAX_IMPORT_ROWS.toLocaleString()) };
  const out: Extract<ImportParse, { ok: true }> = { ok: true, format: rows.format, intents: [], errors: [], duplicates: 0 };
  const seen = new Set<string>();
  rows.rows.forEach((fields, i) => {
    const read = readRow(fields, rows.format);
    if (typeof read === 'string') out.errors.push({ row: i + 1, message: t('importRowError', i + 1, read) });
    else if (seen.has(read.intentId)) out.duplicates++;
    else {
      seen.add(read.intentId);
      out.intents.push({ row: i + 1, ...read });
    }
  });
  return out;
}

/** The rows of a JSON export: `{intents: [...]}` (or a bare array of rows), each an object. */
function jsonRows(body: string): { ok: true; format: 'json'; rows: Array<Record<string, Field>> } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, message: t('importNotAnExport') };
  }
  const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.intents : undefined;
  if (!Array.isArray(list)) return { ok: false, message: t('importNotAnExport') };
  // A row that is not an object is kept as one without fields: it is reported by number.
  return { ok: true, format: 'json', rows: list.map((r) => (isRecord(r) ? r : {})) };
}

/** The rows of a CSV export: a header naming `intentId`, then one row per intent, cells by column name. */
function csvRows(body: string): { ok: true; format: 'csv'; rows: Array<Record<string, Field>> } | { ok: false; message: string } {
  const table = parseCsv(body, MAX_IMPORT_ROWS + 1);
  if (table === undefined) return { ok: false, message: t('importTooManyRows', MAX_IMPORT_ROWS.toLocaleString()) };
  const [header, ...lines] = table;
  const columns = (header ?? []).map((c) => c.trim());
  if (!columns.includes('intentId')) return { ok: false, message: t('importNotAnExport') };
  const known = new Set<string>(EXPORT_COLUMNS);
  return {
    ok: true,
    format: 'csv',
    rows: lines
      .filter((cells) => cells.some((c) => c !== ''))
      .map((cells) => Object.fromEntries(columns.flatMap((c, i) => (known.has(c) ? [[c, cells[i] ?? '']] : [])))),
  };
}

/**
 * RFC 4180 CSV (what `csvCell` writes): fields separated by commas, quoted with `"` when they hold a comma, quote or
 * line break (`""` inside is one quote); CRLF or LF line ends. Undefined when there are more than `maxRows` rows.
 */
export function parseCsv(text: string, maxRows: number): string[][] | undefined {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      if (rows.length > maxRows) return undefined;
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell);
  rows.push(row);
  return rows.length > maxRows ? undefined : rows;
}

/** A CSV cell the export escaped with `'` (a text starting with = + - @ tab or CR): the text itself. */
const ESCAPED = /^'[=+\-@\t\r]/;
/** A CSV cell a spreadsheet would run as a formula. */
const FORMULA = /^[=+\-@]/;

/** One row read, or the reason it cannot be (the user's language). */
function readRow(raw: Record<string, Field>, format: 'json' | 'csv'): Omit<ImportedIntent, 'row'> | string {
  const fields: Record<string, Field> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (format === 'csv' && typeof value === 'string') {
      if (FORMULA.test(value)) return t('importFormula', name);
      fields[name] = ESCAPED.test(value) ? value.slice(1) : value;
    } else fields[name] = value;
  }
  if (typeof fields.intentId !== 'string') return t('importNoIntentId');
  const id = parseIntentId(fields.intentId);
  if (!id.ok) return id.message;
  const seed: ImportSeed = {};
  const status = fields.status;
  if (status !== undefined && status !== '' && status !== null) {
    if (typeof status !== 'string' || !/^[A-Z][A-Z_]{0,39}$/.test(status)) return t('importBadField', 'status');
    seed.status = status;
  }
  for (const name of ['addedAt', 'notifiedAt'] as const) {
    const at = readTime(fields[name]);
    if (at === null) return t('importBadField', name);
    if (at !== undefined) seed[name] = at;
  }
  const muted = readBoolean(fields.muted);
  if (muted === null) return t('importBadField', 'muted');
  const receipt = fields.receipt;
  if (receipt !== undefined && receipt !== null) {
    if (!isRecord(receipt) || typeof receipt.intentId !== 'string' || typeof receipt.status !== 'string') {
      return t('importBadField', 'receipt');
    }
    seed.receipt = receipt as unknown as IntentReceipt;
  }
  return { intentId: id.intentId, muted: muted ?? false, seed };
}

/** An ISO 8601 time (the export's form) in ms; undefined for none, null for something else. */
function readTime(value: Field): number | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** `true`/`false` (JSON booleans, or CSV text); undefined for none, null for something else. */
function readBoolean(value: Field): boolean | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return null;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What the import preview counts: `total` intents read, `fresh` not tracked yet (`trackedIds`: intentIds as stored),
 * `already` tracked, and of the fresh ones `ended` (a final status: not notified again) and `muted`.
 */
export interface ImportSummary {
  total: number;
  fresh: number;
  already: number;
  ended: number;
  muted: number;
}

/** Counts what importing `intents` would do next to the intents tracked now. O(n). */
export function importSummary(intents: readonly ImportedIntent[], trackedIds: ReadonlySet<string>): ImportSummary {
  const fresh = intents.filter((i) => !trackedIds.has(i.intentId));
  return {
    total: intents.length,
    fresh: fresh.length,
    already: intents.length - fresh.length,
    ended: fresh.filter((i) => FINAL_INTENT_STATUSES.includes(i.seed.receipt?.status ?? i.seed.status ?? '')).length,
    muted: fresh.filter((i) => i.muted).length,
  };
}
