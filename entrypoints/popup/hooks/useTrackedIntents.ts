import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { isInFlight } from '@/lib/eta';
import { isChangedMessage } from '@/lib/messages';
import { createTrackedReader, type TrackedView } from '@/lib/query/tracked-reader';
import type { TrackedIntent, TrackerState } from '@/lib/store';
import { loadServiceOffset, serviceNow } from '../service-time';
import { intentStore, trackerStateStore } from '../stores';
import { send } from '../worker-messages';

/** How often relative times ("2 min ago") move on while the popup is open (ms). */
const TICK_MS = 15_000;
/** How often while an intent is in flight: its countdown moves by the second. */
const LIVE_TICK_MS = 1_000;

/** The tracked list as the popup shows it. */
export interface TrackedIntents {
  /**
   * Every tracked intent, newest added first, as the list's rows (`lib/query/tracked-row.ts`: the receipt cut to what
   * a row reads); undefined until first read.
   */
  intents: TrackedIntent[] | undefined;
  /** Before the whole list is read: its first rows in the order the list shows them, and how many are tracked. */
  firstRows?: { rows: TrackedIntent[]; total: number };
  /** Rate-limit pause and rejected key. */
  trackerState: TrackerState;
  /**
   * When the list was last read, or the last tick (ms, on the service's clock as the worker estimates it): the
   * reference for relative times and ETAs, which compare it with the service's timestamps.
   */
  now: number;
  /** Reads the list again now. */
  reload(): Promise<void>;
}

/**
 * The worker's `tracked` answer (the list's rows unless `whole`), or undefined when it gave none or not a list (a
 * worker of another version).
 */
async function askWorker(request: { first?: number; intentIds?: string[] }, whole = false) {
  const reply = await send({ type: 'tracked', ...request, ...(whole ? {} : { rows: true }) });
  return reply.ok && Array.isArray(reply.intents) ? reply : undefined;
}

/**
 * Every tracked intent as a whole record (receipt and all), newest added first, for the exports: from the worker's
 * memory, or IndexedDB when the worker does not answer.
 */
export async function readWholeList(): Promise<TrackedIntent[]> {
  return (await askWorker({}, true))?.intents ?? (await intentStore.list());
}

/**
 * One tracked intent as a whole record, for its receipt view: from the worker's memory, or IndexedDB when the worker
 * does not answer; undefined when it is not tracked.
 */
export async function readWholeRecord(intentId: string): Promise<TrackedIntent | undefined> {
  const answer = await askWorker({ intentIds: [intentId] }, true);
  return answer ? answer.intents.find((t) => t.intentId === intentId) : await intentStore.get(intentId);
}

/**
 * The tracked intents and the tracker state. The list comes from the worker's memory (`tracked`), never waiting for
 * IndexedDB behind the worker's writes (IndexedDB only when the worker does not answer): on opening its first
 * screenful, then all of it; on each "changed" broadcast only the intents it names (`lib/query/tracked-reader.ts`).
 * Opening also tells the worker to resume and, once the list is shown, that finished intents are seen.
 */
export function useTrackedIntents(): TrackedIntents {
  const [view, setView] = useState<TrackedView | undefined>();
  const [trackerState, setTrackerState] = useState<TrackerState>({});
  const [now, setNow] = useState(serviceNow());

  // Views are applied once the service's clock offset is read, in the order the reader gives them.
  const reader = useMemo(() => {
    const offsetRead = loadServiceOffset();
    return createTrackedReader({ ask: (request) => askWorker(request), readStore: () => intentStore.list() }, (next) => {
      void offsetRead.then(() => {
        setView(next);
        setNow(serviceNow());
      });
    });
  }, []);
  const readState = useCallback(
    () =>
      void trackerStateStore
        .get()
        .then((state) => setTrackerState(state ?? {}))
        .catch(() => {}),
    [],
  );
  const reload = useCallback(async () => {
    readState();
    await reader.reload();
  }, [reader, readState]);

  useEffect(() => {
    readState();
    void reader.open().then(() => send({ type: 'seen' }));
    void send({ type: 'resume' });
    const onMessage = (msg: unknown) => {
      if (!isChangedMessage(msg)) return;
      readState();
      void reader.changed(msg.intentIds);
    };
    browser.runtime.onMessage.addListener(onMessage);
    return () => browser.runtime.onMessage.removeListener(onMessage);
  }, [reader, readState]);

  const intents = view && 'list' in view ? view.list : undefined;
  const firstRows = view && 'first' in view ? { rows: view.first, total: view.total } : undefined;
  const live = (intents ?? firstRows?.rows)?.some(isInFlight) ?? false;
  useEffect(() => {
    const tick = setInterval(() => setNow(serviceNow()), live ? LIVE_TICK_MS : TICK_MS);
    return () => clearInterval(tick);
  }, [live]);

  return { intents, firstRows, trackerState, now, reload };
}
