import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ReceiptView } from '@/components/ReceiptView';
import { type TabSpec, Tabs } from '@/components/Tabs';
import { findIntentId, parseIntentId } from '@/lib/api/intent-id';
import type { IntentReceipt } from '@/lib/api/schemas/receipt';
import type { ErrorMessage } from '@/lib/format/errors';
import { shortId } from '@/lib/format/intent';
import { isChangedMessage } from '@/lib/protocol';
import { createIntentStore, createReceiptCache, createTrackerStateStore, type TrackedIntent, type TrackerState } from '@/lib/store';
import { backgroundLookup, openSettings, send, useSettings } from './shared';
import { HistoryTab } from './views/HistoryTab';
import { RoutesTab } from './views/RoutesTab';
import { SearchTab } from './views/SearchTab';
import { StuckTab } from './views/StuckTab';
import { TrackedTab } from './views/TrackedTab';

const intentStore = createIntentStore();
const receiptCache = createReceiptCache();
const trackerStateStore = createTrackerStateStore();

type TabId = 'tracked' | 'history' | 'search' | 'stuck' | 'routes';
const TABS: TabSpec<TabId>[] = [
  { id: 'tracked', label: 'Tracked' },
  { id: 'history', label: 'History' },
  { id: 'search', label: 'Search' },
  { id: 'stuck', label: 'Stuck funds' },
  { id: 'routes', label: 'Routes' },
];

/** An intent whose receipt is open: the receipt shown (cached first), and the error of the last refresh. */
interface Opened {
  intentId: string;
  receipt?: IntentReceipt;
  error?: ErrorMessage;
}

