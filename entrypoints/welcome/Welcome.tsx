import { useEffect, useState } from 'preact/hooks';
import { ChainFields } from '@/components/settings/ChainFields';
import { ConnectionFields } from '@/components/settings/ConnectionFields';
import { chainProblemText, checkChainPreferences, saveChainsFromClick, useChainPreferences } from '@/components/settings/chains';
import { ShortcutList } from '@/components/settings/Shortcuts';
import { checkConnection, type Status, saveFromClick, settingsStore, useConnectionTest } from '@/components/settings/save';
import { WelcomePicture } from '@/components/WelcomePicture';
import { parseBaseUrl } from '@/lib/api/base-url';
import { isIntentList, MAX_TRACK_MANY, readIntentList } from '@/lib/api/intent-list';
import { shortId } from '@/lib/format/intent';
import { tooLongOutcome, trackListOutcome } from '@/lib/format/track-list';
import { t } from '@/lib/i18n';
import type { ReplyOf } from '@/lib/messages';
import type { Settings } from '@/lib/store';
import { send } from '../popup/worker-messages';

/**
 * The page a new install opens (and the popup's and options page's "Getting started"): what the extension does in
 * three sentences and one picture; the connection set up in place (service URL and access key, where each comes
 * from, the permission prompt explained before it appears, Test connection); the first intent tracked from a paste
 * box; once it is tracked, on-chain verification offered as an optional step (per chain, its RPC origin asked for on
 * "Turn on verification"); the two shortcuts as the browser has them bound.
 */
