/**
 * The first minutes of a new user in Chromium, from what the pages show only: installing the extension opens the
 * welcome page by itself; it explains the extension, connects it to the service (the simulator over HTTP), tests the
 * connection, tracks a first intent from its paste box, and names the shortcuts as Chromium has them bound.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeExtension, type ExtensionBrowser, launchExtension, reportFailures, tempProfile } from '../../drivers/fixtures/launch';
import { Owned } from '../../drivers/fixtures/owned';
import { START_TIMEOUT_MS } from '../../drivers/fixtures/report';
import { PopupPage } from '../../drivers/pages/popup';
import { WelcomePage } from '../../drivers/pages/welcome';
import { type Simulator, startSimulator } from '../../simulator/server';

const ctx = {} as { sim: Simulator; ext: ExtensionBrowser };
const owned = new Owned();
beforeAll(async () => {
  ctx.sim = await owned.own('the simulator', await startSimulator({ stepMs: 1000 }), (sim) => sim.close());
  ctx.ext = await owned.own('Chromium', await launchExtension(tempProfile()), closeExtension);
}, START_TIMEOUT_MS);
reportFailures(() => ctx.sim);
afterAll(() => owned.closeAll());

const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;

/** The tab the extension opened by itself at `path` (it is not opened by the test). */
async function openedByExtension(path: string): Promise<Page> {
  const url = `chrome-extension://${ctx.ext.extensionId}/${path}`;
  await expect.poll(() => ctx.ext.context.pages().some((p) => p.url() === url), { timeout: 15_000 }).toBe(true);
  return ctx.ext.context.pages().find((p) => p.url() === url)!;
}

describe('install → welcome → configured → first intent tracked (Chromium)', () => {
  it('opens the welcome page on install, and leads from it alone to a tracked intent', async () => {
    const welcome = new WelcomePage(await openedByExtension('welcome.html'));
    await welcome.heading().waitFor();
    expect(await welcome.picture().count()).toBe(1);
    // The permission prompt is explained before anything asks for it.
    expect(await welcome.permissionNote().textContent()).toContain('Choose Allow');

    // Headless Chromium leaves its prompt unanswered (as in the options suites): the settings are saved at once, and the
    // simulator answers cross-origin calls. Firefox's prompt is answered in welcome.firefox.ts.
    expect(await welcome.connect(ctx.sim.url, ctx.sim.accessKey)).toMatch(
      new RegExp(`^Saved\\. (The extension may reach|Allow access to) ${ctx.sim.url.replace(/\./g, '\\.')}`),
    );
    expect(await welcome.testConnection()).toMatch(/^Connected/);

    const intentId = ctx.sim.createIntent('success');
    expect(await welcome.trackFirst(intentId)).toBe(
      `Tracking intent ${short(intentId)}. The toolbar button lists it, and you will be told when it ends.`,
    );
    expect(await welcome.shortcuts()).toEqual([
      ['Alt+Shift+I', 'Open the tracked list (the toolbar button)'],
      ['Alt+Shift+V', 'Track the intent ID on the clipboard'],
    ]);

    // The toolbar button's list shows it.
    const popup = await PopupPage.open(ctx.ext);
    await expect.poll(() => popup.row(intentId).count()).toBe(1);
    await popup.close();
  });
});
