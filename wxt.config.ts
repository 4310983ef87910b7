import { readFileSync } from 'node:fs';
import preact from '@preact/preset-vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'wxt';
import { COMMAND_TRACK_CLIPBOARD } from './lib/commands';

/**
 * Compiles Preact's `dangerouslySetInnerHTML` path out of the bundle: its `innerHTML` assignment is the one warning
 * web-ext lint gave (UNSAFE_VAR_ASSIGNMENT), and our code never uses it (Biome forbids it). Using it now throws.
 * Fails the build when Preact's code no longer has exactly that one assignment, so an upgrade is looked at.
 */
function preactWithoutInnerHtml(): Plugin {
  return {
    name: 'svc:preact-without-inner-html',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]preact[\\/]dist[\\/]preact\.mjs$/.test(id)) return undefined;
      const assignment = /([\w$]+)\.innerHTML=([\w$]+)\.__html/g;
      const found = code.match(assignment) ?? [];
      if (found.length !== 1) throw new Error(`preact.mjs: expected one innerHTML assignment, found ${found.length}`);
      return { code: code.replace(assignment, '(()=>{throw Error("dangerouslySetInnerHTML is not supported")})()'), map: null };
    },
  };
}

/** The project's public page (package.json `homepage`, its repository): the store's and the manifest's link. */
const HOMEPAGE = (JSON.parse(readFileSync('package.json', 'utf8')) as { homepage: string }).homepage.replace(/#.*$/, '');

/**
 * The oldest Chrome the extension runs on: the newest web or extension API it uses decides. Today `AbortSignal.any`
 * (Chrome 116, lib/api/http.ts); the side panel (114) and offscreen documents (109) are older.
 * `test/built/manifest.test.ts` greps the built code for each API of its table and fails when this is not the newest.
 */
const MINIMUM_CHROME_VERSION = '116';

/**
 * Build configuration. Chrome MV3 is the primary target; `wxt build -b firefox --mv3` builds the Firefox MV3
 * variant (background becomes an event page).
 *
 * Required permissions raise one install warning only, "Display notifications" (`lib/permissions.ts` lists what each
 * is for; `test/manifest.test.ts` checks the built manifests):
 * - `alarms` for the ≥ 30 s watchdog that resumes WaitIntentReceipt loops;
 * - `notifications` for the desktop notifications;
 * - `contextMenus` for "Track intent" on a selected intentId or transaction hash (no access to pages needed);
 * - `storage` for `storage.sync` (settings that follow the user); tracked intents and the key stay in IndexedDB;
 * - Chrome only: `offscreen` (the keyboard command reads the clipboard in an offscreen document) and `sidePanel`
 *   (WXT adds it for the side panel entrypoint).
 * `clipboardRead` is optional, asked for on the first "Track from clipboard". Host access is never requested up
 * front: the service origin the user saves in the options page is requested then, through
 * `optional_host_permissions`.
 */
export default defineConfig({
  modules: ['@wxt-dev/webextension-polyfill'],
  srcDir: '.',
  outDir: '.output',
  // SVC_SOURCEMAP=1 adds sourcemaps, for scripts/bundle-parts.ts (where the bundle's bytes go); SVC_MINIFY=0 leaves the
  // code readable, with its source files named, for scripts/bench-alloc-summary.ts. Never in a release.
  vite: () => ({
    plugins: [preactWithoutInnerHtml(), preact()],
    build: { ...(process.env.SVC_SOURCEMAP ? { sourcemap: true } : {}), ...(process.env.SVC_MINIFY === '0' ? { minify: false } : {}) },
  }),
  // The sources zip for Firefox's review: what builds the add-on, without screenshots and benchmark figures.
  zip: { excludeSources: ['docs/**/*.png', 'bench/**'] },
  manifest: ({ browser }) => ({
    // Names and texts come from public/_locales (English is the default; lib/i18n.ts).
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    homepage_url: HOMEPAGE,
    permissions: ['alarms', 'notifications', 'contextMenus', 'storage', ...(browser === 'firefox' ? [] : ['offscreen'])],
    optional_permissions: ['clipboardRead'],
    omnibox: { keyword: 'intent' },
    optional_host_permissions: ['https://*/*', 'http://127.0.0.1/*', 'http://localhost/*'],
    action: { default_title: '__MSG_extName__' },
    commands: {
      _execute_action: { suggested_key: { default: 'Alt+Shift+I' } },
      [COMMAND_TRACK_CLIPBOARD]: { suggested_key: { default: 'Alt+Shift+V' }, description: '__MSG_commandTrackClipboard__' },
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            // The newest key used decides: data_collection_permissions needs Firefox 140 (142 on Android); the
            // extension collects and transmits no user data.
            gecko: { id: 'intent-tracker@svc.example', strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : { minimum_chrome_version: MINIMUM_CHROME_VERSION }),
  }),
});
