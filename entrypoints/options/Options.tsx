import { useEffect, useState } from 'preact/hooks';
import { parseAccessKey, parseBaseUrl } from '@/lib/api/base-url';
import { SvcClient } from '@/lib/api/client';
import { type ConnectionResult, testConnection } from '@/lib/api/connection';
import { isAddress } from '@/lib/format/tokens';
import { t } from '@/lib/i18n';
import type { Request } from '@/lib/messages';
import { parseClockTime } from '@/lib/notify/calm';
import { PERMISSION_USES } from '@/lib/permissions';
import { createSettingsStore, DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { createSyncedSettingsStore, SyncFailedError } from '@/lib/store/sync';

const settingsStore = createSyncedSettingsStore(createSettingsStore(), browser.storage?.sync);
/** The permissions of this browser's manifest (Chrome-only ones are absent in Firefox), and host access. */
function manifestPermissions(): Set<string> {
  const manifest = browser.runtime.getManifest();
  return new Set([...(manifest.permissions ?? []), ...(manifest.optional_permissions ?? []), 'host']);
}

type Status = { text: string; ok: boolean } | undefined;

/**
 * Options page: service base URL, access key (masked), Save and Test connection. Saving asks the browser for
 * access to that origin only (optional host permission), from the click itself.
 */
export function Options() {
  const [baseUrl, setBaseUrl] = useState('');
  const [accessKey, setAccessKey] = useState('');
  const [showKey, setShowKey] = useState(false);
  const [addresses, setAddresses] = useState('');
  const [autoTrack, setAutoTrack] = useState<string[]>([]);
  const [notify, setNotify] = useState<NotifySettings>(DEFAULT_NOTIFY);
  const [quiet, setQuiet] = useState({ on: false, start: '22:00', end: '07:00' });
  const [sync, setSync] = useState(true);
  const [saveStatus, setSaveStatus] = useState<Status>();
  const [syncStatus, setSyncStatus] = useState<string | undefined>();
  const [testStatus, setTestStatus] = useState<Status>();
  const [testing, setTesting] = useState(false);
  const [savedOrigin, setSavedOrigin] = useState<string | undefined>();
  const [declared] = useState(manifestPermissions);

  useEffect(() => {
    void settingsStore.get().then((s) => {
      if (!s) return;
      setBaseUrl(s.baseUrl);
      setAccessKey(s.accessKey);
      setAddresses((s.watchedAddresses ?? []).join('\n'));
      setAutoTrack(s.autoTrackAddresses ?? []);
      setNotify({ ...DEFAULT_NOTIFY, ...(s.notify ?? {}) });
      if (s.notify?.quietHours) setQuiet({ on: true, ...s.notify.quietHours });
      setSync(s.syncSettings !== false);
      const parsed = parseBaseUrl(s.baseUrl);
      if (parsed.ok) setSavedOrigin(parsed.permissionPattern);
    });
  }, []);

  const parsedAddresses = [
    ...new Set(
      addresses
        .split(/[\s,]+/)
        .filter((a) => isAddress(a))
        .map((a) => a.toLowerCase()),
    ),
  ];

  const validate = () => {
    const url = parseBaseUrl(baseUrl);
    if (!url.ok) return { error: url.message } as const;
    const key = parseAccessKey(accessKey);
    if (!key.ok) return { error: key.message } as const;
    const lines = addresses.split(/[\s,]+/).filter(Boolean);
    const bad = lines.find((a) => !isAddress(a));
    if (bad) return { error: t('notAnAddress', bad.slice(0, 50)) } as const;
    if (quiet.on && (parseClockTime(quiet.start) === undefined || parseClockTime(quiet.end) === undefined))
      return { error: t('quietHoursNeedTimes') } as const;
    return { url, key, watched: [...new Set(lines.map((a) => a.toLowerCase()))] } as const;
  };

  const save = (e: Event) => {
    e.preventDefault();
    const v = validate();
    if ('error' in v) {
      setSaveStatus({ text: v.error ?? t('invalidSettings'), ok: false });
      return;
    }
    setSyncStatus(undefined);
    // Must be called straight from the click: the browser only grants permissions during a user gesture.
    const granted = browser.permissions.request({ origins: [v.url.permissionPattern] }).catch(() => false);
    void (async () => {
      let syncProblem: string | undefined;
      try {
        await settingsStore.set({
          baseUrl: v.url.baseUrl,
          accessKey: v.key.accessKey,
          watchedAddresses: [...v.watched],
          autoTrackAddresses: autoTrack.filter((a) => v.watched.includes(a)),
          notify: { ...notify, quietHours: quiet.on ? { start: quiet.start, end: quiet.end } : undefined },
          syncSettings: sync,
        });
      } catch (err) {
        if (!(err instanceof SyncFailedError)) {
          setSaveStatus({ text: t('couldNotSave', err instanceof Error ? err.message : String(err)), ok: false });
          return;
        }
        syncProblem = err.message;
      }
      setAddresses(v.watched.join('\n'));
      if (savedOrigin && savedOrigin !== v.url.permissionPattern) {
        await browser.permissions.remove({ origins: [savedOrigin] }).catch(() => false);
      }
      setSavedOrigin(v.url.permissionPattern);
      setBaseUrl(v.url.baseUrl);
      await browser.runtime.sendMessage({ type: 'settings-saved' } satisfies Request).catch(() => undefined);
      // The browser's prompt may still be open: the settings are saved already, the answer only refines the message.
      const already = await browser.permissions.contains({ origins: [v.url.permissionPattern] }).catch(() => false);
      setSaveStatus({
        text: already ? t('savedMayReach', v.url.origin) : t('savedAllowAccess', v.url.origin),
        ok: true,
      });
      if (syncProblem) setSyncStatus(syncProblem);
      if (already) return;
      const ok = await granted;
      setSaveStatus(ok ? { text: t('savedMayReach', v.url.origin), ok: true } : { text: t('savedNotGranted', v.url.origin), ok: false });
    })();
  };

  const test = async () => {
    const v = validate();
    if ('error' in v) {
      setTestStatus({ text: v.error ?? t('invalidSettings'), ok: false });
      return;
    }
    setTesting(true);
    setTestStatus({ text: t('testing'), ok: true });
    const result: ConnectionResult = await testConnection(new SvcClient({ baseUrl: v.url.baseUrl, accessKey: v.key.accessKey }));
    setTesting(false);
    setTestStatus({ text: result.message, ok: result.kind === 'ok' });
  };

  return (
    <main class="options">
      <h1>{t('optionsTitle')}</h1>
      <p>
        <a href={browser.runtime.getURL('/welcome.html')} target="_blank" rel="noopener">
          {t('gettingStarted')}
        </a>
      </p>
      <form onSubmit={save}>
        <div class="field">
          <label for="base-url">{t('serviceUrl')}</label>
          <input
            id="base-url"
            type="url"
            value={baseUrl}
            placeholder="https://api.example.com"
            onInput={(e) => setBaseUrl((e.target as HTMLInputElement).value)}
          />
          <p class="hint">{t('serviceUrlHint')}</p>
        </div>
        <div class="field">
          <label for="access-key">{t('accessKey')}</label>
          <div class="key-row">
            <input
              id="access-key"
              type={(showKey ? 'text' : 'password') as 'text'}
              value={accessKey}
              autocomplete="off"
              spellcheck={false}
              onInput={(e) => setAccessKey((e.target as HTMLInputElement).value)}
            />
            <button type="button" class="secondary" onClick={() => setShowKey(!showKey)} aria-pressed={showKey}>
              {showKey ? t('hide') : t('show')}
            </button>
          </div>
          <p class="hint">{t('accessKeyHint')}</p>
        </div>
        <div class="field">
          <label for="my-addresses">{t('myAddressesOptional')}</label>
          <textarea
            id="my-addresses"
            rows={3}
            spellcheck={false}
            placeholder={t('addressesPlaceholder')}
            value={addresses}
            onInput={(e) => setAddresses((e.target as HTMLTextAreaElement).value)}
          />
          <p class="hint">{t('addressesHint')}</p>
          {parsedAddresses.length > 0 && (
            <fieldset class="plain">
              <legend>{t('autoTrackLegend')}</legend>
              {parsedAddresses.map((a) => (
                <label class="check" key={a}>
                  <input
                    type="checkbox"
                    checked={autoTrack.includes(a)}
                    onChange={(e) =>
                      setAutoTrack((e.target as HTMLInputElement).checked ? [...autoTrack, a] : autoTrack.filter((x) => x !== a))
                    }
                  />
                  <span class="mono">{a}</span>
                </label>
              ))}
            </fieldset>
          )}
        </div>
        <fieldset class="field plain">
          <legend>{t('desktopNotifications')}</legend>
          {(
            [
              ['succeeded', 'notifyWhenSucceeds'],
              ['failed', 'notifyWhenFails'],
              ['refunded', 'notifyWhenRefunded'],
              ['stuck', 'notifyWhenStuck'],
              ['sound', 'notifySound'],
              ['progress', 'notifyProgress'],
            ] as const
          ).map(([key, label]) => (
            <label class="check" key={key}>
              <input
                type="checkbox"
                checked={notify[key] ?? false}
                onChange={(e) => setNotify({ ...notify, [key]: (e.target as HTMLInputElement).checked })}
              />
              {t(label)}
            </label>
          ))}
          <label class="check">
            <input
              type="checkbox"
              checked={quiet.on}
              onChange={(e) => setQuiet({ ...quiet, on: (e.target as HTMLInputElement).checked })}
            />
            {t('quietHours')}
          </label>
          {quiet.on && (
            <div class="quiet-hours">
              <label for="quiet-start">{t('quietFrom')}</label>
              <input
                id="quiet-start"
                type="time"
                value={quiet.start}
                onInput={(e) => setQuiet({ ...quiet, start: (e.target as HTMLInputElement).value })}
              />
              <label for="quiet-end">{t('quietTo')}</label>
              <input
                id="quiet-end"
                type="time"
                value={quiet.end}
                onInput={(e) => setQuiet({ ...quiet, end: (e.target as HTMLInputElement).value })}
              />
            </div>
          )}
          <p class="hint">{t('quietHoursHint')}</p>
        </fieldset>
        <fieldset class="field plain">
          <legend>{t('sync')}</legend>
          <label class="check">
            <input type="checkbox" checked={sync} onChange={(e) => setSync((e.target as HTMLInputElement).checked)} />
            {t('syncLabel')}
          </label>
          <p class="hint">{t('syncHint')}</p>
        </fieldset>
        <div class="actions">
          <button type="submit">{t('save')}</button>
          <button type="button" class="secondary" onClick={() => void test()} disabled={testing}>
            {t('testConnection')}
          </button>
        </div>
      </form>
      {saveStatus && (
        <p class={`result ${saveStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="save-status">
          {saveStatus.text}
        </p>
      )}
      {syncStatus && (
        <p class="result result-bad" role="status" data-testid="sync-status">
          {syncStatus}
        </p>
      )}
      {testStatus && (
        <p class={`result ${testStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="test-status">
          {testStatus.text}
        </p>
      )}
      <section class="permissions" aria-labelledby="permissions-title">
        <h2 id="permissions-title">{t('permissionsTitle')}</h2>
        <dl>
          {PERMISSION_USES.filter((p) => declared.has(p.name)).map((p) => (
            <div key={p.name} data-permission={p.name}>
              <dt>
                {t(p.title)} {p.optional ? <span class="muted">{t('askedWhenNeeded')}</span> : null}
              </dt>
              <dd>{t(p.use)}</dd>
            </div>
          ))}
        </dl>
      </section>
    </main>
  );
}
