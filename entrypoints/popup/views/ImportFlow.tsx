import { useEffect, useState } from 'preact/hooks';
import { ImportPreview } from '@/components/ImportPreview';
import { type ImportParse, importSummary, MAX_IMPORT_CHARS, parseImport } from '@/lib/format/import';
import { t } from '@/lib/i18n';
import { send } from '../worker-messages';

type Parsed = Extract<ImportParse, { ok: true }>;

/**
 * One chosen file's import (loaded only when a file is chosen: the popup opens without it): read and parsed
 * (`lib/format/import.ts`), previewed, and sent as one `track-many` request on "Import". A refused file or a failed
 * request is said; a failed request keeps the preview, so the import can be tried again.
 */
export function ImportFlow(props: { file: File; trackedIds: ReadonlySet<string>; onImported: () => Promise<void> }) {
  const { file } = props;
  const [parsed, setParsed] = useState<Parsed>();
  const [message, setMessage] = useState<{ text: string; error: boolean }>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      // Bytes are at least as many as characters: a file over the bound in bytes is refused before it is read.
      if (file.size > MAX_IMPORT_CHARS)
        return setMessage({ text: t('importTooBig', Math.round(MAX_IMPORT_CHARS / 1_000_000)), error: true });
      let text: string;
      try {
        text = await file.text();
      } catch (err) {
        if (live) setMessage({ text: t('importReadFailed', err instanceof Error ? err.message : String(err)), error: true });
        return;
      }
      const read = parseImport(text);
      if (!live) return;
      if (read.ok) setParsed(read);
      else setMessage({ text: read.message, error: true });
    })();
    return () => {
      live = false;
    };
  }, [file]);

  const confirm = async () => {
    if (!parsed) return;
    setBusy(true);
    const intents = parsed.intents.map((i) => ({ intentId: i.intentId, muted: i.muted, ...i.seed }));
    const reply = await send({ type: 'track-many', intents });
    setBusy(false);
    if (!reply.ok) return setMessage({ text: reply.message, error: true });
    setMessage({ text: t('trackManySummary', reply.added, reply.already, reply.invalidCount + parsed.errors.length), error: false });
    setParsed(undefined);
    await props.onImported();
  };

  return (
    <>
      {parsed && (
        <ImportPreview
          fileName={file.name}
          summary={importSummary(parsed.intents, props.trackedIds)}
          errors={parsed.errors}
          duplicates={parsed.duplicates}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setParsed(undefined)}
        />
      )}
      {message && (
        <p class={message.error ? 'message error' : 'message'} role={message.error ? 'alert' : 'status'} data-testid="import-message">
          {message.text}
        </p>
      )}
    </>
  );
}
