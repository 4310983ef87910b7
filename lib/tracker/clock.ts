/** Time as the tracker sees it: real time in the worker, virtual time in tests. */

/** Time source. `now` in ms since the epoch; `sleep` resolves after `ms` ms, or early (without throwing) when `signal` aborts. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A clock on real time (`Date.now` and `setTimeout`). */
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
      signal?.addEventListener('abort', done, { once: true });
    }),
};
