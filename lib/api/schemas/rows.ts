/**
 * List answers read row by row (GetIntentHistory, SearchIntents): a row that does not have its expected shape is set
 * aside with the reason, and the other rows are used, instead of one bad row rejecting the whole page (a sweeper or a
 * watched-address check would otherwise stall on that page for good).
 */
import * as z from 'zod/mini';
import { opt } from './fields';

/** A row of a list answer set aside because it did not have its expected shape. */
export interface SetAsideRow {
  /** Its place in the answer's list (0-based). */
  index: number;
  /** Its intentId, when it has a readable one. */
  intentId?: string;
  /** What is wrong: the first offending field and the problem, e.g. `receipt.status: Invalid input`. */
  reason: string;
}

/** The rows of a list answer: those accepted (parsed) and, when there are any, those set aside. */
export interface Rows<T> {
  intents: T[];
  setAside?: SetAsideRow[];
}

/** Formats a zod issue path as `a.b[0].c`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), '');
}

/** Parses each of `items` with `row`: the rows it accepts, and the others set aside with their reason. Never throws. */
export function rowsOf<S extends z.ZodMiniType>(row: S, items: readonly unknown[]): Rows<z.output<S>> {
  const intents: Array<z.output<S>> = [];
  const setAside: SetAsideRow[] = [];
  items.forEach((item, index) => {
    const r = row.safeParse(item);
    if (r.success) {
      intents.push(r.data);
      return;
    }
    const issue = r.error.issues[0];
    const id = typeof item === 'object' && item !== null ? (item as { intentId?: unknown }).intentId : undefined;
    setAside.push({
      index,
      ...(typeof id === 'string' ? { intentId: id } : {}),
      reason: `${issue ? issuePath(issue.path) || '(row)' : '(row)'}: ${issue?.message ?? 'invalid'}`,
    });
  });
  return setAside.length > 0 ? { intents, setAside } : { intents };
}

/**
 * The schema of a list answer `{intents: [...], nextPage?}` (GetIntentHistory, SearchIntents) whose `intents` are
 * read row by row with `row` ({@link rowsOf}); `nextPage`, when a schema is given, is checked as a whole.
 */
export function listAnswer<T, P = never>(
  row: z.ZodMiniType<T>,
  nextPage?: z.ZodMiniType<P>,
): z.ZodMiniType<Rows<T> & { nextPage?: P | null }> {
  return z.pipe(
    z.looseObject({ intents: z.array(z.unknown()), ...(nextPage ? { nextPage: opt(nextPage) } : {}) }),
    z.transform((a: { intents: unknown[]; nextPage?: unknown }) => ({
      ...rowsOf(row, a.intents),
      ...(a.nextPage === undefined ? {} : { nextPage: a.nextPage as P | null }),
    })),
  ) as unknown as z.ZodMiniType<Rows<T> & { nextPage?: P | null }>;
}
