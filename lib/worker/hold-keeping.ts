/**
 * A 429's hold between the worker's request budget and the tracker's state (docs/tracking.md "Faults"; invariant I5):
 * the budget meets the 429, the tracker's state keeps the hold for a restarted worker, and a kept hold comes back to
 * the budget. Each way once, and never longer than the service asked: what is left is measured after the settings read
 * that names the hold's service, and a hold handed back from the state is not told back to the tracker (it once was:
 * each store came back a few ms longer, a loop of state writes stretching the hold for as long as it lasted).
 */
import { MAX_HOLD_MS } from '../api/budget';
import type { TrackerState } from '../store';
import type { Clock } from '../time/clock';
import { pauseLeftMs } from '../tracker/tracker-time';
import type { ServiceAccess } from './compose';

type Clients = ServiceAccess['clients'];

/**
 * Tells the tracker (`holdOff(ms)`, ms from now) of every hold the budget meets for the saved service (a 429 to Test
 * connection of another URL or key pauses nothing else): what is left of it once the settings are read.
 */
export function tellTrackerOfHolds(clients: Clients, clock: Clock, tracker: () => { holdOff(ms: number): Promise<void> }): void {
  clients.budget.onHoldOff = (ms, scope) => {
    const at = clock.monotonic();
    void clients
      .scope()
      .then((saved) => (saved === scope ? tracker().holdOff(ms - (clock.monotonic() - at)) : undefined))
      .catch(() => {});
  };
}

/**
 * Hands the hold in the tracker's `state` (wall-clock ms) to the budget, as `kept`; resolves once it is there.
 * Undefined when there is none. The settings unreadable, the hold's service is unknown: it resolves when the hold ends.
 */
export function handBackKeptHold(clients: Clients, clock: Clock, state: TrackerState): Promise<unknown> | undefined {
  const left = () => pauseLeftMs(state, clock.now(), MAX_HOLD_MS);
  if (!(left() > 0)) return undefined;
  return clients.scope().then(
    (scope) => scope !== undefined && clients.budget.holdOff(left(), scope, { kept: true }),
    () => clock.sleep(left()),
  );
}
