/**
 * Saving settings from an extension page (welcome, options): the settings store (IndexedDB, synced keys to
 * `storage.sync`), the browser's host-permission prompt for the service origin, and the worker told to rebuild its
 * client. Shared so that both pages say the same thing at the same moment.
 */
import { useState } from 'preact/hooks';
import { send } from '@/entrypoints/popup/worker-messages';
import { parseAccessKey, parseBaseUrl } from '@/lib/api/base-url';
import type { ConnectionResult } from '@/lib/api/connection';
import { t } from '@/lib/i18n';
import type { Failure, Request } from '@/lib/messages';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore, SyncFailedError, syncFailureMessage } from '@/lib/store/sync';
import { createSeenMemory, createSyncSeenStore } from '@/lib/store/sync-seen';

/** The pages' settings store: this device's IndexedDB, with the synced keys in `storage.sync`. */
export const settingsStore = createSyncedSettingsStore(
  createSettingsStore(),
  browser.storage?.sync,
  undefined,
  undefined,
  createSeenMemory(createSyncSeenStore()),
);

/** A sentence shown under a form, good or bad news. */
export type Status = { text: string; ok: boolean } | undefined;

/** What a page reports while saving: the save sentence, and the sync problem when only the sync failed. */
export type SaveReport = (save: Status, syncProblem?: string) => void;

/**
 * Saves `next` and asks for access to its service origin. MUST be called straight from the click: the browser grants
 * permissions only during a user gesture, so the request goes out before anything is awaited. `previousPattern` (the
 * origin saved before) is given up when it changed. Reports "saved, allow access in the prompt" at once (the settings
 * are saved already, the prompt may still be open) and then the prompt's answer. Resolves false when nothing was saved.
 * `alsoOrigins`: more host-permission patterns asked for in the same prompt (the RPC origins of the chains verified
 * on-chain); the previous service origin is kept when one of them still needs it.
 */
export function saveFromClick(
  next: Settings,
  url: { origin: string; permissionPattern: string },
  previousPattern: string | undefined,
  report: SaveReport,
  alsoOrigins: readonly string[] = [],
): Promise<boolean> {
  const origins = [...new Set([url.permissionPattern, ...alsoOrigins])];
  const granted = browser.permissions.request({ origins }).catch(() => false);
  return (async () => {
    let syncProblem: string | undefined;
    try {
      await settingsStore.set(next);
    } catch (err) {
      if (!(err instanceof SyncFailedError)) {
        report({ text: t('couldNotSave', err instanceof Error ? err.message : String(err)), ok: false });
        return false;
      }
      syncProblem = syncFailureMessage(err);
    }
    if (previousPattern && previousPattern !== url.permissionPattern && !alsoOrigins.includes(previousPattern)) {
      await browser.permissions.remove({ origins: [previousPattern] }).catch(() => false);
    }
    await browser.runtime.sendMessage({ type: 'settings-saved' } satisfies Request).catch(() => undefined);
    const already = await browser.permissions.contains({ origins: [url.permissionPattern] }).catch(() => false);
    report({ text: already ? t('savedMayReach', url.origin) : t('savedAllowAccess', url.origin), ok: true }, syncProblem);
    if (already) {
      // The chains' origins may still be in the prompt: resolved once it is answered.
      if (alsoOrigins.length > 0) await granted;
      return true;
    }
    const ok = await granted;
    report(ok ? { text: t('savedMayReach', url.origin), ok: true } : { text: t('savedNotGranted', url.origin), ok: false }, syncProblem);
    return true;
  })();
}

/** The URL and key as typed, checked: the parsed pair, or the first problem in the user's words. */
export function checkConnection(baseUrl: string, accessKey: string) {
  const url = parseBaseUrl(baseUrl);
  if (!url.ok) return { error: url.message } as const;
  const key = parseAccessKey(accessKey);
  if (!key.ok) return { error: key.message } as const;
  return { url, key } as const;
}

/** "Test connection": one harmless call to the service with the URL and key as typed, and its plain answer. */
export function useConnectionTest() {
  const [testing, setTesting] = useState(false);
  const [status, setStatus] = useState<Status>();
  const run = async (baseUrl: string, accessKey: string) => {
    const v = checkConnection(baseUrl, accessKey);
    if ('error' in v) {
      setStatus({ text: v.error ?? t('invalidSettings'), ok: false });
      return;
    }
    setTesting(true);
    setStatus({ text: t('testing'), ok: true });
    // Sent by the worker, through its one request budget (lib/api/budget.ts).
    const reply = await send({ type: 'test-connection', baseUrl: v.url.baseUrl, accessKey: v.key.accessKey }).catch(
      (err: unknown): Failure => ({ ok: false, message: err instanceof Error ? err.message : String(err) }),
    );
    const result: ConnectionResult = reply.ok ? reply.data : { kind: 'service-error', message: reply.message };
    setTesting(false);
    setStatus({ text: result.message, ok: result.kind === 'ok' });
  };
  return { testing, status, run };
}
