import { useEffect, useMemo, useState } from 'preact/hooks';
import { ReceiptView } from '@/components/ReceiptView';
import { type TabSpec, Tabs } from '@/components/Tabs';
import type { LookupApi } from '@/lib/api/lookup';
import { formatClock } from '@/lib/format/time';
import { pauseText, trackingErrorText } from '@/lib/format/tracking-error';
import { t } from '@/lib/i18n';
import { useCalmState } from './hooks/useCalmState';
import { useChainVerdicts } from './hooks/useChainVerdicts';
import { useClipboardSuggestion } from './hooks/useClipboardSuggestion';
import { useEscapeBack } from './hooks/useEscapeBack';
import { useIntentDetails } from './hooks/useIntentDetails';
import { type LookupTabs, useLookupTabs } from './hooks/useLookupTabs';
import { useOpenedReceipt } from './hooks/useOpenedReceipt';
import { useTrackCommands } from './hooks/useTrackCommands';
import { useTrackedIntents } from './hooks/useTrackedIntents';
import { openSettings, openWelcome, useSettings } from './settings';
import { asideRecords } from './stores';
import { TrackedTab } from './views/TrackedTab';
import { backgroundLookup, send } from './worker-messages';

type TabId = 'tracked' | 'history' | 'search' | 'stuck' | 'routes';
const tabs = (): TabSpec<TabId>[] => [
  { id: 'tracked', label: t('tabTracked') },
  { id: 'history', label: t('tabHistory') },
  { id: 'search', label: t('tabSearch') },
  { id: 'stuck', label: t('tabStuck') },
  { id: 'routes', label: t('tabRoutes') },
];

/**
 * The toolbar popup and the side panel (`layout="panel"`: full width): banners for the settings and the tracker's
 * state, then either an open receipt or the tabs (tracked intents, history, search, stuck funds, routes). Tracked
 * intents are read from IndexedDB and changed through the background worker. Escape closes an open receipt.
 */
