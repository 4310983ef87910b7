import type { ImportRowError, ImportSummary } from '@/lib/format/import';
import { t } from '@/lib/i18n';

/** Row errors listed at most; the rest are counted. */
const SHOWN_ERRORS = 20;

/**
 * The preview of an import before anything is tracked: how many intents the file holds, how many are new, already
 * tracked, already ended (not notified again) or muted, the repeated rows, and every row that cannot be read with its
 * reason (the first 20 listed). "Import N intents" confirms (disabled when nothing is new); Cancel drops the file.
 */
export function ImportPreview(props: {
  fileName: string;
  summary: ImportSummary;
  errors: readonly ImportRowError[];
  duplicates: number;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { summary, errors } = props;
  return (
    <section class="import-preview" aria-labelledby="import-title" data-testid="import-preview">
      <h3 id="import-title">{t('importTitle', props.fileName)}</h3>
      <p>{t('importCounts', summary.total, summary.fresh, summary.already)}</p>
      {summary.ended > 0 && <p>{t('importEnded', summary.ended)}</p>}
      {summary.muted > 0 && <p>{t('importMutedCount', summary.muted)}</p>}
      {props.duplicates > 0 && <p class="muted">{t('importDuplicates', props.duplicates)}</p>}
      {errors.length > 0 && (
        <div class="import-errors">
          <p id="import-errors-title" class="error">
            {t('importErrorsTitle', errors.length)}
          </p>
          <ul aria-labelledby="import-errors-title">
            {errors.slice(0, SHOWN_ERRORS).map((e) => (
              <li key={e.row}>{e.message}</li>
            ))}
          </ul>
          {errors.length > SHOWN_ERRORS && <p class="muted">{t('importMoreErrors', errors.length - SHOWN_ERRORS)}</p>}
        </div>
      )}
      <div class="actions">
        <button type="button" class="small" onClick={props.onConfirm} disabled={props.busy || summary.fresh === 0}>
          {t('importConfirm', summary.fresh)}
        </button>
        <button type="button" class="small secondary" onClick={props.onCancel} disabled={props.busy}>
          {t('importCancel')}
        </button>
      </div>
    </section>
  );
}
