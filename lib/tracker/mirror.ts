/**
 * The tracker's in-memory mirror of the intent store. The worker is the only writer of tracked intents: the mirror
 * is loaded once per engine and kept current by its own writes, each written to the store first. A removed intent
 * is tombstoned, so that a write still in flight when it was removed cannot bring it back into the mirror. Each record
 * held shares its repeated strings with the others (`compactRecord`, lib/store/intern.ts): a desk's thousands of
 * receipts would otherwise each keep their own copies.
 */
import type { IntentStore, TrackedIntent } from '../store';
import { compactRecord, StringInterner } from '../store/intern';

/** Loads once, writes through, forgets on remove. */
export class IntentMirror {
  readonly #map = new Map<string, TrackedIntent>();
  readonly #removed = new Set<string>();
  /** The strings the records held share (bounded). */
  readonly #strings = new StringInterner();
  /** Records changed in memory only ({@link IntentMirror.hold}): the next write of each starts from them. */
  readonly #held = new Map<string, TrackedIntent>();
  /**
   * Removals of an intent still waiting for the store, and what the mirror had before the first of them: a refusal
   * while a later removal is pending leaves the outcome to that one (the store runs them in order).
   */
  readonly #removing = new Map<string, { pending: number; wasRemoved: boolean; before: TrackedIntent | undefined }>();
  /** The last removal of each intent still awaiting the store, settled either way ({@link IntentMirror.removalSettled}). */
  readonly #removals = new Map<string, Promise<void>>();
  #loaded: Promise<void> | undefined;

  constructor(
    readonly store: IntentStore,
    readonly onChange?: (intentId: string) => void,
  ) {}

