/** The Svc client the worker calls the service with: one for the saved settings, rebuilt when they change. */
import { SvcClient } from '../api/client';
import type { SettingsStore } from '../store';

/** Time-out of the worker's own calls (ms); the tracker's long-polls set their own. */
const CALL_TIMEOUT_MS = 20_000;

/** Hands out the client for the current settings. */
export interface ClientCache {
  /** The client for the saved base URL and access key; undefined while either is missing or the URL is unusable. */
  current(): Promise<SvcClient | undefined>;
  /** Forgets the client (the settings were saved): the next `current()` builds one from what is saved now. */
  reset(): void;
}

/** Creates the cache over the settings store. */
export function createClientCache(settings: SettingsStore): ClientCache {
  let cached: { key: string; client: SvcClient } | undefined;
  return {
    async current() {
      const s = await settings.get();
      if (!s?.baseUrl || !s.accessKey) return undefined;
      const key = `${s.baseUrl}\n${s.accessKey}`;
      if (cached?.key !== key) {
        try {
          cached = { key, client: new SvcClient({ baseUrl: s.baseUrl, accessKey: s.accessKey, timeoutMs: CALL_TIMEOUT_MS }) };
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
