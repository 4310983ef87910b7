import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { isInFlight } from '@/lib/eta';
import { isChangedMessage } from '@/lib/messages';
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
  /** Every tracked intent, newest added first; undefined until first read. */
  intents: TrackedIntent[] | undefined;
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
 * The tracked intents and the tracker state, read from IndexedDB when the popup opens and again whenever the worker
 * says they changed. Opening also tells the worker to resume and, once the list is shown, that finished intents are
 * seen.
 */
export function useTrackedIntents(): TrackedIntents {
  const [intents, setIntents] = useState<TrackedIntent[] | undefined>();
  const [trackerState, setTrackerState] = useState<TrackerState>({});
  const [now, setNow] = useState(serviceNow());

  // Reloads overlap (one per change message) and may finish out of order: a result is applied only when no later
  // reload has been applied, so an older picture of the store never replaces a newer one.
  const reloads = useRef({ started: 0, applied: 0 });
  const reload = useCallback(async () => {
    const seq = ++reloads.current.started;
    const [list, state] = await Promise.all([intentStore.list(), trackerStateStore.get(), loadServiceOffset()]);
    if (seq < reloads.current.applied) return;
    reloads.current.applied = seq;
    setIntents(list);
    setTrackerState(state ?? {});
    setNow(serviceNow());
  }, []);

  useEffect(() => {
    void reload().then(() => send({ type: 'seen' }));
    void send({ type: 'resume' });
    const onMessage = (msg: unknown) => {
      if (isChangedMessage(msg)) void reload();
    };
    browser.runtime.onMessage.addListener(onMessage);
    return () => browser.runtime.onMessage.removeListener(onMessage);
  }, [reload]);

  const live = intents?.some(isInFlight) ?? false;
  useEffect(() => {
    const tick = setInterval(() => setNow(serviceNow()), live ? LIVE_TICK_MS : TICK_MS);
    return () => clearInterval(tick);
  }, [live]);

  return { intents, trackerState, now, reload };
}