export function App(props: { layout?: 'popup' | 'panel' }) {
  const settings = useSettings();
  const [tab, setTab] = useState<TabId>('tracked');
  const { intents, firstRows, trackerState, now, reload } = useTrackedIntents();
  // Once per list, not per render: the clock re-renders the popup every second while intents are in flight.
  const trackedIds = useMemo(() => new Set((intents ?? []).map((i) => i.intentId)), [intents]);
  const verdicts = useChainVerdicts(useMemo(() => [...trackedIds], [trackedIds]));
  const { opened, open, close } = useOpenedReceipt(intents, firstRows?.rows);
  const details = useIntentDetails(opened?.intentId, (opened?.tracked?.receipt ?? opened?.receipt)?.status ?? undefined);
  const clipboard = useClipboardSuggestion(trackedIds);
  const commands = useTrackCommands(reload);
  const calm = useCalmState();
  // The lookup tabs' code loads once the tracked list is shown (or a lookup tab is chosen first).
  const lookupTabs = useLookupTabs(intents !== undefined || tab !== 'tracked');
  const snoozedUntil = calm.calm.snoozeUntil !== undefined && calm.calm.snoozeUntil > now ? calm.calm.snoozeUntil : undefined;
  useEscapeBack(opened?.intentId, close);
  // Records an earlier version saved that the worker could not read: kept aside, and said here.
  const [aside, setAside] = useState(0);
  useEffect(() => {
    void asideRecords
      .list()
      .then((l) => setAside(l.length))
      .catch(() => {});
  }, [intents]);

  // The lookup tabs need the service: until it is configured they say so.
  const withLookup = (content: (api: LookupApi, views: LookupTabs) => preact.ComponentChildren) =>
    settings && lookupTabs ? (
      content(backgroundLookup, lookupTabs)
    ) : settings === undefined || settings ? (
      <p class="muted">{t('loading')}</p>
    ) : (
      <p class="muted">{t('setServiceFirst')}</p>
    );

  return (
    <main class={props.layout === 'panel' ? 'popup panel' : 'popup'}>
      <header class="top">
        <h1>{t('extName')}</h1>
        <span>
          {snoozedUntil === undefined && (
            <button type="button" class="link-button" onClick={calm.snooze} title={t('snoozeTitle')}>
              {t('snooze')}
            </button>
          )}
          <button type="button" class="link-button" onClick={openWelcome}>
            {t('gettingStarted')}
          </button>
          <button type="button" class="link-button" onClick={openSettings}>
            {t('settings')}
          </button>
        </span>
      </header>
      {snoozedUntil !== undefined && (
        <p class="banner" role="status" data-testid="snoozed">
          {t('snoozedUntil', formatClock(snoozedUntil))}{' '}
          <button type="button" class="link-button" onClick={calm.endSnooze}>
            {t('resumeNow')}
          </button>
        </p>
      )}
      {settings === null && (
        <p class="banner" role="alert">
          {t('setServiceFirst')}{' '}
          <button type="button" class="link-button" onClick={openWelcome}>
            {t('gettingStarted')}
          </button>{' '}
          <button type="button" class="link-button" onClick={openSettings}>
            {t('openSettings')}
          </button>
        </p>
      )}
      {trackerState.keyRejected && (
        <p class="banner banner-bad" role="alert">
          {t('trackingPaused', trackingErrorText(trackerState.keyRejected))}{' '}
          <button type="button" class="link-button" onClick={openSettings}>
            {t('openSettings')}
          </button>
        </p>
      )}
      {!trackerState.keyRejected && trackerState.pausedUntil !== undefined && trackerState.pausedUntil > now && (
        <p class="banner" role="status">
          {pauseText(trackerState) ?? t('trackingSlowed')} {t('trackingResumesAt', formatClock(trackerState.pausedUntil))}
        </p>
      )}
      {aside > 0 && (
        <p class="banner" role="status" data-testid="unreadable-records">
          {t('unreadableRecords', aside)}
        </p>
      )}
      {opened ? (
        <ReceiptView
          intentId={opened.intentId}
          receipt={opened.wholeRead === false ? opened.receipt : (opened.tracked?.receipt ?? opened.receipt)}
          tracked={opened.tracked}
          now={now}
          error={opened.tracked ? undefined : opened.error}
          details={details}
          verification={verdicts.get(opened.intentId)}
          onBack={close}
          onTrack={() => void commands.track(opened.intentId)}
          onRetry={() => void send({ type: 'retry', intentId: opened.intentId })}
          onRemove={() => void commands.remove(opened.intentId).then(close)}
          onOpenSettings={openSettings}
          muted={calm.calm.muted.includes(opened.intentId)}
          onMute={(muted) => calm.setMuted(opened.intentId, muted)}
        />
      ) : (
        <Tabs tabs={tabs()} active={tab} onChange={setTab}>
          {tab === 'tracked' && (
            <TrackedTab
              intents={intents}
              firstRows={firstRows}
              suggestion={clipboard.suggestion}
              onAcceptSuggestion={() => {
                const id = clipboard.suggestion;
                clipboard.dismiss();
                if (id) void commands.track(id);
              }}
              onDismissSuggestion={clipboard.dismiss}
              onClearFinished={() => void send({ type: 'clear-finished' }).then(reload)}
              now={now}
              message={commands.message}
              busy={commands.busy}
              onTrack={commands.track}
              onTrackClipboard={() => void commands.trackClipboard()}
              onOpen={(intentId) => open(intentId)}
              onImported={reload}
              onRemove={(intentId) => void commands.remove(intentId)}
              muted={calm.calm.muted}
              verified={verdicts}
              onMute={calm.setMuted}
            />
          )}
          {tab === 'history' &&
            withLookup((api, { HistoryTab }) => (
              <HistoryTab
                api={api}
                now={now}
                trackedIds={trackedIds}
                myAddresses={settings?.watchedAddresses ?? []}
                onOpen={(row) => open(row.intentId, row.receipt ?? undefined)}
                onTrack={(id) => void commands.track(id)}
              />
            ))}
          {tab === 'search' &&
            withLookup((api, { SearchTab }) => (
              <SearchTab
                api={api}
                trackedIds={trackedIds}
                onOpen={(intentId) => open(intentId)}
                onTrack={(id) => void commands.track(id)}
              />
            ))}
          {tab === 'stuck' &&
            withLookup((api, { StuckTab }) => <StuckTab api={api} onOpen={(row) => open(row.intentId, row.receipt ?? undefined)} />)}
          {tab === 'routes' && withLookup((api, { RoutesTab }) => <RoutesTab api={api} />)}
        </Tabs>
      )}
    </main>
  );
}
