/**
 * The built manifests (`npm run build:all` first): what Chrome and Firefox ask the user at install. Chrome's warnings
 * per permission are those of its permissions list (developer.chrome.com/docs/extensions/reference/permissions-list);
 * a permission absent from the table below raises no warning there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Chrome's install warning of each permission that has one (from Chrome's permissions list). */
const CHROME_WARNINGS: Record<string, string> = {
  'accessibilityFeatures.modify': 'Change your accessibility settings',
  'accessibilityFeatures.read': 'Read your accessibility settings',
  bookmarks: 'Read and change your bookmarks',
  clipboardRead: 'Read data you copy and paste',
  clipboardWrite: 'Modify data you copy and paste',
  contentSettings:
    'Change your settings that control websites’ access to features such as cookies, JavaScript, plugins, geolocation, microphone, camera etc.',
  debugger: 'Access the page debugger backend; Read and change all your data on all websites',
  declarativeNetRequest: 'Block content on any page',
  desktopCapture: 'Capture content of your screen',
  downloads: 'Manage your downloads',
  'downloads.open': 'Open downloaded files',
  favicon: 'Read the icons of the websites you visit',
  geolocation: 'Detect your physical location',
  history: 'Read and change your browsing history on all your signed-in devices',
  identity: 'Know your email address',
  management: 'Manage your apps, extensions, and themes',
  nativeMessaging: 'Communicate with cooperating native applications',
  notifications: 'Display notifications',
  pageCapture: 'Read and change all your data on all websites',
  privacy: 'Change your privacy-related settings',
  proxy: 'Read and change all your data on all websites',
  readingList: 'Read and change entries in the reading list',
  sessions: 'Read your browsing history on all your signed-in devices',
  system: 'Read information about your computer',
  tabCapture: 'Read and change all your data on all websites',
  tabGroups: 'View and manage your tab groups',
  tabs: 'Read your browsing history',
  topSites: 'Read a list of your most frequently visited websites',
  ttsEngine: 'Read all text spoken using synthesized speech',
  webAuthenticationProxy: 'Read and change all your data on all websites',
  webNavigation: 'Read your browsing history',
};

interface Manifest {
  permissions?: string[];
  optional_permissions?: string[];
  host_permissions?: string[];
  optional_host_permissions?: string[];
  commands?: Record<string, { suggested_key?: { default?: string }; description?: string }>;
  side_panel?: { default_path: string };
  sidebar_action?: { default_panel: string };
  content_scripts?: unknown[];
  browser_specific_settings?: { gecko?: { strict_min_version?: string; data_collection_permissions?: { required: string[] } } };
  name?: string;
  description?: string;
  default_locale?: string;
  action?: { default_title?: string };
}

/** A manifest text as an English browser shows it: `__MSG_key__` looked up in the build's `_locales/en`. */
const inEnglish = (dir: string, text: string | undefined) => {
  const messages = JSON.parse(readFileSync(`.output/${dir}/_locales/en/messages.json`, 'utf8')) as Record<string, { message: string }>;
  return text?.replace(/__MSG_(\w+)__/g, (_, key: string) => messages[key]?.message ?? `missing ${key}`);
};

const read = (dir: string): Manifest => {
  const path = `.output/${dir}/manifest.json`;
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build:all first`);
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
};

/** The warnings Chrome shows at install for a manifest: its permissions' own, and any host access asked up front. */
const installWarnings = (m: Manifest) => [
  ...(m.permissions ?? []).flatMap((p) => (CHROME_WARNINGS[p] ? [CHROME_WARNINGS[p]] : [])),
  ...(m.host_permissions ?? []).map((h) => `Read and change your data on ${h}`),
  ...(m.content_scripts?.length ? ['Read and change your data on the sites the content scripts match'] : []),
];

describe('Chrome manifest', () => {
  const m = read('chrome-mv3');

  it('asks at install only to display notifications', () => {
    expect(installWarnings(m)).toEqual(['Display notifications']);
    expect([...(m.permissions ?? [])].sort()).toEqual(['alarms', 'contextMenus', 'notifications', 'offscreen', 'sidePanel', 'storage']);
    expect(m.host_permissions).toBeUndefined();
  });

  it('asks for the clipboard and the service origin only when needed', () => {
    expect(m.optional_permissions).toEqual(['clipboardRead']);
    expect(m.optional_host_permissions).toEqual(['https://*/*', 'http://127.0.0.1/*', 'http://localhost/*']);
  });

  it('uses what it declares: the side panel page and the offscreen document are built', () => {
    expect(m.side_panel?.default_path).toBe('sidepanel.html');
    expect(existsSync('.output/chrome-mv3/sidepanel.html')).toBe(true);
    expect(existsSync('.output/chrome-mv3/offscreen.html')).toBe(true);
  });

  it('has a shortcut for the popup and one for tracking the clipboard', () => {
    expect(m.commands?._execute_action?.suggested_key?.default).toBe('Alt+Shift+I');
    expect(m.commands?.['track-clipboard']?.suggested_key).toEqual({ default: 'Alt+Shift+V' });
    expect(inEnglish('chrome-mv3', m.commands?.['track-clipboard']?.description)).toBe('Track the intent ID on the clipboard');
  });

  it('takes its name, description and button title from _locales (English by default, Spanish and Chinese too)', () => {
    expect(m.default_locale).toBe('en');
    expect(inEnglish('chrome-mv3', m.name)).toBe('Svc Intent Tracker');
    expect(m.name).toBe('__MSG_extName__');
    expect(inEnglish('chrome-mv3', m.description)).toMatch(/^Follow cross-chain intents/);
    expect(m.action?.default_title).toBe('__MSG_extName__');
    for (const dir of ['chrome-mv3', 'firefox-mv3'])
      for (const locale of ['en', 'es', 'zh_CN']) expect(existsSync(`.output/${dir}/_locales/${locale}/messages.json`)).toBe(true);
  });
});

describe('Firefox manifest', () => {
  const m = read('firefox-mv3');

  it('has the same permissions without the Chrome-only ones, clipboard optional', () => {
    expect([...(m.permissions ?? [])].sort()).toEqual(['alarms', 'contextMenus', 'notifications', 'storage']);
    expect(m.optional_permissions).toEqual(['clipboardRead']);
    expect(m.host_permissions).toBeUndefined();
    expect(existsSync('.output/firefox-mv3/offscreen.html')).toBe(false);
  });

  it('has the sidebar, the shortcuts, and the Firefox version its keys need', () => {
    expect(m.sidebar_action?.default_panel).toBe('sidepanel.html');
    expect(Object.keys(m.commands ?? {}).sort()).toEqual(['_execute_action', 'track-clipboard']);
    // data_collection_permissions needs Firefox 140.
    expect(m.browser_specific_settings?.gecko?.strict_min_version).toBe('140.0');
    expect(m.browser_specific_settings?.gecko?.data_collection_permissions).toEqual({ required: ['none'] });
  });
});
