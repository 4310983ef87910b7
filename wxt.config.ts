import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';

/**
 * Build configuration. Chrome MV3 is the primary target; `wxt build -b firefox --mv3` builds the Firefox MV3
 * variant (background becomes an event page).
 *
 * Permissions are the minimum the product needs:
 * - storage is IndexedDB (no permission needed);
 * - `alarms` for the ≥ 30 s watchdog that resumes WaitIntentReceipt loops;
 * - `notifications` for the desktop notifications;
 * - `clipboardRead` for "Track from clipboard" in the popup;
 * - `contextMenus` for "Track intent" on a selected intentId or transaction hash (no access to pages needed).
 * Host access is never requested up front: the service origin the user saves in the options page is requested
 * then, through `optional_host_permissions`.
 */
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  srcDir: '.',
  outDir: '.output',
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser }) => ({
    name: 'Svc Intent Tracker',
    description: 'Follow cross-chain intents from the toolbar and get a desktop notification when they succeed or fail.',
    permissions: ['alarms', 'notifications', 'clipboardRead', 'contextMenus'],
    omnibox: { keyword: 'intent' },
    optional_host_permissions: ['https://*/*', 'http://127.0.0.1/*', 'http://localhost/*'],
    action: { default_title: 'Svc Intent Tracker' },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            // Firefox 128: optional_host_permissions in MV3; the extension collects and transmits no user data.
            gecko: { id: 'intent-tracker@svc.example', strict_min_version: '128.0', data_collection_permissions: { required: ['none'] } },
          },
        }
      : {}),
  }),
});
