import { useEffect, useState } from 'preact/hooks';
import { t } from '@/lib/i18n';

/** A keyboard command as the browser has it bound (`commands.getAll`): `shortcut` empty when the user unset it. */
export interface BoundCommand {
  name?: string;
  description?: string;
  shortcut?: string;
}

/** The extension's commands with their keys as the browser has them now (the user may have changed them). */
export function useShortcuts(): BoundCommand[] | undefined {
  const [commands, setCommands] = useState<BoundCommand[]>();
  useEffect(() => {
    void browser.commands
      .getAll()
      .then(setCommands)
      .catch(() => setCommands([]));
  }, []);
  return commands;
}

/**
 * The two shortcuts as the browser has them bound (welcome page, options page): the keys, or "not set", and what each
 * does; then where the browser lets the user change them.
 */
export function ShortcutList() {
  const shortcuts = useShortcuts();
  return (
    <>
      <dl class="shortcuts" data-testid="shortcuts">
        {(shortcuts ?? []).map((c) => (
          <div key={c.name} data-command={c.name}>
            <dt>
              <kbd>{c.shortcut || t('shortcutNotSet')}</kbd>
            </dt>
            <dd>{c.name === '_execute_action' || !c.description ? t('shortcutOpenPopup') : c.description}</dd>
          </div>
        ))}
      </dl>
      <p class="hint">{t('shortcutsHowToChange')}</p>
    </>
  );
}
