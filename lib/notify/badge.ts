/**
 * The toolbar badge (pure): a red "!" when tracking is paused because the access key was rejected; otherwise a red
 * count of intents that FAILED and were not seen in the popup yet; otherwise a blue count of intents in flight.
 * Colours are CSS colours.
 */
import { trackingErrorText } from '../format/tracking-error';
import { t } from '../i18n';
import type { TrackedIntent, TrackerState } from '../store';

/** What the badge shows: text (≤ 4 characters, '' for none), background colour and the button's tooltip. */
export interface BadgeView {
  text: string;
  color: string;
  title: string;
}

/** A count as badge text: '' for none, '999+' above 999 (the badge holds about four characters). */
const countText = (n: number): string => (n === 0 ? '' : n > 999 ? '999+' : String(n));

/** The badge for the tracked intents and the tracker state. */
export function badgeFor(intents: readonly TrackedIntent[], state: TrackerState): BadgeView {
  if (state.keyRejected) return { text: '!', color: '#b42318', title: t('badgePaused', trackingErrorText(state.keyRejected)) };
  const failed = intents.filter((i) => i.phase === 'final' && i.status === 'FAILED' && !i.seen).length;
  if (failed > 0)
    return {
      text: countText(failed),
      color: '#b42318',
      title: failed === 1 ? t('badgeOneFailed') : t('badgeFailed', failed),
    };
  const inFlight = intents.filter((i) => i.phase === 'tracking').length;
  const title = inFlight === 0 ? t('extName') : inFlight === 1 ? t('badgeOneInFlight') : t('badgeInFlight', inFlight);
  return { text: countText(inFlight), color: '#3b5bdb', title };
}
