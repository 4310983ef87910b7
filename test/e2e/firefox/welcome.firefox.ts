/**
 * The first minutes of a new user in Firefox ESR, from what the pages show only: installing the add-on opens the
 * welcome page by itself; it explains the add-on, connects it to the service (the simulator over HTTP) through
 * Firefox's permission prompt, tests the connection, tracks a first intent from its paste box, and names the
 * shortcuts as Firefox has them bound. Same page objects as the Chromium suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN, type FirefoxExtension } from '../../../drivers/fixtures/firefox-extension';
import { reportFailures } from '../../../drivers/fixtures/launch';
import { closeFirefox, launchFirefox } from '../../../drivers/fixtures/launch-firefox';
import { Owned } from '../../../drivers/fixtures/owned';
import { START_TIMEOUT_MS } from '../../../drivers/fixtures/report';
import { PuppeteerDriver } from '../../../drivers/pages/driver';
import { PopupPage } from '../../../drivers/pages/popup';
import { WelcomePage } from '../../../drivers/pages/welcome';
import { type Simulator, startSimulator } from '../../../simulator/server';

const ctx = {} as { sim: Simulator; ext: FirefoxExtension };
const owned = new Owned();
beforeAll(async () => {
  ctx.sim = await owned.own('the simulator', await startSimulator({ stepMs: 1000 }), (sim) => sim.close());
  ctx.ext = await owned.own('Firefox', await launchFirefox(), closeFirefox);
}, START_TIMEOUT_MS);
reportFailures(() => ctx.sim);
afterAll(() => owned.closeAll());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;

/** The tab the add-on opened by itself at `path` (the test does not open it). */
async function openedByExtension(path: string): Promise<PuppeteerDriver> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    for (const p of await ctx.ext.browser.pages()) {
      const href = await p.evaluate(() => location.href).catch(() => '');
      if (href === `${EXTENSION_ORIGIN}/${path}`) {
        await p.waitForFunction(() => document.readyState === 'complete' && document.body.childElementCount > 0);
        return new PuppeteerDriver(p);
      }
    }
    await sleep(100);
  }
  throw new Error(`the add-on opened no ${path}`);
}

describe('install → welcome → configured → first intent tracked (Firefox)', () => {
  it('opens the welcome page on install, and leads from it alone to a tracked intent', async () => {
    const welcome = new WelcomePage(await openedByExtension('welcome.html'));
    await welcome.heading().waitFor();
    expect(await welcome.picture().count()).toBe(1);
    expect(await welcome.permissionNote().textContent()).toContain('Choose Allow');

    // Firefox asks, as the page said it would.
    expect(await welcome.connect(ctx.sim.url, ctx.sim.accessKey)).toBe(`Saved. Allow access to ${ctx.sim.url} in the browser's prompt.`);
    expect(await ctx.ext.answerPermissionPrompt(true)).toContain('127.0.0.1');
    expect(await welcome.saveOutcome()).toBe(`Saved. The extension may reach ${ctx.sim.url}.`);
    expect(await welcome.testConnection()).toMatch(/^Connected/);

    const intentId = ctx.sim.createIntent('success');
    expect(await welcome.trackFirst(intentId)).toBe(
      `Tracking intent ${short(intentId)}. The toolbar button lists it, and you will be told when it ends.`,
    );
    expect(await welcome.shortcuts()).toEqual([
      ['Alt+Shift+I', 'Open the tracked list (the toolbar button)'],
      ['Alt+Shift+V', 'Track the intent ID on the clipboard'],
    ]);

    const popup = await PopupPage.open(ctx.ext);
    await expect.poll(() => popup.row(intentId).count()).toBe(1);
    await popup.close();
  });
});
