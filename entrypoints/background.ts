import { createBackground } from '@/lib/background';
import { CALM_ALARM } from '@/lib/worker/calm-alarm';
import { MENU_TRACK, WATCHDOG_ALARM } from '@/lib/worker/lifetime';

/**
 * Background worker: wires browser events to the services that `lib/background` builds. Every listener is
 * registered synchronously, so events that wake the worker are never lost.
 */
export default defineBackground(() => {
  const bg = createBackground(browser);
  const resume = () => {
    void bg.ensureWatchdog();
    void bg.tracker.resume();
    void bg.updateBadge().catch(() => {});
    // Quiet hours or a snooze may have ended while the worker slept; notifications left unfinished are resumed.
    void bg.calm.resume().catch(() => {});
  };

  browser.runtime.onInstalled.addListener((details) => {
    void bg.ensureMenus();
    resume();
    void bg.installed(details.reason);
  });
  browser.runtime.onStartup.addListener(resume);
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === CALM_ALARM) void bg.calm.release().catch(() => {});
    if (alarm.name !== WATCHDOG_ALARM) return;
    resume();
    void bg.checkWatched();
  });
  browser.runtime.onMessage.addListener((message, sender) => {
    if (sender.id !== browser.runtime.id) return undefined;
    return bg.handleMessage(message);
  });
  browser.notifications.onClicked.addListener((id) => void bg.openNotification(id));
  browser.notifications.onButtonClicked?.addListener((id, index) => void bg.notificationButton(id, index));
  browser.contextMenus.onClicked.addListener((info) => {
    if (info.menuItemId === MENU_TRACK && info.selectionText) void bg.trackSelection(info.selectionText);
  });
  browser.commands.onCommand.addListener((command) => void bg.runCommand(command));
  browser.omnibox.onInputEntered.addListener((text) => void bg.openFromOmnibox(text));

  bg.startKeepAlive();
  // The worker also starts for messages and alarms: resume the tracker every time it starts.
  resume();
});
