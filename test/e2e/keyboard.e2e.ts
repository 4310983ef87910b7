/**
 * What needs a real keyboard, in a Chromium with a window on a virtual X display (Xvfb) and keys pressed with
 * xdotool, against the simulator: the optional clipboard permission asked for on the first "Track from clipboard"
 * (the browser's own prompt, answered by keyboard), the clipboard suggestion once it is allowed, both shortcuts —
 * Alt+Shift+V tracks what the clipboard holds through the offscreen document, Alt+Shift+I opens the popup — and the
 * browser's own context menu on a selected transaction hash, its "Track intent" chosen by keyboard.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { type NotificationCall, notificationCalls } from '../../drivers/fixtures/notifications';
import { readTracked } from '../../drivers/fixtures/storage';
import { startVirtualDisplay, type VirtualDisplay } from '../../drivers/fixtures/xvfb';
import { PopupPage } from '../../drivers/pages/popup';
import { intentWithDestinationHash } from '../../simulator/find';

let screen: VirtualDisplay;
beforeAll(async () => {
  screen = await startVirtualDisplay();
});
afterAll(() => screen?.close());
const ctx = useConfiguredExtension({ stepMs: 1500 }, () => screen.display);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;
const clipboardAllowed = (popup: PopupPage<Page>) =>
  popup.page.evaluate(() => chrome.permissions.contains({ permissions: ['clipboardRead'] }));
/** The information notifications (`svc-info:…`) the extension asked the browser to show after the call numbered `since`. */
const infoSince = async (since: number) =>
  (await notificationCalls(ctx.ext)).filter((c) => c.seq > since && c.op === 'create' && c.id.startsWith('svc-info:'));
const lastSeq = async () => Math.max(0, ...(await notificationCalls(ctx.ext)).map((c) => c.seq));
const words = ({ title, message, buttons, outcome }: NotificationCall) => ({ title, message, buttons, outcome });
/** Puts text on the system clipboard from a focused extension page. */
const copy = async (popup: PopupPage<Page>, text: string) => {
  await popup.page.bringToFront();
  await popup.page.evaluate((t) => navigator.clipboard.writeText(t), text);
};

