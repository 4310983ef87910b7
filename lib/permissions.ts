/**
 * What each permission of the extension is for, as the options page shows it. The manifest itself is built in
 * `wxt.config.ts`; `test/manifest.test.ts` checks the built manifests against Chrome's install-warning list.
 */

/** The optional permission asked for on the first "Track from clipboard" (or before the clipboard shortcut works). */
export const CLIPBOARD_PERMISSION: { permissions: ['clipboardRead'] } = { permissions: ['clipboardRead'] };

/** One permission and what the extension does with it (whole sentences, so they can move to `_locales`). */
export interface PermissionUse {
  /** The manifest name. */
  name: string;
  /** What the browser calls it, when it shows a warning or a prompt for it. */
  title: string;
  /** What the extension uses it for. */
  use: string;
  /** Asked for when needed rather than at install. */
  optional: boolean;
}

/** Every permission, required first. `sidePanel` and `offscreen` exist in Chrome only. */
export const PERMISSION_USES: readonly PermissionUse[] = [
  {
    name: 'notifications',
    title: 'Display notifications',
    use: 'Shows one desktop notification when a tracked intent succeeds, fails, is refunded or takes longer than expected.',
    optional: false,
  },
  {
    name: 'alarms',
    title: 'Alarms',
    use: 'Wakes the tracker every 30 seconds so that tracking goes on after the browser stops the background worker.',
    optional: false,
  },
  {
    name: 'contextMenus',
    title: 'Context menu',
    use: 'Adds “Track intent” to the menu of selected text. It reads only the text you selected, when you choose the item.',
    optional: false,
  },
  {
    name: 'storage',
    title: 'Storage',
    use: 'Syncs your notification choices and watched addresses through your browser account, unless you turn syncing off below.',
    optional: false,
  },
  {
    name: 'sidePanel',
    title: 'Side panel (Chrome)',
    use: 'Shows the tracked intents in the browser’s side panel.',
    optional: false,
  },
  {
    name: 'offscreen',
    title: 'Offscreen document (Chrome)',
    use: 'Lets the “track from clipboard” shortcut read the clipboard: the background worker cannot.',
    optional: false,
  },
  {
    name: 'clipboardRead',
    title: 'Read data you copy and paste',
    use: 'Asked for the first time you press “Track from clipboard”: reads an intent ID you copied. Without it, paste the ID into the box.',
    optional: true,
  },
  {
    name: 'host',
    title: 'Access to the service’s website',
    use: 'Asked for when you save the settings: lets the extension call the service URL you entered, and no other site.',
    optional: true,
  },
];
