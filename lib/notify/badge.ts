/**
 * The toolbar badge (pure): how many intents are in flight, and a red "!" when tracking is paused because the
 * access key was rejected. Colours are CSS colours.
 */
import type { TrackedIntent, TrackerState } from '../store';

/** What the badge shows: text (≤ 4 characters, '' for none), background colour and the button's tooltip. */
export interface BadgeView {
  text: string;
  color: string;
  title: string;
}

/** The badge for the tracked intents and the tracker state. */
export function badgeFor(intents: readonly TrackedIntent[], state: TrackerState): BadgeView {
  if (state.keyRejected) return { text: '!', color: '#b42318', title: `Svc Intent Tracker — paused: ${state.keyRejected.message}` };
  const inFlight = intents.filter((t) => t.phase === 'tracking').length;
  const title = inFlight === 0 ? 'Svc Intent Tracker' : `Svc Intent Tracker — ${inFlight} intent${inFlight === 1 ? '' : 's'} in flight`;
  return { text: inFlight === 0 ? '' : inFlight > 999 ? '999+' : String(inFlight), color: '#3b5bdb', title };
}
