/**
 * The writes of each intent's verdict to storage.local (`chainVerdict:<intentId>`, docs/chain.md "In the worker"): a
 * check writes each leg's verdict as its chain answers, and the whole at its end, so several writes of one key may be
 * asked for while one is under way. They go one at a time per intent, each taking the newest verdict asked for (an
 * older one still waiting is dropped, never written over a newer), and none of a check overtaken or forgotten since.
 */
import type { ChainVerdict } from '../store';
import { chainVerdictKey } from '../store/chain';
import type { LocalArea } from './chain-stores';

/** The writer of {@link createVerdictWriter}. */
export interface VerdictWriter {
  /**
   * Asks to store `verdict` for `intentId`, made by the check `gen`, after the intent's writes asked before it; resolves
   * (never rejects) once it is stored, found unchanged, refused by storage (then the verdict last stored is unknown,
   * and the next write is made whatever it holds), or dropped: a newer verdict was asked for since (that one is
   * written), or its check is no longer `current`.
   */
  write(intentId: string, gen: number, verdict: ChainVerdict): Promise<void>;
  /** The verdict this life last stored for the intent (undefined: none, or the last write was refused). */
  written(intentId: string): ChainVerdict | undefined;
  /** Drops what is known of the intent's writes (its verdict is being removed). */
  forget(intentId: string): void;
}

/** Builds a {@link VerdictWriter} on `area`; `current(intentId, gen)`: whether the check `gen` is the intent's latest. */
export function createVerdictWriter(area: LocalArea, current: (intentId: string, gen: number) => boolean): VerdictWriter {
  const stored = new Map<string, { json: string; verdict: ChainVerdict }>();
  /** The number of the newest write asked for, per intent. */
  const newest = new Map<string, number>();
  const queues = new Map<string, Promise<void>>();
  /** Per intent, how often it was forgotten: a write that lands after its intent was forgotten is not taken as stored. */
  const forgotten = new Map<string, number>();
  let asked = 0;
  return {
    write(id, gen, verdict) {
      const n = ++asked;
      newest.set(id, n);
      // Written when it changed: the popup listens to storage changes.
      const json = JSON.stringify(verdict);
      const run = (queues.get(id) ?? Promise.resolve()).then(async () => {
        if (newest.get(id) !== n || !current(id, gen) || stored.get(id)?.json === json) return;
        const epoch = forgotten.get(id);
        await area.set({ [chainVerdictKey(id)]: verdict }).then(
          () => void (forgotten.get(id) === epoch && stored.set(id, { json, verdict })),
          () => void stored.delete(id),
        );
      });
      queues.set(id, run);
      return run;
    },
    written: (id) => stored.get(id)?.verdict,
    forget(id) {
      forgotten.set(id, (forgotten.get(id) ?? 0) + 1);
      stored.delete(id);
      queues.delete(id);
    },
  };
}
