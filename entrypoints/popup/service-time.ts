/**
 * The service's time as the popup and side panel use it (docs/tracking.md "One clock: the service's"): the local clock
 * plus the worker's last estimate of the service's offset (`lib/worker/service-offset.ts`). Every comparison with a
 * server timestamp in these pages ("2 min ago", an ETA's countdown, a History look-up's `fromTime`) uses
 * {@link serviceNow}.
 */
import { serviceOffsetStore } from './stores';

let offsetMs = 0;

/** Reads the offset the worker published (kept as it was when the read fails). */
export async function loadServiceOffset(): Promise<void> {
  offsetMs = await serviceOffsetStore.get().catch(() => offsetMs);
}

/** The service's time now (ms since the epoch), estimated. */
export function serviceNow(): number {
  return Date.now() + offsetMs;
}
