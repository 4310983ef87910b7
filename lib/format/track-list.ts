/**
 * What the popup and the welcome page say after a list of intentIds was pasted and sent (`track-many`), and what
 * they leave in the box: nothing when every id was tracked; the ids that are not valid when some were not (so they
 * can be fixed); the whole text as pasted when the request failed. Pure.
 */
import type { IntentList } from '../api/intent-list';
import { t } from '../i18n';
import type { ReplyOf } from '../messages';

/** The line to show (`error` for role=alert) and the text to leave in the box. */
export interface TrackListOutcome {
  text: string;
  error: boolean;
  keep: string;
}

/**
 * The outcome of sending `list` (read from `pasted`, see `lib/api/intent-list.ts`) as `track-many`, answered by
 * `reply`. Counts: added, already tracked, not valid (the page's and the worker's together; repeats in the paste
 * are not counted); the first id that is not valid is quoted with its reason.
 */
export function trackListOutcome(pasted: string, list: IntentList, reply: ReplyOf<'track-many'>): TrackListOutcome {
  if (!reply.ok) return { text: `${reply.message} ${t('trackManyKept')}`, error: true, keep: pasted };
  const invalid = [...list.invalid, ...reply.invalid];
  const invalidCount = list.invalid.length + reply.invalidCount;
  const summary = t('trackManySummary', reply.added, reply.already, invalidCount);
  const first = invalid[0];
  if (invalidCount === 0 || !first) return { text: summary, error: false, keep: '' };
  return {
    text: `${summary} ${t('trackManyFirstInvalid', first.text.slice(0, 80), first.message)} ${t('trackManyKept')}`,
    error: true,
    keep: invalid.map((i) => i.text).join('\n'),
  };
}

/** The outcome of pasted text over the bounds of `lib/api/intent-list.ts`: nothing sent, the text kept. */
export function tooLongOutcome(pasted: string, max: number): TrackListOutcome {
  return { text: t('trackManyTooLong', max.toLocaleString()), error: true, keep: pasted };
}
