import { useMemo } from 'preact/hooks';
import { TrackForm } from '@/components/TrackForm';
import { shortId } from '@/lib/format/intent';
import { t } from '@/lib/i18n';
import type { ChainVerdict, TrackedIntent } from '@/lib/store';
import { readWholeList } from '../hooks/useTrackedIntents';
import { ImportSection } from './ImportSection';
import { TrackedList } from './TrackedList';

/**
 * The export formats (lib/format/export.ts), loaded on the first Export click: a chunk of the extension, so that the
 * popup opens without them (its bundle budget, scripts/check-budget.ts).
 */
const exportFormats = () => import('@/lib/format/export');

/**
 * Exports every tracked intent in `format`: whole records (the list holds rows without most of each receipt), read when
 * the button is clicked, with the export code.
 */
async function exportAll(format: 'json' | 'csv', muted: ReadonlySet<string>): Promise<void> {
  const [{ exportJson, exportCsv }, intents] = await Promise.all([exportFormats(), readWholeList()]);
  if (format === 'json') download('svc-intents.json', exportJson(intents, Date.now(), muted), 'application/json');
  else download('svc-intents.csv', exportCsv(intents, muted), 'text/csv');
}

/** Saves `text` as a file through a temporary blob: link (no downloads permission needed). */
function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Tracked tab: the Track box and the tracked intents, those in flight first (their first rows alone until the whole
 * list is read: no search, export or housekeeping over a part of it).
 */
export function TrackedTab(props: {
  intents: TrackedIntent[] | undefined;
  /** Before the whole list is read: its first rows (in the list's order) and how many are tracked. */
  firstRows?: { rows: TrackedIntent[]; total: number };
  /** An intentId found on the clipboard, not tracked yet: offered with one click. */
  suggestion?: string;
  onAcceptSuggestion: () => void;
  onDismissSuggestion: () => void;
  onClearFinished: () => void;
  now: number;
  message?: { text: string; error: boolean };
  busy: boolean;
  /** Resolves with the text to leave in the Track box (undefined: as it is). */
  onTrack: (text: string) => Promise<string | undefined>;
  onTrackClipboard: () => void;
  onOpen: (intentId: string) => void;
  /** An import tracked intents: read the list again. */
  onImported: () => Promise<void>;
  onRemove: (intentId: string) => void;
  /** IntentIds whose notifications are muted. */
  muted?: readonly string[];
  onMute?: (intentId: string, muted: boolean) => void;
  /** The worker's on-chain verdicts by intentId: a row says "Verified on-chain" once its verdict is. */
  verified?: ReadonlyMap<string, ChainVerdict>;
}) {
  const trackedIds = useMemo(() => new Set(props.intents?.map((i) => i.intentId)), [props.intents]);
  return (
    <>
      {props.suggestion && (
        <fieldset class="suggestion" aria-label={t('clipboardSuggestion')}>
          <span>
            {t('clipboardHolds')} <span class="mono">{shortId(props.suggestion)}</span>
          </span>
          <button type="button" class="small" onClick={props.onAcceptSuggestion}>
            {t('trackIt')}
          </button>
          <button type="button" class="small secondary" onClick={props.onDismissSuggestion} aria-label={t('dismissSuggestion')}>
            {t('noThanks')}
          </button>
        </fieldset>
      )}
      <TrackForm onTrack={props.onTrack} onTrackClipboard={props.onTrackClipboard} message={props.message} busy={props.busy} />
      <section aria-labelledby="tracked-title">
        <h2 id="tracked-title">{t('trackedIntents')}</h2>
        {props.intents === undefined && props.firstRows ? (
          <TrackedList
            intents={props.firstRows.rows}
            total={props.firstRows.total}
            now={props.now}
            onOpen={props.onOpen}
            onRemove={props.onRemove}
            muted={props.muted}
            onMute={props.onMute}
          />
        ) : props.intents === undefined ? (
          <p class="muted">{t('loading')}</p>
        ) : props.intents.length === 0 ? (
          <p class="muted">{t('nothingTracked')}</p>
        ) : (
          <>
            <TrackedList
              intents={props.intents}
              now={props.now}
              onOpen={props.onOpen}
              onRemove={props.onRemove}
              muted={props.muted}
              onMute={props.onMute}
              {...(props.verified ? { verified: props.verified } : {})}
            />
            <div class="actions housekeeping">
              <button type="button" class="small secondary" onClick={() => void exportAll('json', new Set(props.muted))}>
                {t('exportJson')}
              </button>
              <button type="button" class="small secondary" onClick={() => void exportAll('csv', new Set(props.muted))}>
                {t('exportCsv')}
              </button>
              {props.intents.some((i) => i.phase === 'final') && (
                <button type="button" class="small secondary" onClick={props.onClearFinished}>
                  {t('clearFinished')}
                </button>
              )}
            </div>
          </>
        )}
        <ImportSection trackedIds={trackedIds} onImported={props.onImported} />
      </section>
    </>
  );
}
