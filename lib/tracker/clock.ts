/** Time source of the tracker: real time in the worker, virtual time in tests and the campaign. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A clock on real time (`Date.now`, `setTimeout`). */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      // `done` removes the listener itself (on time or on abort): a signal that outlives the sleep keeps none.
      signal?.addEventListener('abort', done);
    }),
};
