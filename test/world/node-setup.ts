/**
 * What the unit project's setup gives a test (vitest.config.ts), for the world campaign run by plain Node
 * (`npm run campaign`, test/world/campaign-main.ts): WXT's fakeBrowser as the global `browser`/`chrome` (what
 * `wxt/browser` reads outside a build), speaking English from `public/_locales` (test/i18n/fake-i18n.ts), and
 * fake-indexeddb's globals.
 */
import 'fake-indexeddb/auto';
import { fakeBrowser } from 'wxt/testing/fake-browser';

Object.assign(globalThis, { chrome: fakeBrowser, browser: fakeBrowser });
await import('../i18n/fake-i18n');
