/**
 * The Svc clients the worker calls the service with: one per lane for the saved settings, rebuilt when they change,
 * all over the worker's one {@link RequestBudget} (invariant I5): at most 4 requests in flight at once, the user's
 * look-ups first in line, and one rate for the whole worker, so that background work (watched addresses, ETA
 * baselines) waits for what the tracker leaves of the idle budget.
 */
import { type Lane, RequestBudget } from '../api/budget';
import { SvcReadClient } from '../api/read-client';
import { holdScopeOf } from '../api/retry-after';
import type { Timers } from '../platform';
import type { SettingsStore } from '../store';

export type { Lane } from '../api/budget';

/** Time-out of the worker's own calls (ms), from when each is sent; the tracker's long-polls set their own. */
const CALL_TIMEOUT_MS = 20_000;

/** Hands out the clients for the current settings. */
export interface ClientCache {
  /**
   * The client of `lane` for the saved base URL and access key; undefined while either is missing or the URL is
   * unusable. Every client shares {@link ClientCache.budget}.
   */
  current(lane: Lane): Promise<SvcReadClient | undefined>;
  /** A client for settings not saved yet (the options page's Test connection), on the same budget, in the user's lane. */
  forSettings(baseUrl: string, accessKey: string): SvcReadClient;
  /** Forgets the clients (the settings were saved): the next `current()` builds them from what is saved now. */
  reset(): void;
  /**
   * The `Retry-After` hold scope of the saved service (`holdScopeOf` in lib/api/retry-after.ts); undefined while not
   * configured. A hold of another scope (Test connection of another URL or key) is not the tracker's.
   */
  scope(): Promise<string | undefined>;
  /** The worker's request budget. */
  readonly budget: RequestBudget;
}

/** What the cache can be given (tests inject a fetch and a budget on virtual time). */
export interface ClientCacheOptions {
  /** The fetch of every client (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /**
   * The fetch of the saved service's clients only (default `fetch`): the worker's feeds the service clock with their
   * `Date` headers. Test connection of settings not saved uses `fetch`: another server's time never moves the clock.
   */
  configuredFetch?: typeof globalThis.fetch;
  /** The saved service's time (ms since the epoch), to read an HTTP-date `Retry-After` of its answers. */
  serviceNow?: () => number;
  budget?: RequestBudget;
  /** The time-out timers of every call (the platform's; default the global ones). */
  timers?: Timers;
  /** Wall-clock time in ms, to read an HTTP-date `Retry-After` (the platform's clock; default `Date.now`). */
  now?: () => number;
}

/** Creates the cache over the settings store. */
export function createClientCache(settings: SettingsStore, options: ClientCacheOptions = {}): ClientCache {
  const budget = options.budget ?? new RequestBudget();
  const build = (baseUrl: string, accessKey: string, lane: Lane, configured: boolean) => {
    const fetch = configured ? (options.configuredFetch ?? options.fetch) : options.fetch;
    return new SvcReadClient({
      baseUrl,
      accessKey,
      timeoutMs: CALL_TIMEOUT_MS,
      budget,
      lane,
      ...(fetch ? { fetch } : {}),
      ...(configured && options.serviceNow ? { serviceNow: options.serviceNow } : {}),
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  };
  let cached: { key: string; clients: Partial<Record<Lane, SvcReadClient>> } | undefined;
  return {
    budget,
    async current(lane) {
      const s = await settings.get();
      if (!s?.baseUrl || !s.accessKey) return undefined;
      const key = `${s.baseUrl}\n${s.accessKey}`;
      if (cached?.key !== key) cached = { key, clients: {} };
      try {
        cached.clients[lane] ??= build(s.baseUrl, s.accessKey, lane, true);
      } catch {
        return undefined;
      }
      return cached.clients[lane];
    },
    forSettings: (baseUrl, accessKey) => build(baseUrl, accessKey, 'user', false),
    reset() {
      cached = undefined;
    },
    async scope() {
      const s = await settings.get();
      return s?.baseUrl && s.accessKey ? holdScopeOf(s.baseUrl, s.accessKey) : undefined;
    },
  };
}
