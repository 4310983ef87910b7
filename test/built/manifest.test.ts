/**
 * The built manifests (`npm run build:all` first): what Chrome and Firefox ask the user at install. Chrome's warnings
 * per permission are those of its permissions list (developer.chrome.com/docs/extensions/reference/permissions-list);
 * a permission absent from the table below raises no warning there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  minimum_chrome_version?: string;
  homepage_url?: string;
}

/**
 * Web and extension APIs with the Chrome version that brought them (MDN's compatibility data and Chrome's extension
 * reference), and how each shows in built code (method and property names survive minification). Newest first.
 */
const CHROME_APIS: Array<{ api: string; chrome: number; pattern: RegExp; in?: 'manifest' }> = [
  { api: 'Intl.DurationFormat', chrome: 129, pattern: /Intl\.DurationFormat/ },
  { api: 'Promise.try', chrome: 128, pattern: /Promise\.try\b/ },
  { api: 'action.openPopup()', chrome: 127, pattern: /\.openPopup\(/ },
  { api: 'URL.parse', chrome: 126, pattern: /URL\.parse\(/ },
  { api: 'Set methods (union, intersection …)', chrome: 122, pattern: /\.(union|intersection|symmetricDifference|isSubsetOf)\(/ },
  { api: 'Iterator helpers', chrome: 122, pattern: /Iterator\.from\(/ },
  { api: 'Array.fromAsync', chrome: 121, pattern: /Array\.fromAsync/ },
  { api: 'URL.canParse', chrome: 120, pattern: /URL\.canParse/ },
  { api: 'Promise.withResolvers', chrome: 119, pattern: /Promise\.withResolvers/ },
  { api: 'Object.groupBy / Map.groupBy', chrome: 117, pattern: /(Object|Map)\.groupBy/ },
  { api: 'AbortSignal.any', chrome: 116, pattern: /AbortSignal\.any\(/ },
  { api: 'side panel (manifest side_panel)', chrome: 114, pattern: /"side_panel"/, in: 'manifest' },
  { api: 'Array.prototype.toSorted / toReversed / with', chrome: 110, pattern: /\.(toSorted|toReversed|toSpliced)\(/ },
  { api: 'offscreen documents', chrome: 109, pattern: /\.createDocument\(/ },
  { api: 'storage.session', chrome: 102, pattern: /storage\.session/ },
  { api: 'structuredClone', chrome: 98, pattern: /structuredClone\(/ },
  { api: 'Array.prototype.findLast', chrome: 97, pattern: /\.findLast(Index)?\(/ },
  { api: 'Object.hasOwn', chrome: 93, pattern: /Object\.hasOwn\(/ },
];

/** Every JavaScript file of a build. */
const scriptsOf = (dir: string) =>
  readdirSync(`.output/${dir}`, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));

/** The APIs of the table that a build uses. */
const apisUsed = (dir: string) => {
  const code = scriptsOf(dir).join('\n');
  const manifest = readFileSync(`.output/${dir}/manifest.json`, 'utf8');
  return CHROME_APIS.filter((a) => a.pattern.test(a.in === 'manifest' ? manifest : code));
};

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

  it('names the oldest Chrome it runs on: the version of the newest API the built code uses', () => {
    const used = apisUsed('chrome-mv3');
    expect(used.map((a) => a.api)).toContain('AbortSignal.any'); // the grep finds what lib/api/http.ts uses
    const newest = used.reduce((a, b) => (b.chrome > a.chrome ? b : a));
    expect({ minimum_chrome_version: m.minimum_chrome_version, newest: newest.api }).toEqual({
      minimum_chrome_version: String(newest.chrome),
      newest: newest.api,
    });
  });

  it('links to the project’s page, which the privacy policy and package.json name too', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      homepage: string;
      repository: { url: string };
      bugs: { url: string };
    };
    const home = pkg.homepage.replace(/#.*$/, '');
    expect(home).toMatch(/^https:\/\/github\.com\/[\w-]+\/[\w-]+$/);
    expect(m.homepage_url).toBe(home);
    expect(read('firefox-mv3').homepage_url).toBe(home);
    expect(pkg.repository.url).toBe(`git+${home}.git`);
    expect(pkg.bugs.url).toBe(`${home}/issues`);
    const privacy = readFileSync('docs/PRIVACY.md', 'utf8');
    expect(privacy).toContain(`<${home}/issues>`);
    expect(privacy).toContain(`<${home}>`);
  });

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
