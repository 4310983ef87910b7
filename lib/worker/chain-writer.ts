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
   * Asks to store `verdict` for `intentId`, made by the check `gen`; resolves (never rejects) once it, or a newer
   * verdict asked for since, is stored, found unchanged, refused by storage (tried again at the next write: the
   * verdict last stored is then unknown), or dropped (its check is no longer `current`).
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
  const waiting = new Map<string, { gen: number; verdict: ChainVerdict }>();
  const queues = new Map<string, Promise<void>>();
  const writeNewest = async (id: string): Promise<void> => {
    const next = waiting.get(id);
    waiting.delete(id);
    if (!next || !current(id, next.gen)) return;
    // Written when it changed: the popup listens to storage changes.
    const json = JSON.stringify(next.verdict);
    if (stored.get(id)?.json === json) return;
    await area.set({ [chainVerdictKey(id)]: next.verdict }).then(
      () => void stored.set(id, { json, verdict: next.verdict }),
      () => void stored.delete(id),
    );
  };
  return {
    write(id, gen, verdict) {
      waiting.set(id, { gen, verdict });
      const run = (queues.get(id) ?? Promise.resolve()).then(() => writeNewest(id));
      queues.set(id, run);
      void run.then(() => {
        if (queues.get(id) === run) queues.delete(id);
      });
      return run;
    },
    written: (id) => stored.get(id)?.verdict,
    forget(id) {
      stored.delete(id);
      waiting.delete(id);
    },
  };
}
