/**
 * The alarm that ends quiet hours and snoozes: `browser.alarms` wakes a sleeping worker at the time, where a timer
 * would die with it. One alarm, moved to the next release time.
 */
import type { browser as browserApi } from 'wxt/browser';

/** The WebExtension API object (webextension-polyfill through WXT). */
type Browser = typeof browserApi;

/** Name of the alarm that releases held notifications (and ends a snooze). */
export const CALM_ALARM = 'svc-calm-release';

/** Creates `scheduleRelease(at)`: the alarm fires at `at` (ms since the epoch); undefined clears it. */
export function createCalmAlarm(browser: Browser): (at: number | undefined) => Promise<void> {
  return async (at) => {
    if (at === undefined) {
      await browser.alarms.clear(CALM_ALARM);
      return;
    }
    // Creating an alarm under the same name replaces it.
    await browser.alarms.create(CALM_ALARM, { when: at });
  };
}
