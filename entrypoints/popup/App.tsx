import { useCallback, useEffect, useState } from 'preact/hooks';
import { IntentRow } from '@/components/IntentRow';
import { ReceiptView } from '@/components/ReceiptView';
import { TrackForm } from '@/components/TrackForm';
import { findIntentId, parseIntentId } from '@/lib/api/intent-id';
import { shortId } from '@/lib/format/intent';
import { ChangedMessage, type Reply, type Request } from '@/lib/messages';
import { type TrackedIntent, createIntentStore, createSettingsStore } from '@/lib/store';

const intentStore = createIntentStore();
const settingsStore = createSettingsStore();

/** Sends a request to the background; a missing or failed answer becomes a user-facing error reply. */
async function send(request: Request): Promise<Reply> {
  try {
    const reply = (await browser.runtime.sendMessage(request)) as Reply | undefined;
    return reply ?? { ok: false, message: 'The background worker did not answer. Try again.' };
  } catch (err) {
    return { ok: false, message: `The background worker did not answer (${err instanceof Error ? err.message : String(err)}).` };
  }
}

function intentFromHash(): string | undefined {
  const m = /^#intent=(.+)$/.exec(location.hash);
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/** The toolbar popup: Track box, tracked list, receipt view. Reads the store directly; writes through the worker. */
export function App() {
  const [intents, setIntents] = useState<TrackedIntent[] | undefined>();
  const [configured, setConfigured] = useState<boolean | undefined>();
  const [selected, setSelected] = useState<string | undefined>(intentFromHash);
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>();
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(Date.now());

  const reload = useCallback(async () => {
    setIntents(await intentStore.list());
    setNow(Date.now());
  }, []);

  useEffect(() => {
    void reload();
    void send({ type: 'resume' });
    void settingsStore.get().then((s) => setConfigured(!!s?.baseUrl && !!s.accessKey));
    const onMessage = (msg: unknown) => {
      if (ChangedMessage.safeParse(msg).success) void reload();
    };
    browser.runtime.onMessage.addListener(onMessage);
    const tick = setInterval(() => setNow(Date.now()), 15_000);
    const onHash = () => setSelected(intentFromHash());
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
      browser.runtime.onMessage.removeListener(onMessage);
      clearInterval(tick);
    };
  }, [reload]);

  // Cached receipt first, then a fresh read.
  useEffect(() => {
    history.replaceState(null, '', selected ? `#intent=${encodeURIComponent(selected)}` : '#');
    if (selected) void send({ type: 'refresh', intentId: selected });
  }, [selected]);

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
    else setMessage({ text: reply.added ? `Tracking ${shortId(parsed.intentId)}.` : `${shortId(parsed.intentId)} is already tracked.`, error: false });
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
    if (selected === intentId) setSelected(undefined);
    setMessage({ text: `Stopped tracking ${shortId(intentId)}.`, error: false });
    await reload();
  };

  const current = selected ? intents?.find((i) => i.intentId === selected) : undefined;

  return (
    <main class="popup">
      <header class="top">
        <h1>Svc Intent Tracker</h1>
        <button type="button" class="link-button" onClick={() => browser.runtime.openOptionsPage()}>
          Settings
        </button>
      </header>
      {configured === false && (
        <p class="banner" role="alert">
          Set the service URL and access key first.{' '}
          <button type="button" class="link-button" onClick={() => browser.runtime.openOptionsPage()}>
            Open settings
          </button>
        </p>
      )}
      {selected && current ? (
        <ReceiptView
          intent={current}
          now={now}
          onBack={() => setSelected(undefined)}
          onRetry={() => void send({ type: 'retry', intentId: current.intentId })}
          onRemove={() => void remove(current.intentId)}
        />
      ) : (
        <>
          <TrackForm onTrack={(t) => void track(t)} onTrackClipboard={() => void trackClipboard()} message={message} busy={busy} />
          <section aria-labelledby="tracked-title">
            <h2 id="tracked-title">Tracked intents</h2>
            {intents === undefined ? (
              <p class="muted">Loading…</p>
            ) : intents.length === 0 ? (
              <p class="muted">Nothing tracked yet. Copy an intent ID and press “Track from clipboard”.</p>
            ) : (
              <ul class="intent-list" aria-label="Tracked intents">
                {intents.map((intent) => (
                  <IntentRow
                    key={intent.intentId}
                    intent={intent}
                    now={now}
                    onOpen={() => setSelected(intent.intentId)}
                    onRemove={() => void remove(intent.intentId)}
                  />
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  );
}
