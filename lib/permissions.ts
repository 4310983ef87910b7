/**
 * What each permission of the extension is for, as the options page shows it. The manifest itself is built in
 * `wxt.config.ts`; `test/manifest.test.ts` checks the built manifests against Chrome's install-warning list.
 */

import type { MessageKey } from './i18n';

/** The optional permission asked for on the first "Track from clipboard" (or before the clipboard shortcut works). */
export const CLIPBOARD_PERMISSION: { permissions: ['clipboardRead'] } = { permissions: ['clipboardRead'] };

/** One permission and what the extension does with it (message keys of whole sentences in `_locales`). */
export interface PermissionUse {
  /** The manifest name. */
  name: string;
  /** Message key of what the browser calls it, when it shows a warning or a prompt for it. */
  title: MessageKey;
  /** Message key of what the extension uses it for. */
  use: MessageKey;
  /** Asked for when needed rather than at install. */
  optional: boolean;
}

/** Every permission, required first. `sidePanel` and `offscreen` exist in Chrome only. */
export const PERMISSION_USES: readonly PermissionUse[] = [
  {
    name: 'notifications',
    title: 'perm_notifications_title',
    use: 'perm_notifications_use',
    optional: false,
  },
  {
    name: 'alarms',
    title: 'perm_alarms_title',
    use: 'perm_alarms_use',
    optional: false,
  },
  {
    name: 'contextMenus',
    title: 'perm_contextMenus_title',
    use: 'perm_contextMenus_use',
    optional: false,
  },
  {
    name: 'storage',
    title: 'perm_storage_title',
    use: 'perm_storage_use',
    optional: false,
  },
  {
    name: 'sidePanel',
    title: 'perm_sidePanel_title',
    use: 'perm_sidePanel_use',
    optional: false,
  },
  {
    name: 'offscreen',
    title: 'perm_offscreen_title',
    use: 'perm_offscreen_use',
    optional: false,
  },
  {
    name: 'clipboardRead',
    title: 'perm_clipboardRead_title',
    use: 'perm_clipboardRead_use',
    optional: true,
  },
  {
    name: 'host',
    title: 'perm_host_title',
    use: 'perm_host_use',
    optional: true,
  },
];