function intentFromHash(): string | undefined {
  const m = /^#intent=(.+)$/.exec(location.hash);
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/**
 * The toolbar popup: tabs for tracked intents, history, search, stuck funds and routes, and the receipt view.
 * Tracked intents are read from IndexedDB directly and changed through the background worker.
 */
export function App() {
  const settings = useSettings();
  const api = settings ? backgroundLookup : undefined;
  const [tab, setTab] = useState<TabId>('tracked');
  const [intents, setIntents] = useState<TrackedIntent[] | undefined>();
  const [opened, setOpened] = useState<Opened | undefined>(() => {
    const id = intentFromHash();
    return id ? { intentId: id } : undefined;
  });
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(Date.now());
  const [trackerState, setTrackerState] = useState<TrackerState>({});
  const [suggestion, setSuggestion] = useState<string | undefined>();

  // Reloads may overlap (one per change message) and finish out of order: a reload's result is applied only when
  // no reload started after it has been applied already, so an older picture of the store never replaces a newer one.
  const reloads = useRef({ started: 0, applied: 0 });
  const reload = useCallback(async () => {
    const seq = ++reloads.current.started;
    const [list, state] = await Promise.all([intentStore.list(), trackerStateStore.get()]);
    if (seq < reloads.current.applied) return;
    reloads.current.applied = seq;
    setIntents(list);
    setTrackerState(state ?? {});
    setNow(Date.now());
  }, []);

  useEffect(() => {
    void reload().then(() => send({ type: 'seen' }));
    void send({ type: 'resume' });
    // A copied intentId not tracked yet is offered, never tracked without a click.
    void navigator.clipboard
      .readText()
      .then(async (text) => {
        const id = findIntentId(text);
        if (id && !(await intentStore.get(id))) setSuggestion(id);
      })
      .catch(() => {});
    const onMessage = (msg: unknown) => {
      if (isChangedMessage(msg)) void reload();
    };
    browser.runtime.onMessage.addListener(onMessage);
    const tick = setInterval(() => setNow(Date.now()), 15_000);
    const onHash = () => {
      const id = intentFromHash();
      setOpened(id ? { intentId: id } : undefined);
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
      browser.runtime.onMessage.removeListener(onMessage);
      clearInterval(tick);
    };
  }, [reload]);

  const trackedIds = new Set((intents ?? []).map((i) => i.intentId));
  const openedId = opened?.intentId;
  const tracked = openedId ? intents?.find((i) => i.intentId === openedId) : undefined;

  // Receipt view: cached receipt first, then a fresh read through the background.
  useEffect(() => {
    history.replaceState(null, '', openedId ? `#intent=${encodeURIComponent(openedId)}` : '#');
    if (!openedId || intents === undefined) return;
    if (trackedIds.has(openedId)) {
      void send({ type: 'refresh', intentId: openedId });
      return;
    }
    let live = true;
    void (async () => {
      const cached = await receiptCache.get(openedId);
      if (live && cached) setOpened((o) => (o?.intentId === openedId && !o.receipt ? { ...o, receipt: cached.receipt } : o));
      const reply = await send({ type: 'receipt', intentId: openedId });
      if (!live) return;
      setOpened((o) =>
        o?.intentId !== openedId
          ? o
          : reply.ok
            ? { intentId: openedId, receipt: reply.receipt ?? o.receipt }
            : { ...o, error: { text: reply.message, openSettings: reply.openSettings ?? false } },
      );
    })();
    return () => {
      live = false;
    };
  }, [openedId, intents === undefined]);

  const track = async (text: string) => {
    const parsed = parseIntentId(text);
    if (!parsed.ok) {
      setMessage({ text: parsed.message, error: true });
      return;
    }
    setBusy(true);
    const reply = await send({ type: 'track', intentId: parsed.intentId });
    setBusy(false);
    if (!reply.ok) setMessage({ text: reply.message, error: true });
    else
      setMessage({
        text: reply.added ? `Tracking ${shortId(parsed.intentId)}.` : `${shortId(parsed.intentId)} is already tracked.`,
        error: false,
      });
    await reload();
  };

  const trackClipboard = async () => {
    let text: string;
    try {
      text = await navigator.clipboard.readText();
    } catch {
      setMessage({ text: 'Could not read the clipboard. Paste the intent ID into the box instead.', error: true });
      return;
    }
    const id = findIntentId(text);
    if (!id) {
      setMessage({ text: 'The clipboard holds no intent ID. Copy one, or paste it into the box.', error: true });
      return;
    }
    await track(id);
  };

  const remove = async (intentId: string) => {
    await send({ type: 'remove', intentId });
    setMessage({ text: `Stopped tracking ${shortId(intentId)}.`, error: false });
    await reload();
  };

  const needsApi = (content: (a: NonNullable<typeof api>) => preact.ComponentChildren) =>
    api ? (
      content(api)
    ) : settings === undefined ? (
      <p class="muted">Loading…</p>
    ) : (
      <p class="muted">Set the service URL and access key first.</p>
    );

  return (
    <main class="popup">
      <header class="top">
        <h1>Svc Intent Tracker</h1>
        <button type="button" class="link-button" onClick={openSettings}>
          Settings
        </button>
      </header>
      {settings === null && (
        <p class="banner" role="alert">
          Set the service URL and access key first.{' '}
          <button type="button" class="link-button" onClick={openSettings}>
            Open settings
          </button>
        </p>
      )}
      {trackerState.keyRejected && (
        <p class="banner banner-bad" role="alert">
          Tracking is paused: {trackerState.keyRejected.message}{' '}
          <button type="button" class="link-button" onClick={openSettings}>
            Open settings
          </button>
        </p>
      )}
      {!trackerState.keyRejected && trackerState.pausedUntil !== undefined && trackerState.pausedUntil > now && (
        <p class="banner" role="status">
          {trackerState.pauseReason ?? 'Tracking is slowed down.'} It resumes at {new Date(trackerState.pausedUntil).toLocaleTimeString()}.
        </p>
      )}
      {opened ? (
        <ReceiptView
          intentId={opened.intentId}
          receipt={tracked?.receipt ?? opened.receipt}
          tracked={tracked}
          now={now}
          error={tracked ? undefined : opened.error}
          onBack={() => setOpened(undefined)}
          onTrack={() => void track(opened.intentId)}
          onRetry={() => void send({ type: 'retry', intentId: opened.intentId })}
          onRemove={() => void remove(opened.intentId).then(() => setOpened(undefined))}
          onOpenSettings={openSettings}
        />
      ) : (
        <Tabs tabs={TABS} active={tab} onChange={setTab}>
          {tab === 'tracked' && (
            <TrackedTab
              intents={intents}
              suggestion={suggestion && !trackedIds.has(suggestion) ? suggestion : undefined}
              onAcceptSuggestion={() => {
                const id = suggestion;
                setSuggestion(undefined);
                if (id) void track(id);
              }}
              onDismissSuggestion={() => setSuggestion(undefined)}
              onClearFinished={() => void send({ type: 'clear-finished' }).then(reload)}
              now={now}
              message={message}
              busy={busy}
              onTrack={(t) => void track(t)}
              onTrackClipboard={() => void trackClipboard()}
              onOpen={(intentId) => setOpened({ intentId })}
              onRemove={(intentId) => void remove(intentId)}
            />
          )}
          {tab === 'history' &&
            needsApi((a) => (
              <HistoryTab
                api={a}
                now={now}
                trackedIds={trackedIds}
                myAddresses={settings?.watchedAddresses ?? []}
                onOpen={(row) => setOpened({ intentId: row.intentId, receipt: row.receipt ?? undefined })}
                onTrack={(id) => void track(id)}
              />
            ))}
          {tab === 'search' &&
            needsApi((a) => (
              <SearchTab api={a} trackedIds={trackedIds} onOpen={(intentId) => setOpened({ intentId })} onTrack={(id) => void track(id)} />
            ))}
          {tab === 'stuck' &&
            needsApi((a) => (
              <StuckTab api={a} onOpen={(row) => setOpened({ intentId: row.intentId, receipt: row.receipt ?? undefined })} />
            ))}
          {tab === 'routes' && needsApi((a) => <RoutesTab api={a} />)}
        </Tabs>
      )}
    </main>
  );
}
