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

/** The badge for the tracked intents and the tracker state. */
export function badgeFor(intents: readonly TrackedIntent[], state: TrackerState): BadgeView {
  if (state.keyRejected) return { text: '!', color: '#b42318', title: t('badgePaused', trackingErrorText(state.keyRejected)) };
  const failed = intents.filter((i) => i.phase === 'final' && i.status === 'FAILED' && !i.seen).length;
  if (failed > 0)
    return {
      text: String(Math.min(failed, 999)),
      color: '#b42318',
      title: failed === 1 ? t('badgeOneFailed') : t('badgeFailed', failed),
    };
  const inFlight = intents.filter((i) => i.phase === 'tracking').length;
  const title = inFlight === 0 ? t('extName') : inFlight === 1 ? t('badgeOneInFlight') : t('badgeInFlight', inFlight);
  return { text: inFlight === 0 ? '' : inFlight > 999 ? '999+' : String(inFlight), color: '#3b5bdb', title };
}
