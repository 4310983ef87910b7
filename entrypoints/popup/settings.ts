/** The saved settings as the popup sees them, and the way to the options page. */
import { useEffect, useState } from 'preact/hooks';
import { createSettingsStore, type Settings } from '@/lib/store';
import { createSyncedSettingsStore } from '@/lib/store/sync';

const settingsStore = createSyncedSettingsStore(createSettingsStore(), browser.storage?.sync);

/**
 * The saved settings: undefined while loading, null when the URL or the key is missing. Read again whenever the page
 * gets the focus back: the side panel stays open while the user changes them in the options page.
 */
export function useSettings(): Settings | null | undefined {
  const [settings, setSettings] = useState<Settings | null | undefined>(undefined);
  useEffect(() => {
    const read = () => void settingsStore.get().then((s) => setSettings(s?.baseUrl && s.accessKey ? s : null));
    read();
    window.addEventListener('focus', read);
    return () => window.removeEventListener('focus', read);
  }, []);
  return settings;
}

/** Opens the welcome page (what the extension does, its setup, the shortcuts) in a tab. */
export function openWelcome(): void {
  void browser.tabs.create({ url: browser.runtime.getURL('/welcome.html') });
}

/** Opens the options page. */
export function openSettings(): void {
  void browser.runtime.openOptionsPage();
}
