/** Time source of the tracker: real time in the worker, virtual time in tests and the campaign. */
export interface Clock {
  /** Wall-clock time: milliseconds since the epoch. It jumps (NTP corrections, a user setting the clock): never
   * measure a duration with it. */
  now(): number;
  /** Monotonic time: milliseconds since an arbitrary origin (per worker life). Never goes back, never jumps: every
   * duration (a back-off, a hold, a rate window) is measured on it. Not comparable across worker lives. */
  monotonic(): number;
  /** Resolves after `ms` milliseconds, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The longest delay `setTimeout` keeps (ms): a longer one fires at once (and re-armed, spins). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A clock on real time (`Date.now`, `performance.now`, `setTimeout`). A sleep longer than {@link MAX_TIMER_MS} ends
 * after MAX_TIMER_MS (about 24.8 days): callers look at the time again when a sleep ends.
 */
export const realClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, Math.min(Math.max(0, ms), MAX_TIMER_MS));
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      // `done` removes the listener itself (on time or on abort): a signal that outlives the sleep keeps none.
      signal?.addEventListener('abort', done);
    }),
};
