/** The saved settings as the popup sees them, and the way to the options page. */
import { useEffect, useState } from 'preact/hooks';
import { createSettingsStore, type Settings } from '@/lib/store';

const settingsStore = createSettingsStore();

/** The saved settings: undefined while loading, null when the URL or the key is missing. */
export function useSettings(): Settings | null | undefined {
  const [settings, setSettings] = useState<Settings | null | undefined>(undefined);
  useEffect(() => {
    void settingsStore.get().then((s) => setSettings(s?.baseUrl && s.accessKey ? s : null));
  }, []);
  return settings;
}

/** Opens the options page. */
export function openSettings(): void {
  void browser.runtime.openOptionsPage();
}
