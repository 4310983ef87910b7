/**
 * The Svc client the worker calls the service with: one for the saved settings, rebuilt when they change. Every
 * request of the worker (the tracker's, ETA look-ups, the popup's details) goes through one limit: at most
 * `DEFAULT_TUNING.maxConcurrent` (4) in flight at once, the rest wait their turn (invariant I5).
 */
import pLimit from 'p-limit';
import { SvcClient } from '../api/client';
import type { SettingsStore } from '../store';
import { DEFAULT_TUNING } from '../tracker/types';

/** Time-out of the worker's own calls (ms); the tracker's long-polls set their own. */
const CALL_TIMEOUT_MS = 20_000;

/** Hands out the client for the current settings. */
export interface ClientCache {
  /** The client for the saved base URL and access key; undefined while either is missing or the URL is unusable. */
  current(): Promise<SvcClient | undefined>;
  /** Forgets the client (the settings were saved): the next `current()` builds one from what is saved now. */
  reset(): void;
}

/**
 * `fetch` limited to `max` requests in flight; a request aborted while it waits for its turn is not sent (fetch
 * rejects at once with the signal's reason).
 */
export function limitedFetch(max: number, base: typeof fetch = (input, init) => globalThis.fetch(input, init)): typeof fetch {
  const limit = pLimit(max);
  return (input, init) => limit(() => base(input, init));
}

/** Creates the cache over the settings store; `fetch` is shared by every client it builds (tests inject one). */
export function createClientCache(
  settings: SettingsStore,
  fetch: typeof globalThis.fetch = limitedFetch(DEFAULT_TUNING.maxConcurrent),
): ClientCache {
  let cached: { key: string; client: SvcClient } | undefined;
  return {
    async current() {
      const s = await settings.get();
      if (!s?.baseUrl || !s.accessKey) return undefined;
      const key = `${s.baseUrl}\n${s.accessKey}`;
      if (cached?.key !== key) {
        try {
          cached = { key, client: new SvcClient({ baseUrl: s.baseUrl, accessKey: s.accessKey, timeoutMs: CALL_TIMEOUT_MS, fetch }) };
        } catch {
          return undefined;
        }
      }
      return cached.client;
    },
    reset() {
      cached = undefined;
    },
  };
}
