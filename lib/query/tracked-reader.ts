/**
 * How the popup reads the tracked list (pure: the worker and the store are injected). On opening: the first screenful
 * from the worker, then the whole list; on a "changed" broadcast: only the intents it names, patched into the list
 * held (`patchList`), so that a desk of 5,000 intents, 500 of them in flight, re-reads a few records a second rather
 * than all of them. Reads run one after another, each applied before the next starts, so an older picture never
 * replaces a newer one; changes that arrive while a read runs are read together next.
 */
import type { TrackedIntent } from '../store';
import { FIRST_SCREEN_ROWS, patchList } from './tracked-page';

/** Where the list comes from. */
export interface TrackedSource {
  /**
   * The worker's `tracked` answer (`lib/worker/tracked-handler.ts`) to `request`, or undefined when it gave none
   * (then the store is read).
   */
  ask(request: { first?: number; intentIds?: string[] }): Promise<{ intents: TrackedIntent[]; total: number } | undefined>;
  /** Every tracked intent from IndexedDB, newest added first (`IntentStore.list`). */
  readStore(): Promise<TrackedIntent[]>;
}

/** What the popup shows: the whole list once read; before that, the first rows and how many there are in all. */
export type TrackedView = { list: TrackedIntent[] } | { first: TrackedIntent[]; total: number };

/** The reader's commands. Each resolves once its read is applied (a failed read leaves the view as it was). */
export interface TrackedReader {
  /** The first screenful (when the list is not held yet), then the whole list. */
  open(): Promise<void>;
  /** The whole list again. */
  reload(): Promise<void>;
  /** The worker says these intents changed: read them (all of them when the list is not held yet). */
  changed(intentIds: readonly string[]): Promise<void>;
}

/** Creates the reader over `source`; `show` receives each new view, in order. */
export function createTrackedReader(source: TrackedSource, show: (view: TrackedView) => void): TrackedReader {
  let list: TrackedIntent[] | undefined;
  let chain: Promise<void> = Promise.resolve();
  const pending = new Set<string>();
  let patchQueued: Promise<void> | undefined;
  const enqueue = (read: () => Promise<void>) => {
    chain = chain.then(read).catch(() => {});
    return chain;
  };
  const readAll = async () => {
    const answer = await source.ask({});
    list = answer ? answer.intents : await source.readStore();
    show({ list });
  };
  const patch = async () => {
    patchQueued = undefined;
    const ids = [...pending];
    pending.clear();
    if (list === undefined) return readAll();
    const answer = await source.ask({ intentIds: ids });
    if (!answer) return readAll();
    list = patchList(list, ids, answer.intents);
    show({ list });
  };
  return {
    open() {
      void enqueue(async () => {
        if (list !== undefined) return;
        const answer = await source.ask({ first: FIRST_SCREEN_ROWS });
        if (answer && list === undefined) show({ first: answer.intents, total: answer.total });
      });
      return enqueue(readAll);
    },
    reload: () => enqueue(readAll),
    changed(intentIds) {
      if (intentIds.length === 0) return chain;
      for (const id of intentIds) pending.add(id);
      patchQueued ??= enqueue(patch);
      return patchQueued;
    },
  };
}
