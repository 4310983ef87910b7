import { useEffect, useRef, useState } from 'preact/hooks';
import { ImportPreview } from '@/components/ImportPreview';
import { type ImportParse, importSummary, MAX_IMPORT_CHARS, parseImport } from '@/lib/format/import';
import { t } from '@/lib/i18n';
import { send } from '../worker-messages';

type Parsed = Extract<ImportParse, { ok: true }>;

/** True when the page is a tab (not the toolbar popup or the side panel, where a file chooser may close the page). */
function useInTab(): boolean | undefined {
  const [inTab, setInTab] = useState<boolean>();
  useEffect(() => {
    void Promise.resolve()
      .then(() => browser.tabs.getCurrent())
      .then(
        (tab) => setInTab(tab !== undefined),
        () => setInTab(true),
      );
  }, []);
  return inTab;
}

/**
 * Import of an export (JSON or CSV, `lib/format/import.ts`): "Import…" chooses a file — in a tab, since the toolbar
 * popup closes when a file chooser opens (Firefox) — then a preview says what the file holds and which rows cannot
 * be read; nothing is tracked before "Import". A refused file or a failed request is said, and loses nothing.
 */
export function ImportSection(props: { trackedIds: ReadonlySet<string>; onImported: () => Promise<void> }) {
  const inTab = useInTab();
  const button = useRef<HTMLButtonElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<{ fileName: string; parsed: Parsed }>();
  const [message, setMessage] = useState<{ text: string; error: boolean }>();
  const [busy, setBusy] = useState(false);
  // Opened for an import (`#import`, from the popup's button): the button in view and focused.
  const [asked] = useState(() => location.hash === '#import');
  useEffect(() => {
    if (asked) button.current?.focus();
  }, [asked]);

  const choose = () => {
    if (inTab === false) {
      void browser.tabs.create({ url: browser.runtime.getURL('/popup.html#import') });
      return;
    }
    fileInput.current?.click();
  };

  const read = async (file: File) => {
    setMessage(undefined);
    setPreview(undefined);
    // Bytes are at least as many as characters: a file over the bound in bytes is refused before it is read.
    if (file.size > MAX_IMPORT_CHARS) {
      setMessage({ text: t('importTooBig', Math.round(MAX_IMPORT_CHARS / 1_000_000)), error: true });
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (err) {
      setMessage({ text: t('importReadFailed', err instanceof Error ? err.message : String(err)), error: true });
      return;
    }
    const parsed = parseImport(text);
    if (!parsed.ok) setMessage({ text: parsed.message, error: true });
    else setPreview({ fileName: file.name, parsed });
  };

  const confirm = async () => {
    if (!preview) return;
    setBusy(true);
    const intents = preview.parsed.intents.map((i) => ({ intentId: i.intentId, muted: i.muted, ...i.seed }));
    const reply = await send({ type: 'import', intents });
    setBusy(false);
    // A failed request keeps the preview: the user may try again.
    if (!reply.ok) return setMessage({ text: reply.message, error: true });
    const invalid = reply.invalidCount + preview.parsed.errors.length;
    setMessage({ text: t('trackManySummary', reply.added, reply.already, invalid), error: false });
    setPreview(undefined);
    await props.onImported();
  };

  return (
    <div class="import">
      <button ref={button} type="button" class="small secondary" onClick={choose} disabled={busy}>
        {t('importButton')}
      </button>
      <input
        ref={fileInput}
        type="file"
        hidden
        accept=".json,.csv,application/json,text/csv"
        aria-label={t('importFileLabel')}
        onChange={(e) => {
          const input = e.currentTarget as HTMLInputElement;
          const file = input.files?.[0];
          input.value = '';
          if (file) void read(file);
        }}
      />
      {preview && (
        <ImportPreview
          fileName={preview.fileName}
          summary={importSummary(preview.parsed.intents, props.trackedIds)}
          errors={preview.parsed.errors}
          duplicates={preview.parsed.duplicates}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setPreview(undefined)}
        />
      )}
      {message && (
        <p class={message.error ? 'message error' : 'message'} role={message.error ? 'alert' : 'status'} data-testid="import-message">
          {message.text}
        </p>
      )}
    </div>
  );
}