  /**
   * Loads the store once. Never reloaded over itself: a second picture read while writes were under way could be
   * older than the mirror and drop an intent tracked meanwhile. A failed load is retried by the next call.
   */
  load(): Promise<void> {
    this.#loaded ??= this.store.list().then(
      (all) => this.adopt(all),
      (err: unknown) => {
        this.#loaded = undefined;
        throw err;
      },
    );
    return this.#loaded;
  }

  /**
   * Takes the store's list as read (by {@link IntentMirror.load}, or by the engine's bounded read, ./load-bound): once,
   * before any write; an intent removed or already held meanwhile is left as the mirror has it.
   */
  adopt(all: readonly TrackedIntent[]): void {
    for (const t of all) if (!this.#removed.has(t.intentId) && !this.#map.has(t.intentId)) this.#keep(t);
  }

  get(intentId: string): TrackedIntent | undefined {
    return this.#map.get(intentId);
  }

  /** Every intent held. */
  values(): TrackedIntent[] {
    return [...this.#map.values()];
  }

  /**
   * Writes one record through the store (atomic), mirrors it unless it was removed meanwhile, and tells listeners
   * (unless `quiet`). `fn` returns undefined to leave the record as it is. Resolves with the stored record.
   */
  async write(
    intentId: string,
    fn: (current: TrackedIntent | undefined) => TrackedIntent | undefined,
    options: { quiet?: boolean } = {},
  ): Promise<TrackedIntent | undefined> {
    let changed = false;
    const held = this.#held.get(intentId);
    const written = await this.store.update(intentId, (current) => {
      const next = fn(held ?? current);
      changed = next !== undefined;
      return next;
    });
    if (changed && this.#held.get(intentId) === held) this.#held.delete(intentId);
    if (this.#removed.has(intentId)) return undefined;
    if (written && changed) this.#keep(written, intentId);
    if (changed && !options.quiet) this.onChange?.(intentId);
    return written;
  }

  /**
   * {@link write} of many records in one store transaction (`updateMany`: all or none). `fn(intentId, current)`; ids
   * must be unique. Listeners are told of each changed record (unless `quiet`). Resolves with the stored
   * record per id (undefined for one removed meanwhile), in the order given.
   */
  async writeMany(
    intentIds: readonly string[],
    fn: (intentId: string, current: TrackedIntent | undefined) => TrackedIntent | undefined,
    options: { quiet?: boolean } = {},
  ): Promise<Array<TrackedIntent | undefined>> {
    const changed = new Set<string>();
    const held = new Map(intentIds.map((id) => [id, this.#held.get(id)]));
    const written = await this.store.updateMany(intentIds, (id, current) => {
      const next = fn(id, held.get(id) ?? current);
      if (next !== undefined) changed.add(id);
      return next;
    });
    for (const id of changed) if (this.#held.get(id) === held.get(id)) this.#held.delete(id);
    return intentIds.map((id, i) => {
      if (this.#removed.has(id)) return undefined;
      const record = written[i];
      if (record && changed.has(id)) {
        this.#keep(record, id);
        if (!options.quiet) this.onChange?.(id);
      }
      return record;
    });
  }

  /**
   * Quietly changes every held record that `select` picks, by `fn` (undefined: left as it is), in one store
   * transaction ({@link writeMany}: all or none; rejects when the store refuses). Resolves with how many changed.
   */
  async writeEach(
    select: (record: TrackedIntent) => boolean,
    fn: (current: TrackedIntent | undefined) => TrackedIntent | undefined,
  ): Promise<number> {
    const ids = [...this.#map.values()].filter(select).map((t) => t.intentId);
    if (ids.length === 0) return 0;
    let changed = 0;
    await this.writeMany(
      ids,
      (_id, current) => {
        const next = fn(current);
        if (next !== undefined) changed++;
        return next;
      },
      { quiet: true },
    );
    return changed;
  }

  /**
   * Holds `record` in memory when the store refused to write it (a change that must hold all the same: the times a
   * previous worker wrote before the clock went back, moved back at load). The mirror shows it, and the next write of
   * this intent starts from it rather than from the store's older copy; once written, it is the store's again. A
   * removed intent is left alone.
   */
  hold(record: TrackedIntent): void {
    if (this.#removed.has(record.intentId) || !this.#map.has(record.intentId)) return;
    this.#keep(record);
    this.#held.set(record.intentId, record);
  }

  /**
   * Forgets an intent: at once in memory (tombstoned), then in the store. When the store refuses the deletion (disk
   * full) the intent is kept — still tracked, still listed — and the error is thrown for the caller to tell the user:
   * as the store has it, or, when the mirror held a newer copy the store had refused ({@link IntentMirror.hold}: times
   * moved back at load), that copy, still held for the next write. Dropping the held copy would bring back the times
   * an earlier worker wrote before the clock went back: an intent an hour ahead is not asked for an hour.
   */
  remove(intentId: string): Promise<void> {
    const removal = this.#remove(intentId);
    const settled: Promise<void> = removal.then(
      () => this.#removalDone(intentId, settled),
      () => this.#removalDone(intentId, settled),
    );
    this.#removals.set(intentId, settled);
    return removal;
  }

  /**
   * Resolves once no removal of `intentId` awaits the store: the mirror then holds its outcome (a refused one: the intent
   * back, still tracked). Until then the intent is missing from the mirror without being gone for sure.
   */
  async removalSettled(intentId: string): Promise<void> {
    for (let r = this.#removals.get(intentId); r; r = this.#removals.get(intentId)) await r;
  }

  #removalDone(intentId: string, settled: Promise<void>): void {
    if (this.#removals.get(intentId) === settled) this.#removals.delete(intentId);
  }

  async #remove(intentId: string): Promise<void> {
    const chain = this.#removing.get(intentId) ?? { pending: 0, wasRemoved: this.#removed.has(intentId), before: this.#map.get(intentId) };
    chain.pending++;
    this.#removing.set(intentId, chain);
    this.#removed.add(intentId);
    this.#map.delete(intentId);
    try {
      await this.store.remove(intentId);
    } catch (err) {
      // A later removal of it is still pending: the store runs it after this one, and it decides.
      if (this.#settled(intentId, chain) > 0) throw err;
      if (!chain.wasRemoved) this.#removed.delete(intentId);
      // Still held: no write took it in meanwhile, so it is newer than the store's copy.
      const held = this.#held.get(intentId);
      const kept = held ?? (await this.store.get(intentId).catch(() => chain.before));
      if (kept && !this.#removed.has(intentId)) this.#keep(kept, intentId);
      else this.#held.delete(intentId);
      throw err;
    }
    this.#settled(intentId, chain);
    this.#held.delete(intentId);
    this.onChange?.(intentId);
  }

  /** One removal of `intentId` answered by the store: how many of its chain are still pending. */
  #settled(intentId: string, chain: { pending: number }): number {
    chain.pending--;
    if (chain.pending === 0 && this.#removing.get(intentId) === chain) this.#removing.delete(intentId);
    return chain.pending;
  }

  /**
   * Holds `record` (in place: its strings shared, {@link compactRecord}) under `key` (default its intentId, the key it was
   * written under): one instance of the id, the mirror's key's, however often the record is written (each write is a
   * new clone from the store). A record spelling its id otherwise than its key keeps its own.
   */
  #keep(record: TrackedIntent, key = record.intentId): void {
    const before = this.#map.get(key);
    if (before?.intentId === record.intentId) record.intentId = before.intentId;
    // A new entry equal to the record's id is keyed by the record's instance (a Map keeps the key of its first set).
    this.#map.set(key === record.intentId ? record.intentId : key, compactRecord(record, this.#strings));
  }

  /** Lifts the tombstone of an intent tracked again. */
  revive(intentId: string): void {
    this.#removed.delete(intentId);
  }
}
