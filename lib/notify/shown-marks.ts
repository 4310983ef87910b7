/**
 * A second record of "this notification was shown", outside IndexedDB: the pipeline (`./pipeline`) writes the
 * notification id here as soon as the browser's call that shows it resolved, before the outbox records `shown`.
 *
 * Why: on Chrome, a job found `showing` by a new worker is settled by asking the screen (`getAll`); a notification the
 * user closed is not there, and would be shown again. When IndexedDB refused the outbox's `shown` write (and the
 * retry's) and the worker then stopped, only a record kept elsewhere can say it was shown. The areas are
 * `storage.session` (memory: outlives the worker, not the browser; unaffected by a full disk) and `storage.local`
 * (disk: outlives the browser): a mark in either counts.
 *
 * Bounded: the newest {@link MAX_SHOWN_MARKS} ids, under one key per area. Writes of one worker go one at a time.
 */

/** The part of a `browser.storage` area used here. */
export interface MarkArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** The ids of notifications shown, as far as these areas could record them. */
export interface ShownMarks {
  /** Records that notification `id` was shown; resolves once any area took it, rejects when none could. */
  add(id: string): Promise<void>;
  /** Whether any area holds a mark for `id`; false when none can be read. Never rejects. */
  has(id: string): Promise<boolean>;
}

/** The storage key of the marks (a list of notification ids, oldest first). */
export const SHOWN_MARKS_KEY = 'svc-shown-notifications';
/** Marks kept per area (oldest forgotten first): far more than the notifications a worker can leave unsettled. */
export const MAX_SHOWN_MARKS = 200;

const idsIn = (items: Record<string, unknown>): string[] => {
  const v = items[SHOWN_MARKS_KEY];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

/** Creates the marks over `areas` (those undefined are skipped; none at all: `add` rejects, `has` is false). */
export function createShownMarks(areas: ReadonlyArray<MarkArea | undefined>): ShownMarks {
  const usable = areas.filter((a): a is MarkArea => a !== undefined);
  let queue: Promise<unknown> = Promise.resolve();
  const addTo = async (area: MarkArea, id: string) => {
    const ids = idsIn(await area.get(SHOWN_MARKS_KEY)).filter((x) => x !== id);
    await area.set({ [SHOWN_MARKS_KEY]: [...ids, id].slice(-MAX_SHOWN_MARKS) });
  };
  return {
    add(id) {
      const run = queue.then(async () => {
        const results = await Promise.allSettled(usable.map((a) => addTo(a, id)));
        if (!results.some((r) => r.status === 'fulfilled')) throw new Error('no storage area took the shown mark');
      });
      queue = run.catch(() => {});
      return run;
    },
    async has(id) {
      const found = await Promise.all(
        usable.map((a) =>
          a.get(SHOWN_MARKS_KEY).then(
            (items) => idsIn(items).includes(id),
            () => false,
          ),
        ),
      );
      return found.some(Boolean);
    },
  };
}
