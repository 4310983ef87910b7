/**
 * What the popup's views share: the connection to the background worker, and the lookup operations of the service
 * (GetIntentHistory, SearchIntents, GetExactOutputRoutes, GetTokenPrices) run through it. The worker answers them
 * directly, outside the tracker's connection slots, so they never queue behind a long-poll; and the popup carries no
 * HTTP client or schemas.
 */
import { useEffect, useState } from 'preact/hooks';
import type { LookupApi } from '@/lib/api/lookup';
import { UserFacingError } from '@/lib/format/errors';
import type { Reply, Request } from '@/lib/messages';
import type { LookupOperation } from '@/lib/protocol';
import { createSettingsStore, type Settings } from '@/lib/store';

export const settingsStore = createSettingsStore();

/** Sends a request to the background; a missing or failed answer becomes a user-facing error reply. */
export async function send(request: Request): Promise<Reply> {
  try {
    const reply = (await browser.runtime.sendMessage(request)) as Reply | undefined;
    return reply ?? { ok: false, message: 'The background worker did not answer. Try again.' };
  } catch (err) {
    return { ok: false, message: `The background worker did not answer (${err instanceof Error ? err.message : String(err)}).` };
  }
}

/** Opens the options page. */
export function openSettings(): void {
  void browser.runtime.openOptionsPage();
}

async function lookup<T>(operation: LookupOperation, request: unknown): Promise<T> {
  const reply = await send({ type: 'lookup', operation, request });
  if (!reply.ok) throw new UserFacingError(reply.message, reply.openSettings ?? false);
  return reply.data as T;
}

/** The lookup operations, run by the background worker. Errors are UserFacingError with the worker's words. */
export const backgroundLookup: LookupApi = {
  getIntentHistory: (request = {}) => lookup('getIntentHistory', request),
  searchIntents: (request) => lookup('searchIntents', request),
  getExactOutputRoutes: (request) => lookup('getExactOutputRoutes', request),
  getTokenPrices: (request) => lookup('getTokenPrices', request),
};

/** The saved settings: undefined while loading, null when not configured. */
export function useSettings(): Settings | null | undefined {
  const [settings, setSettings] = useState<Settings | null | undefined>(undefined);
  useEffect(() => {
    void settingsStore.get().then((s) => setSettings(s?.baseUrl && s.accessKey ? s : null));
  }, []);
  return settings;
}