export function Welcome() {
  const [baseUrl, setBaseUrl] = useState('');
  const [accessKey, setAccessKey] = useState('');
  const [saved, setSaved] = useState<Settings | undefined>();
  const [savedPattern, setSavedPattern] = useState<string | undefined>();
  const [saveStatus, setSaveStatus] = useState<Status>();
  const [intentId, setIntentId] = useState('');
  const [trackStatus, setTrackStatus] = useState<Status>();
  const [trackedId, setTrackedId] = useState<string>();
  const connection = useConnectionTest();
  const chains = useChainPreferences();
  const [chainStatus, setChainStatus] = useState<Status>();

  useEffect(() => {
    void settingsStore.get().then((s) => {
      if (!s) return;
      setSaved(s);
      setBaseUrl(s.baseUrl);
      setAccessKey(s.accessKey);
      const parsed = parseBaseUrl(s.baseUrl);
      if (parsed.ok) setSavedPattern(parsed.permissionPattern);
    });
  }, []);

  const save = (e: Event) => {
    e.preventDefault();
    const v = checkConnection(baseUrl, accessKey);
    if ('error' in v) {
      setSaveStatus({ text: v.error ?? t('invalidSettings'), ok: false });
      return;
    }
    // Everything else the user may have set (notifications, addresses) is kept as it is.
    const next: Settings = { ...saved, baseUrl: v.url.baseUrl, accessKey: v.key.accessKey };
    // The last save's message goes while this one runs (see the options page).
    setSaveStatus(undefined);
    void saveFromClick(next, v.url, savedPattern, (status) => setSaveStatus(status)).then((ok) => {
      if (!ok) return;
      setSaved(next);
      setSavedPattern(v.url.permissionPattern);
      setBaseUrl(v.url.baseUrl);
    });
  };

  const track = async (e: Event) => {
    e.preventDefault();
    setTrackedId(undefined);
    const list = readIntentList(intentId);
    if (isIntentList(intentId, list)) return trackList(list);
    const reply = await send({ type: 'track', intentId });
    if (!reply.ok) {
      setTrackStatus({ text: reply.message, ok: false });
      return;
    }
    const id = reply.intentId ?? intentId.trim();
    setTrackStatus({ text: reply.added === false ? t('alreadyTracked', shortId(id)) : t('welcomeTracked', shortId(id)), ok: true });
    setTrackedId(id);
    setIntentId('');
  };

  // A pasted list: every id at once; what was not tracked stays in the box, and the link opens the whole list.
  const trackList = async (list: ReturnType<typeof readIntentList>) => {
    if (list.tooLong) {
      const outcome = tooLongOutcome(intentId, MAX_TRACK_MANY);
      setTrackStatus({ text: outcome.text, ok: false });
      return;
    }
    const reply: ReplyOf<'track-many'> =
      list.intentIds.length > 0
        ? await send({ type: 'track-many', intents: list.intentIds.map((intentId) => ({ intentId })) })
        : { ok: true, added: 0, already: 0, invalid: [], invalidCount: 0 };
    const outcome = trackListOutcome(intentId, list, reply);
    setTrackStatus({ text: outcome.text, ok: !outcome.error });
    setIntentId(outcome.keep);
    if (reply.ok && reply.added + reply.already > 0) setTrackedId('');
  };

  const saveChains = (e: Event) => {
    e.preventDefault();
    const check = checkChainPreferences(chains.preferences);
    if (!check.ok) {
      setChainStatus({ text: chainProblemText(check.problem), ok: false });
      return;
    }
    setChainStatus(undefined);
    void saveChainsFromClick(chains.preferences, check.patterns, setChainStatus);
  };

  return (
    <main class="welcome">
      <h1>{t('welcomeTitle')}</h1>
      <div class="welcome-intro">
        <div>
          <p>{t('welcomeWhat1')}</p>
          <p>{t('welcomeWhat2')}</p>
          <p>{t('welcomeWhat3')}</p>
        </div>
        <WelcomePicture />
      </div>

      <section aria-labelledby="step-connect">
        <h2 id="step-connect">{t('welcomeStepConnect')}</h2>
        <form onSubmit={save}>
          <ConnectionFields
            baseUrl={baseUrl}
            accessKey={accessKey}
            onBaseUrl={setBaseUrl}
            onAccessKey={setAccessKey}
            onTest={() => void connection.run(baseUrl, accessKey)}
            testing={connection.testing}
            testStatus={connection.status}
          />
          <div class="actions">
            <button type="submit">{t('connSave')}</button>
          </div>
        </form>
        {saveStatus && (
          <p class={`result ${saveStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="save-status">
            {saveStatus.text}
          </p>
        )}
      </section>

      <section aria-labelledby="step-track">
        <h2 id="step-track">{t('welcomeStepTrack')}</h2>
        <form onSubmit={(e) => void track(e)}>
          <div class="field">
            <label for="first-intent">{t('intentIdLabel')}</label>
            <div class="key-row">
              <textarea
                id="first-intent"
                class="mono"
                rows={1}
                value={intentId}
                spellcheck={false}
                autocomplete="off"
                aria-describedby="first-intent-hint"
                onInput={(e) => setIntentId((e.target as HTMLTextAreaElement).value)}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
                  e.preventDefault();
                  (e.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
                }}
              />
              <button type="submit">{t('track')}</button>
            </div>
            <p class="hint" id="first-intent-hint">
              {t('welcomeTrackHint')} {t('trackManyHint')}
            </p>
          </div>
        </form>
        {trackStatus && (
          <p class={`result ${trackStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="track-status">
            {trackStatus.text}
          </p>
        )}
        {trackedId !== undefined && (
          <p>
            <a
              href={`${browser.runtime.getURL('/popup.html')}${trackedId ? `#intent=${encodeURIComponent(trackedId)}` : ''}`}
              target="_blank"
              rel="noopener"
            >
              {t('welcomeOpenList')}
            </a>
          </p>
        )}
      </section>

      {trackedId && (
        <section aria-labelledby="step-verify">
          <h2 id="step-verify">{t('welcomeStepVerify')}</h2>
          <p>{t('welcomeVerifyWhat')}</p>
          <form onSubmit={saveChains}>
            <ChainFields preferences={chains.preferences} onChange={chains.setPreferences} />
            <div class="actions">
              <button type="submit">{t('welcomeVerifySave')}</button>
            </div>
          </form>
          {chainStatus && (
            <p class={`result ${chainStatus.ok ? 'result-ok' : 'result-bad'}`} role="status" data-testid="chain-status">
              {chainStatus.text}
            </p>
          )}
        </section>
      )}

      <section aria-labelledby="step-shortcuts">
        <h2 id="step-shortcuts">{t('welcomeStepShortcuts')}</h2>
        <ShortcutList />
      </section>
    </main>
  );
}
