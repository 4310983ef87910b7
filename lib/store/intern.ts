/**
 * One copy of each repeated string in the records the worker holds in memory. Every receipt parsed from the network
 * (JSON) or read from IndexedDB (structured clone) brings its own copy of each string value, and a desk's intents
 * repeat most of them: statuses and leg kinds, owner and token addresses, token names, symbols and logo URLs, chain
 * names, amounts of a usual size. At 5,000 tracked intents such copies were about 12 MB of the worker's 25 MB heap
 * (docs/memory.md). The table is bounded ({@link StringInterner.cap} entries, cleared when full) and leaves out the
 * fields that are unique to one intent or one moment, which would only churn it.
 */

/**
 * Fields whose values are unique to an intent, a transaction or a moment (the intentId, a transaction hash, every
 * `…At` time: createdAt, updatedAt, statusUpdatedAt, txnMinedAt, expiresAt, startedAt, finishedAt): never worth a
 * place in the table.
 */
const unique = (field: string) => field === 'intentId' || field === 'txnHash' || field.endsWith('At');

/** Nesting followed into a record (a receipt's summary → transaction → token metadata is 4 deep). */
const MAX_DEPTH = 8;

/** A bounded table of canonical string instances. */
export class StringInterner {
  readonly #table = new Map<string, string>();

  /**
   * @param cap most strings held at once; when full the table is cleared and starts again (strings already shared
   *   stay shared), so it never holds more than `cap`
   * @param maxLength strings longer than this (characters) are left as they are: long texts rarely repeat
   */
  constructor(
    readonly cap = 4_096,
    readonly maxLength = 200,
  ) {}

  /** How many strings the table holds (≤ {@link cap}). */
  get size(): number {
    return this.#table.size;
  }

  /** The table's instance of `s` (equal to it), added when missing. */
  string(s: string): string {
    if (s.length > this.maxLength) return s;
    const known = this.#table.get(s);
    if (known !== undefined) return known;
    if (this.#table.size >= this.cap) this.#table.clear();
    this.#table.set(s, s);
    return s;
  }

  /**
   * Replaces, in place, each string value of `value`'s plain objects and arrays (to {@link MAX_DEPTH} levels) by the
   * table's equal instance; values of the fields {@link unique} to an intent or a moment are kept out of the table but
   * shared within `value` (through `own`: a receipt repeats its intentId in each leg, a leg's hash in the summary).
   * Nothing observable changes: every value stays equal to what it was. Returns `value`.
   */
  deep<T>(value: T, own = new Map<string, string>(), depth = 0): T {
    // A frozen object is left as it is (its fields cannot be set: it keeps its own copies).
    if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
    // An array's keys are its indexes: its elements are walked as an object's values.
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      const v = o[key];
      if (typeof v !== 'string') this.deep(v, own, depth + 1);
      else if (!unique(key)) o[key] = this.string(v);
      else o[key] = sharedIn(own, v);
    }
    return value;
  }
}

/** What {@link compactRecord} reads and rewrites of a tracked record. */
interface RecordStrings {
  intentId: string;
}

/** `own`'s instance of `s`, added when missing. */
function sharedIn(own: Map<string, string>, s: string): string {
  const known = own.get(s);
  if (known !== undefined) return known;
  own.set(s, s);
  return s;
}

/**
 * Shares the strings of a tracked record held in memory (`lib/tracker/mirror.ts`): every `intentId` in it (the
 * receipt's, each leg's, the summary's) becomes the record's own instance, a transaction hash or time repeated in it
 * one instance, and every other repeated string the table's. In place; returns `record`.
 */
export function compactRecord<T extends RecordStrings>(record: T, strings: StringInterner): T {
  return strings.deep(record, new Map([[record.intentId, record.intentId]]));
}
