import { useMemo, useState } from 'preact/hooks';
import { TrackedIntentRow } from '@/components/TrackedIntentRow';
import { WindowedList } from '@/components/WindowedList';
import { inFlightFirst } from '@/lib/eta';
import { t } from '@/lib/i18n';
import { filterTracked, searchIndex, TRACKED_FILTERS, type TrackedFilter } from '@/lib/query/tracked-filter';
import type { ChainVerdict, TrackedIntent } from '@/lib/store';

/** From this many tracked intents a search box and a filter are offered. */
export const FILTER_FROM = 20;
/** Above this many rows the list is windowed: only the rows in view are rendered. */
export const WINDOW_ABOVE = 50;
/** A row's height before it is measured (px): a finished row with its margin; rows in flight are taller. */
const ROW_ESTIMATE = 76;
/** The windowed list's largest height (px): the popup is 600 px tall. */
const LIST_HEIGHT = 420;

const FILTER_LABELS: Record<TrackedFilter, Parameters<typeof t>[0]> = {
  all: 'trackedFilterAll',
  'in-flight': 'trackedFilterInFlight',
  succeeded: 'trackedFilterSucceeded',
  failed: 'trackedFilterFailed',
  stopped: 'trackedFilterStopped',
};

/**
 * The tracked intents, those in flight first: with many, a search box and a status filter (`lib/query/tracked-filter`)
 * and a windowed list (`components/WindowedList`), so that 5,000 intents render and filter at once. The order, the
 * search index and the muted set are computed once per list, not per row or per keystroke.
 */
export function TrackedList(props: {
  intents: TrackedIntent[];
  /**
   * Given while `intents` are only the first rows of the list (already in its order): how many are tracked in all.
   * The rows are shown as they are, with no search or filter, and a line says how many of the whole these are.
   */
  total?: number;
  now: number;
  onOpen: (intentId: string) => void;
  onRemove: (intentId: string) => void;
  muted?: readonly string[];
  onMute?: (intentId: string, muted: boolean) => void;
  /** Each intent's on-chain verdict, read from storage (docs/chain.md). */
  verified?: ReadonlyMap<string, ChainVerdict>;
}) {
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<TrackedFilter>('all');
  const partial = props.total !== undefined;
  const ordered = useMemo(() => (partial ? props.intents : inFlightFirst(props.intents)), [props.intents, partial]);
  const index = useMemo(() => searchIndex(props.intents), [props.intents]);
  const muted = useMemo(() => new Set(props.muted), [props.muted]);
  const shown = useMemo(() => filterTracked(ordered, index, query, filter), [ordered, index, query, filter]);
  const { onMute } = props;
  const row = (intent: TrackedIntent, i: number) => (
    <TrackedIntentRow
      key={intent.intentId}
      intent={intent}
      now={props.now}
      onOpen={() => props.onOpen(intent.intentId)}
      onRemove={() => props.onRemove(intent.intentId)}
      muted={muted.has(intent.intentId)}
      onMute={onMute && ((m) => onMute(intent.intentId, m))}
      position={{ index: i, size: props.total ?? shown.length }}
      verified={props.verified?.get(intent.intentId)?.verified}
    />
  );
  return (
    <>
      {partial && (
        <p class="muted" role="status" data-testid="tracked-count">
          {t('trackedShowing', props.intents.length, props.total ?? 0)}
        </p>
      )}
      {!partial && props.intents.length >= FILTER_FROM && (
        <div class="tracked-filters">
          <input
            type="search"
            aria-label={t('trackedSearchLabel')}
            placeholder={t('trackedSearchPlaceholder')}
            value={query}
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
          />
          <select
            aria-label={t('trackedFilterLabel')}
            value={filter}
            onChange={(e) => setFilter((e.target as HTMLSelectElement).value as TrackedFilter)}
          >
            {TRACKED_FILTERS.map((f) => (
              <option key={f} value={f}>
                {t(FILTER_LABELS[f])}
              </option>
            ))}
          </select>
          {shown.length !== props.intents.length && (
            <p class="muted" role="status" data-testid="tracked-count">
              {shown.length === 0 ? t('trackedNoMatch') : t('trackedShowing', shown.length, props.intents.length)}
            </p>
          )}
        </div>
      )}
      {shown.length > WINDOW_ABOVE ? (
        <WindowedList
          items={shown}
          keyOf={(i) => i.intentId}
          renderItem={row}
          estimate={ROW_ESTIMATE}
          height={LIST_HEIGHT}
          label={t('trackedIntents')}
          class="intent-list"
        />
      ) : (
        <ul class="intent-list" aria-label={t('trackedIntents')}>
          {shown.map(row)}
        </ul>
      )}
    </>
  );
}
