import { useEffect, useRef, useState } from 'preact/hooks';

/** One request of a view, and what to do with its outcome. */
export interface ViewRequest<T> {
  ask: () => Promise<T>;
  /** Called with the answer only while this is still the view's latest request. */
  apply: (answer: T) => void;
  /** Called with the error only while this is still the view's latest request. */
  fail: (err: unknown) => void;
}

/**
 * The latest request of a view (a lookup tab) wins: starting a request supersedes every earlier one, whose answer or
 * error is then dropped, never shown; unmounting the view (tab changed) drops them all. `busy` is true from the
 * start of the latest request until it settles. `pending()` says the same synchronously, for an event handler that
 * runs before the next render (e.g. "Load more" pressed in the frame in which a filter change started its request).
 */
export function useLatestRequest(initiallyBusy = false): {
  run: <T>(request: ViewRequest<T>) => Promise<void>;
  busy: boolean;
  pending: () => boolean;
} {
  const latest = useRef(0);
  const pending = useRef(initiallyBusy);
  const [busy, setBusy] = useState(initiallyBusy);
  // NaN never equals itself: after unmount no answer is the latest.
  useEffect(
    () => () => {
      latest.current = Number.NaN;
    },
    [],
  );
  const run = async <T>({ ask, apply, fail }: ViewRequest<T>) => {
    const mine = ++latest.current;
    pending.current = true;
    setBusy(true);
    try {
      const answer = await ask();
      if (mine === latest.current) apply(answer);
    } catch (err) {
      if (mine === latest.current) fail(err);
    } finally {
      if (mine === latest.current) {
        pending.current = false;
        setBusy(false);
      }
    }
  };
  return { run, busy, pending: () => pending.current };
}