describe('clipboard permission, shortcuts (real keyboard)', () => {
  it('installs without the clipboard permission; the paste box works without it', async () => {
    const intentId = ctx.sim.createIntent('success', 60_000);
    const popup = await PopupPage.open(ctx.ext);
    expect(await clipboardAllowed(popup)).toBe(false);
    await popup.track(intentId);
    await expect.poll(() => popup.row(intentId).count()).toBe(1);
    await popup.close();
  });

  it('asks for the clipboard on the first "Track from clipboard", then tracks the copied intent', async () => {
    const intentId = ctx.sim.createIntent('success', 60_000);
    const popup = await PopupPage.open(ctx.ext);
    await copy(popup, `intent: ${intentId}\n`);
    await popup.trackFromClipboard();
    // Chrome's prompt ("Read data you copy and paste"): Tab moves to Allow, Return presses it.
    await sleep(1500);
    expect(await popup.row(intentId).count()).toBe(0);
    screen.press('Tab', 'Return');
    await expect.poll(() => popup.row(intentId).count(), { timeout: 10_000 }).toBe(1);
    expect(await clipboardAllowed(popup)).toBe(true);
    await popup.close();
  });

  it('says so when the clipboard holds no intentId, and tracks nothing', async () => {
    const popup = await PopupPage.open(ctx.ext);
    await copy(popup, 'just some words');
    const before = await popup.page.locator('li[data-intent-id]').count();
    await popup.trackFromClipboard();
    await expect.poll(() => popup.message().textContent()).toContain('The clipboard holds no intent ID');
    expect(await popup.page.locator('li[data-intent-id]').count()).toBe(before);
    await popup.close();
  });

  it('once allowed, offers an untracked intentId found on the clipboard, and tracks it only on the click', async () => {
    const intentId = ctx.sim.createIntent('success', 60_000);
    const first = await PopupPage.open(ctx.ext);
    await copy(first, `see ${intentId}`);
    await first.close();
    const popup = await PopupPage.open(ctx.ext);
    await popup.page.bringToFront();
    const suggestion = popup.page.getByRole('group', { name: 'Clipboard suggestion' });
    await expect.poll(() => suggestion.textContent()).toContain(short(intentId));
    expect(await popup.row(intentId).count()).toBe(0);
    await suggestion.getByRole('button', { name: 'Track it' }).click();
    await expect.poll(() => popup.row(intentId).count()).toBe(1);
    await popup.close();
  });

  it('Alt+Shift+V tracks the intentId on the clipboard from any tab, and says so', async () => {
    const intentId = ctx.sim.createIntent('success', 60_000);
    const popup = await PopupPage.open(ctx.ext);
    await copy(popup, `bridged: ${intentId}`);
    await popup.close();
    const since = await lastSeq();
    const tab = await ctx.ext.context.newPage();
    await tab.goto('data:text/html,<title>some page</title><p>working</p>');
    await tab.bringToFront();
    screen.press('alt+shift+v');
    await expect.poll(async () => (await readTracked(ctx.ext, intentId))?.intentId, { timeout: 15_000 }).toBe(intentId);
    expect((await readTracked(ctx.ext, intentId))?.source).toBe('menu');
    // The information notification follows the tracking (through the outbox once the intent is recorded): one,
    // naming this intent, as the browser was asked to show it.
    await expect.poll(async () => (await infoSince(since)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await sleep(1000);
    expect((await infoSince(since)).map(words)).toEqual([
      { title: 'Svc Intent Tracker', message: `Tracking intent ${short(intentId)}.`, buttons: [], outcome: 'ok' },
    ]);
    await tab.close();
  });

  it('"Track intent" in the context menu of a selected transaction hash tracks its intent, and says so', async () => {
    const { intentId, hash } = intentWithDestinationHash(ctx.sim);
    const since = await lastSeq();
    const tab = await ctx.ext.context.newPage();
    await tab.goto(`data:text/html,<title>explorer</title><p>Bridged in tx <b id="tx">${hash}</b> yesterday</p>`);
    await tab.bringToFront();
    await tab.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('tx')!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    });
    // A right click on the selection opens Chromium's own context menu (a window of the browser, out of the page's
    // reach); the extension's item sits just above the last one (Inspect): Up, Up, Return choose it as a user would.
    const box = (await tab.locator('#tx').boundingBox())!;
    await tab.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
    await sleep(1000);
    expect(await tab.evaluate(() => getSelection()?.toString())).toBe(hash);
    screen.press('Up', 'Up', 'Return');
    await expect.poll(async () => (await readTracked(ctx.ext, intentId))?.source, { timeout: 15_000 }).toBe('menu');
    await expect.poll(async () => (await infoSince(since)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await sleep(1000);
    expect((await infoSince(since)).map(words)).toEqual([
      {
        title: 'Svc Intent Tracker',
        message: `Tracking intent ${short(intentId)} of transaction ${short(hash)}.`,
        buttons: [],
        outcome: 'ok',
      },
    ]);
    await tab.close();
  });

  it('Alt+Shift+I opens the popup', async () => {
    const tab = await ctx.ext.context.newPage();
    await tab.goto('data:text/html,<title>another page</title><p>working</p>');
    await tab.bringToFront();
    // The toolbar popup is no tab: the browser lists it among the extension's contexts (runtime.getContexts).
    const popups = async () =>
      (await ctx.ext.worker()).evaluate(async () =>
        (await chrome.runtime.getContexts({ contextTypes: ['POPUP'] })).map((c) => c.documentUrl?.replace(/#.*/, '') ?? ''),
      );
    expect(await popups()).toEqual([]);
    screen.press('alt+shift+i');
    await expect.poll(popups, { timeout: 10_000 }).toEqual([`chrome-extension://${ctx.ext.extensionId}/popup.html`]);
    await tab.close();
  });
});
