import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';

type Flow = ComponentType<{ file: File; trackedIds: ReadonlySet<string>; onImported: () => Promise<void> }>;

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
 * Import of an export (JSON or CSV): "Import…" chooses a file — in a tab, since the toolbar popup closes when a
 * file chooser opens (Firefox) — then `./ImportFlow` (loaded on that first choice, so that the popup opens without
 * the parser) previews it; nothing is tracked before its "Import".
 */
export function ImportSection(props: { trackedIds: ReadonlySet<string>; onImported: () => Promise<void> }) {
  const inTab = useInTab();
  const button = useRef<HTMLButtonElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; Flow: Flow; n: number }>();
  const [failure, setFailure] = useState<string>();
  // Opened for an import (`#import`, from the popup's button): the button focused.
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

  const load = async (file: File) => {
    setFailure(undefined);
    try {
      const { ImportFlow } = await import('./ImportFlow');
      setChosen((c) => ({ file, Flow: ImportFlow, n: (c?.n ?? 0) + 1 }));
    } catch (err) {
      setFailure(t('importReadFailed', err instanceof Error ? err.message : String(err)));
    }
  };

  return (
    <div class="import">
      <button ref={button} type="button" class="small secondary" onClick={choose}>
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
          if (file) void load(file);
        }}
      />
      {chosen && <chosen.Flow key={chosen.n} file={chosen.file} trackedIds={props.trackedIds} onImported={props.onImported} />}
      {failure && (
        <p class="message error" role="alert" data-testid="import-message">
          {failure}
        </p>
      )}
    </div>
  );
}
