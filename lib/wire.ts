/**
 * The worker's listener wiring: what `entrypoints/background.ts` runs on every start of the worker, and what the
 * campaign (test/world) runs on every start of a simulated worker — one code path for both.
 */
import { type BackgroundOptions, type BackgroundServices, createBackground } from './background';
import type { Platform } from './platform';
import { CALM_ALARM } from './worker/calm-alarm';
import { MENU_TRACK, WATCHDOG_ALARM } from './worker/lifetime';

/**
 * Builds the background services on `platform` ({@link createBackground}) and registers every listener on
 * `platform.browser` synchronously, in this call, so that the event that woke the worker is never lost; then starts
 * the keep-alive and resumes the tracker (the worker also starts for messages and alarms). Resolves nothing, throws
 * nothing; returns the services (the campaign and tests drive them).
 */
export function wireBackground(platform: Platform, options: BackgroundOptions = {}): BackgroundServices {
  const { browser } = platform;
  const bg = createBackground(platform, options);
  const resume = () => {
    void bg.ensureWatchdog().catch(() => {});
    // A refused read of the records rejects here; the next start or watchdog alarm resumes it again.
    void bg.tracker.resume().catch(() => {});
    void bg.updateBadge().catch(() => {});
    // Quiet hours or a snooze may have ended while the worker slept; notifications left unfinished are resumed.
    void bg.calm.resume().catch(() => {});
  };

  browser.runtime.onInstalled.addListener((details) => {
    void bg.ensureMenus().catch(() => {});
    resume();
    void bg.installed(details.reason);
  });
  browser.runtime.onStartup.addListener(resume);
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === CALM_ALARM) void bg.calm.release().catch(() => {});
    if (alarm.name !== WATCHDOG_ALARM) return;
    resume();
    void bg.checkWatched().catch(() => {});
  });
  browser.runtime.onMessage.addListener((message, sender) => {
    if (sender.id !== browser.runtime.id) return undefined;
    return bg.handleMessage(message);
  });
  // A click whose tab could not open is lost with it (the user clicks again); it never ends the worker.
  browser.notifications.onClicked.addListener((id) => void bg.openNotification(id).catch(() => {}));
  browser.notifications.onButtonClicked?.addListener((id, index) => void bg.notificationButton(id, index).catch(() => {}));
  browser.contextMenus.onClicked.addListener((info) => {
    if (info.menuItemId === MENU_TRACK && info.selectionText) void bg.trackSelection(info.selectionText);
  });
  browser.commands.onCommand.addListener((command) => void bg.runCommand(command));
  browser.omnibox.onInputEntered.addListener((text) => void bg.openFromOmnibox(text));

  bg.startKeepAlive();
  resume();
  return bg;
}
