/**
 * The options page's form state: every setting as the user edits it, loaded from the settings store, checked, and
 * saved (with the browser's permission prompt for the service origin) through `components/settings/save.ts`.
 */
import { useEffect, useState } from 'preact/hooks';
import { chainProblemText, chainsStatus, checkChainPreferences, useChainPreferences } from '@/components/settings/chains';
import { checkConnection, type Status, saveFromClick, settingsStore } from '@/components/settings/save';
import { parseBaseUrl } from '@/lib/api/base-url';
import { isAddress } from '@/lib/format/tokens';
import { t } from '@/lib/i18n';
import { parseClockTime } from '@/lib/notify/calm';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { saveChainPreferences } from '@/lib/store/chain';

/** Quiet hours as edited: on or off, and the local clock times `HH:MM`. */
export interface QuietHours {
  on: boolean;
  start: string;
  end: string;
}

/** How long (ms) a read of the saved settings may take before the page says it is still reading. */
const SLOW_READ_MS = 3_000;

/** Where reading the saved settings stands. */
type SettingsLoad = { state: 'reading'; slow: boolean } | { state: 'loaded' } | { state: 'failed'; reason: string };

/** The form's state, its setters, its statuses and its Save. */
export function useSettingsForm() {
  const [baseUrl, setBaseUrl] = useState('');
  const [accessKey, setAccessKey] = useState('');
  const [addresses, setAddresses] = useState('');
  const [autoTrack, setAutoTrack] = useState<string[]>([]);
  const [notify, setNotify] = useState<NotifySettings>(DEFAULT_NOTIFY);
  const [quiet, setQuiet] = useState<QuietHours>({ on: false, start: '22:00', end: '07:00' });
  const [sync, setSync] = useState(true);
  const [saveStatus, setSaveStatus] = useState<Status>();
  const [syncStatus, setSyncStatus] = useState<string | undefined>();
  const [savedOrigin, setSavedOrigin] = useState<string | undefined>();
  // On-chain verification: storage.local, this device only (lib/store/chain.ts).
  const chains = useChainPreferences();
  const [chainStatus, setChainStatus] = useState<Status>();

  // The form takes no input until the saved settings are in it: typed before they arrive, a value was overwritten by
  // them (an address typed at once vanished with its auto-track box under load). A read that fails keeps it so, says
  // why and offers to read again: an empty form saved would replace the saved (and synced) settings.
  const [load, setLoad] = useState<SettingsLoad>({ state: 'reading', slow: false });
  const [reads, setReads] = useState(0);

  useEffect(() => {
    let current = true;
    setLoad({ state: 'reading', slow: false });
    // Said after a while, so that a store that never answers does not leave a silent, disabled form.
    const slow = setTimeout(() => current && setLoad((l) => (l.state === 'reading' ? { ...l, slow: true } : l)), SLOW_READ_MS);
    void settingsStore
      .get()
      .then((s) => {
        if (!current) return;
        if (s) {
          setBaseUrl(s.baseUrl);
          setAccessKey(s.accessKey);
          setAddresses((s.watchedAddresses ?? []).join('\n'));
          setAutoTrack(s.autoTrackAddresses ?? []);
          setNotify({ ...DEFAULT_NOTIFY, ...(s.notify ?? {}) });
          if (s.notify?.quietHours) setQuiet({ on: true, ...s.notify.quietHours });
          setSync(s.syncSettings !== false);
          const parsed = parseBaseUrl(s.baseUrl);
          if (parsed.ok) setSavedOrigin(parsed.permissionPattern);
        }
        setLoad({ state: 'loaded' });
      })
      .catch((err: unknown) => {
        if (current) setLoad({ state: 'failed', reason: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => clearTimeout(slow));
    return () => {
      current = false;
      clearTimeout(slow);
    };
  }, [reads]);

  /** The well-formed addresses typed so far, lower-cased, once each (the auto-track boxes list them). */
  const parsedAddresses = [
    ...new Set(
      addresses
        .split(/[\s,]+/)
        .filter((a) => isAddress(a))
        .map((a) => a.toLowerCase()),
    ),
  ];

  const validate = () => {
    const connection = checkConnection(baseUrl, accessKey);
    if ('error' in connection) return { error: connection.error } as const;
    const lines = addresses.split(/[\s,]+/).filter(Boolean);
    const bad = lines.find((a) => !isAddress(a));
    if (bad) return { error: t('notAnAddress', bad.slice(0, 50)) } as const;
    if (quiet.on && (parseClockTime(quiet.start) === undefined || parseClockTime(quiet.end) === undefined))
      return { error: t('quietHoursNeedTimes') } as const;
    const chainCheck = checkChainPreferences(chains.preferences);
    if (!chainCheck.ok) return { error: chainProblemText(chainCheck.problem) } as const;
    return { ...connection, watched: [...new Set(lines.map((a) => a.toLowerCase()))], chainPatterns: chainCheck.patterns } as const;
  };

  /** Save, from the form's submit (a user gesture: the permission request goes out before anything is awaited). */
  const save = (e: Event) => {
    e.preventDefault();
    const v = validate();
    if ('error' in v) {
      setSaveStatus({ text: v.error ?? t('invalidSettings'), ok: false });
      return;
    }
    // The last save's message goes while this one runs: a "Saved" left on screen would answer for a save not done yet.
    setSaveStatus(undefined);
    setSyncStatus(undefined);
    setChainStatus(undefined);
    const next = {
      baseUrl: v.url.baseUrl,
      accessKey: v.key.accessKey,
      watchedAddresses: [...v.watched],
      autoTrackAddresses: autoTrack.filter((a) => v.watched.includes(a)),
      notify: { ...notify, quietHours: quiet.on ? { start: quiet.start, end: quiet.end } : undefined },
      syncSettings: sync,
    };
    const saving = saveFromClick(
      next,
      v.url,
      savedOrigin,
      (status, syncProblem) => {
        setSaveStatus(status);
        if (syncProblem) setSyncStatus(syncProblem);
      },
      v.chainPatterns,
    );
    // The chains' choices go to storage.local at once (the worker starts their checks once their origins are granted).
    const chainsSaved = saveChainPreferences(browser.storage.local, chains.preferences).then(
      () => true,
      (err: unknown) => {
        setChainStatus({ text: t('couldNotSave', err instanceof Error ? err.message : String(err)), ok: false });
        return false;
      },
    );
    void Promise.all([saving, chainsSaved]).then(async ([saved, chainsOk]) => {
      if (chainsOk && Object.values(chains.preferences).some((p) => p.enabled)) setChainStatus(await chainsStatus(v.chainPatterns));
      if (!saved) return;
      setAddresses(v.watched.join('\n'));
      setSavedOrigin(v.url.permissionPattern);
      setBaseUrl(v.url.baseUrl);
    });
  };

  return {
    /** The saved settings are in the form: until then every field is disabled. */
    loaded: load.state === 'loaded',
    /** What to tell while they are not: still reading (after a while), or the read failed (with a Read again). */
    loadProblem:
      load.state === 'failed'
        ? t('settingsUnreadable', load.reason.slice(0, 200))
        : load.state === 'reading' && load.slow
          ? t('settingsStillReading')
          : undefined,
    /** Reads the saved settings again (after a failed or slow read). */
    readAgain: () => setReads((n) => n + 1),
    baseUrl,
    setBaseUrl,
    accessKey,
    setAccessKey,
    addresses,
    setAddresses,
    parsedAddresses,
    autoTrack,
    setAutoTrack,
    notify,
    setNotify,
    quiet,
    setQuiet,
    sync,
    setSync,
    chainPreferences: chains.preferences,
    setChainPreferences: chains.setPreferences,
    chainStatus,
    saveStatus,
    syncStatus,
    save,
  };
}

/** What the group components get: the form's state and setters. */
export type SettingsForm = ReturnType<typeof useSettingsForm>;
