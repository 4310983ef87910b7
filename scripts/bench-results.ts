/**
 * How `npm run bench` writes `bench/results.json`: every row this run measured, beside every row of the file it did
 * not measure, whatever parts ran (a full run does not measure the chain or memory rows, and must not drop them).
 * A row is named by `row` (older files: its kind and size); a row measured again replaces only itself. Each row
 * keeps when it was measured and on what machine, so that rows of different runs can stand in one file.
 */

/** What the merge reads of a row. */
export interface ResultRow {
  /** Names the row; older files have none (then `kind intents`). */
  row?: string;
  kind: string;
  intents: number;
  /** When the row was measured (ISO 8601); older files' rows have none (then the file's `machine.date`). */
  measuredAt?: string;
  /** The machine it was measured on; older files' rows have none (then the file's `machine`). */
  machine?: unknown;
  scale?: unknown;
  desk?: unknown;
  memory?: unknown;
  chain?: unknown;
}

/** A results file as written. */
export interface ResultsFile<R extends ResultRow> {
  machine: { date: string } & Record<string, unknown>;
  results: R[];
}

/** The name of a row. */
export const rowName = (r: ResultRow): string => r.row ?? `${r.kind} ${r.intents}`;

/** Rows of an earlier file, each named and dated, with the file's machine where the row has none of its own. */
export function earlierRows<R extends ResultRow>(file: ResultsFile<R> | undefined): R[] {
  if (!file) return [];
  const { date, settings: _settings, ...machine } = file.machine;
  return file.results.map((r) => ({ ...r, row: rowName(r), measuredAt: r.measuredAt ?? date, machine: r.machine ?? { ...machine, date } }));
}

/** Node rows, then browser, scale, desk, memory and chain rows; within a group by size, then kind. */
function group(r: ResultRow): number {
  if (r.chain) return 5;
  if (r.memory) return 4;
  if (r.desk) return 3;
  if (r.scale) return 2;
  return r.kind.includes('browser') ? 1 : 0;
}

/** The rows to write: `measured` (this run), and every row of `earlier` that this run did not measure, in order. */
export function mergeResults<R extends ResultRow>(earlier: readonly R[], measured: readonly R[]): R[] {
  const names = new Set(measured.map(rowName));
  return [...earlier.filter((e) => !names.has(rowName(e))), ...measured].sort(
    (a, b) => group(a) - group(b) || (a.scale ? 0 : a.intents - b.intents || a.kind.localeCompare(b.kind)),
  );
}
