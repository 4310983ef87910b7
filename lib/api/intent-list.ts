/**
 * Reading a list of intentIds pasted at once (a column copied from a spreadsheet, a log, a chat): any separators —
 * line breaks, commas, semicolons, spaces, tabs — and quotes or brackets around an id are dropped; each id is
 * validated as one typed alone (`./intent-id.ts`). Linear in the text's length. Pure.
 */
import { parseIntentId } from './intent-id';

/** IntentIds tracked by one request at most (the `track-many` message, an import). */
export const MAX_TRACK_MANY = 10_000;
/** Pasted text read at most (characters): 10,000 ids of 66 characters with their separators fit. */
export const MAX_LIST_TEXT = 1_000_000;

/** Separators between ids. */
const SEPARATORS = /[\s,;]+/;
/** Quotes and brackets around an id (a JSON array, a quoted CSV cell). */
const WRAPPING = /^["'`[\](){}<>]+|["'`[\](){}<>]+$/g;

/** A token that is not an intentId, with the reason (the user's language). */
export interface InvalidId {
  text: string;
  message: string;
}

/**
 * A list as read: `intentIds` valid, normalised (hex lower-cased) and unique, in the order first given; `duplicates`
 * how many valid tokens repeated one already in the list; `invalid` every token that is not an intentId.
 */
export interface IntentList {
  intentIds: string[];
  duplicates: number;
  invalid: InvalidId[];
}

/** Splits text into the tokens that may be intentIds (separators, quotes and brackets dropped; empty ones too). */
export function splitIntentIds(text: string): string[] {
  return text
    .split(SEPARATORS)
    .map((token) => token.replace(WRAPPING, ''))
    .filter((token) => token !== '');
}

/** Validates and de-duplicates tokens (see {@link IntentList}). O(n). Never throws. */
export function readIntentTokens(tokens: readonly string[]): IntentList {
  const seen = new Set<string>();
  const out: IntentList = { intentIds: [], duplicates: 0, invalid: [] };
  for (const text of tokens) {
    const parsed = parseIntentId(text);
    if (!parsed.ok) out.invalid.push({ text, message: parsed.message });
    else if (seen.has(parsed.intentId)) out.duplicates++;
    else {
      seen.add(parsed.intentId);
      out.intentIds.push(parsed.intentId);
    }
  }
  return out;
}

/**
 * Reads pasted text as a list of intentIds. `tooLong` when the text is over {@link MAX_LIST_TEXT} characters or
 * holds over {@link MAX_TRACK_MANY} tokens: then nothing is read (the caller says so and keeps the text).
 */
export function readIntentList(text: string): IntentList & { tooLong: boolean } {
  const tokens = text.length > MAX_LIST_TEXT ? undefined : splitIntentIds(text);
  if (!tokens || tokens.length > MAX_TRACK_MANY) return { intentIds: [], duplicates: 0, invalid: [], tooLong: true };
  return { ...readIntentTokens(tokens), tooLong: false };
}

/**
 * True when pasted text is read as a list (`track-many`) rather than one intentId: over the bounds, or more than one
 * token with either a valid intentId among them or a separator other than a space (a line break, comma, semicolon,
 * tab). A phrase of words with spaces is one wrong id, and said as such.
 */
export function isIntentList(text: string, list: IntentList & { tooLong: boolean }): boolean {
  if (list.tooLong) return true;
  const tokens = list.intentIds.length + list.duplicates + list.invalid.length;
  return tokens > 1 && (list.intentIds.length > 0 || /[\r\n\t,;]/.test(text));
}
