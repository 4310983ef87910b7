/**
 * What the popup's views share: the connection to the background worker, and the Svc API for the current settings
 * (the popup calls the service directly for history, search and routes; the tracker's long-polls use at most 4 of
 * Chromium's 6 connections per host, so these never queue behind them).
 */
import { useEffect, useState } from 'preact/hooks';
import { SvcApi } from '@/lib/api/api';
import type { Reply, Request } from '@/lib/messages';
import { type Settings, createSettingsStore } from '@/lib/store';

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

/** The saved settings (undefined while loading, null when not configured) and an API client for them. */
export function useApi(): { settings: Settings | null | undefined; api: SvcApi | undefined } {
  const [settings, setSettings] = useState<Settings | null | undefined>(undefined);
  useEffect(() => {
    void settingsStore.get().then((s) => setSettings(s?.baseUrl && s.accessKey ? s : null));
  }, []);
  const [api, setApi] = useState<SvcApi | undefined>();
  useEffect(() => {
    if (!settings) return setApi(undefined);
    try {
      setApi(new SvcApi({ baseUrl: settings.baseUrl, accessKey: settings.accessKey, timeoutMs: 20_000 }));
    } catch {
      setApi(undefined);
    }
  }, [settings]);
  return { settings, api };
}
