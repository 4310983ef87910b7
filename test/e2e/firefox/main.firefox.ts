/**
 * The product's main job in Firefox ESR (puppeteer-core over WebDriver BiDi) against the simulator over HTTP:
 * configure through the options page and Firefox's permission prompt, track from the popup, get exactly one
 * notification (Firefox's basic form) for SUCCEEDED, FAILED with its reason and REFUNDED, read the receipt's legs,
 * and hear plainly about a wrong key and an unknown intentId. Same page objects as the Chromium suite.
 */
import { describe, expect, it } from 'vitest';
import { useConfiguredFirefox } from '../../../drivers/fixtures/launch-firefox';
import { alertsFor, waitForAlert } from '../../../drivers/fixtures/notifications-firefox';
import { readTrackedFirefox } from '../../../drivers/fixtures/storage';
import { OptionsPage } from '../../../drivers/pages/options';
import { overflowingElements, POPUP_TABS, PopupPage, showEveryTab } from '../../../drivers/pages/popup';

const ctx = useConfiguredFirefox({ stepMs: 1000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;

/** Tracks an intent from the popup as a user does, and closes the popup once its row shows. */
async function trackFromPopup(intentId: string): Promise<void> {
  const popup = await PopupPage.open(ctx.ext);
  await popup.track(intentId);
  await expect.poll(() => popup.row(intentId).count()).toBe(1);
  await popup.close();
}

/** The intent's record as the add-on stored it. */
const record = (intentId: string) => readTrackedFirefox(ctx.ext, intentId);

/** Waits for the intent's notification, then a little longer, and returns every notification it got. */
async function notifiedOnce(intentId: string) {
  await waitForAlert(ctx.ext, intentId, 30_000);
  await expect.poll(async () => (await record(intentId))?.notification, { timeout: 5_000 }).toBe('shown');
  await sleep(1500);
  return alertsFor(ctx.ext, intentId);
}

describe('the main job in Firefox', () => {
  it("asks for the service origin in Firefox's prompt on Save, and Test connection tells OK, a wrong key and no service apart", async () => {
    const options = await OptionsPage.open(ctx.ext);
    // Another origin of the same service: Firefox asks for it; the old one is given up.
    const localhost = ctx.sim.url.replace('127.0.0.1', 'localhost');
    expect(await options.save(localhost, ctx.sim.accessKey)).toBe(`Saved. Allow access to ${localhost} in the browser's prompt.`);
    expect(await ctx.ext.answerPermissionPrompt(true)).toContain(new URL(localhost).hostname);
    expect(await options.saveOutcome()).toBe(`Saved. The extension may reach ${localhost}.`);
    type Permissions = { permissions: { getAll(): Promise<{ origins: string[] }> } };
    const origins = () =>
      options.page.raw.evaluate(
        async () => (await (globalThis as unknown as { browser: Permissions }).browser.permissions.getAll()).origins,
      );
    expect(await origins()).toEqual([`http://localhost/*`]);

    expect(await options.save(ctx.sim.url, ctx.sim.accessKey)).toContain("in the browser's prompt");
    await ctx.ext.answerPermissionPrompt(true);
    expect(await options.saveOutcome()).toBe(`Saved. The extension may reach ${ctx.sim.url}.`);
    expect(await origins()).toEqual([`http://127.0.0.1/*`]);

    expect(await options.testConnection()).toMatch(/^Connected/);
    await options.fill(ctx.sim.url, 'wrong-key');
    expect(await options.testConnection()).toContain('rejected the access key (AccessKeyNotFound, 1101)');
    await options.fill(ctx.sim.url, ctx.sim.restrictedAccessKey);
    expect(await options.testConnection()).toContain('not allowed from this extension');
    await options.fill('http://127.0.0.1:1', ctx.sim.accessKey);
    expect(await options.testConnection()).toMatch(/^Not reachable/);
    await options.page.close();
  });

  it('tracks a typed intentId, notifies once on SUCCEEDED in the basic form, and shows every leg', async () => {
    const intentId = ctx.sim.createIntent('success');
    await trackFromPopup(intentId);
    const alerts = await notifiedOnce(intentId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      title: `Intent succeeded · ${short(intentId)}`,
      text: 'Arbitrum One → Base: 250.00 USDC → 249.10 USDC',
      actions: 0,
    });

    const popup = await PopupPage.open(ctx.ext);
    await expect.poll(() => popup.statusChip(intentId).textContent()).toBe('Succeeded');
    await popup.openReceipt(intentId);
    for (const kind of ['deposit', 'origin', 'destination'] as const) {
      await expect.poll(() => popup.leg(kind).locator('.chip').textContent()).toBe('Succeeded');
      expect(await popup.leg(kind).getByRole('link').getAttribute('href')).toMatch(
        /^https:\/\/(arbiscan\.io|basescan\.org)\/tx\/0x[0-9a-f]{64}$/,
      );
      expect(await popup.leg(kind).textContent()).toContain('Mined');
    }
    expect(await popup.leg('refund').count()).toBe(0);
    await popup.page.raw.screenshot({ path: '.output/e2e/firefox-receipt.png', fullPage: true });
    await popup.close();
  });

  it('notifies once on FAILED with the reason, shown on the origin leg', async () => {
    const intentId = ctx.sim.createIntent('failure');
    await trackFromPopup(intentId);
    const alerts = await notifiedOnce(intentId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      title: `Intent failed · ${short(intentId)}`,
      text: 'Arbitrum One → Optimism: 1.50 ETH → 1.49625 WETH\nReason: execution reverted: insufficient output amount (slippage 0.50% exceeded)',
    });
    const view = await PopupPage.open(ctx.ext, `#intent=${intentId}`);
    await expect.poll(() => view.page.locator('#receipt-title .chip').textContent()).toBe('Failed');
    await expect.poll(() => view.leg('origin').locator('.chip').textContent()).toBe('Failed');
    expect(await view.leg('origin').textContent()).toContain('insufficient output amount');
    await view.close();
  });

  it('notifies once on REFUNDED, and the receipt shows the refund leg', async () => {
    const intentId = ctx.sim.createIntent('refund');
    await trackFromPopup(intentId);
    const alerts = await notifiedOnce(intentId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.title).toBe(`Intent refunded · ${short(intentId)}`);
    const view = await PopupPage.open(ctx.ext, `#intent=${intentId}`);
    await expect.poll(() => view.page.locator('#receipt-title .chip').textContent()).toBe('Refunded');
    await expect.poll(() => view.leg('refund').locator('.chip').textContent()).toBe('Succeeded');
    expect(await view.leg('refund').getByRole('link').count()).toBe(1);
    await view.close();
  });

  it('says an unknown intentId is not known to the service yet, and keeps it', async () => {
    const unknown = `0x${'e'.repeat(64)}`;
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(unknown);
    await expect.poll(() => popup.row(unknown).textContent(), { timeout: 15_000 }).toContain('Not known to the service yet');
    await popup.close();
  });

  it('the popup fits at its width: every tab visible, no element wider than its box or scrolling sideways', async () => {
    const popup = await PopupPage.open(ctx.ext);
    const problems: Record<string, string[]> = {};
    await showEveryTab(popup, async (tab) => {
      const found = await popup.page.raw.evaluate(overflowingElements);
      if (found.length > 0) problems[tab] = found;
      await popup.page.raw.screenshot({ path: `.output/e2e/firefox-popup-${tab.toLowerCase().replace(' ', '-')}.png` });
    });
    expect(problems).toEqual({});
    expect(await popup.page.locator('[role="tab"]').count()).toBe(POPUP_TABS.length);
    await popup.close();
  });
  it('the sidebar page follows the tracker; storage.sync holds the notification choices but never the key', async () => {
    const panel = new PopupPage(await ctx.ext.openPage('sidepanel.html', { width: 420, height: 800 }));
    await panel.intentBox.waitFor();
    const intentId = ctx.sim.createIntent('success', 800);
    await trackFromPopup(intentId);
    await expect.poll(() => panel.row(intentId).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => panel.statusChip(intentId).textContent(), { timeout: 30_000 }).toBe('Succeeded');
    type Sync = { storage: { sync: { get(k: null): Promise<Record<string, unknown>> } } };
    const synced = await panel.page.raw.evaluate(async () =>
      JSON.stringify(await (globalThis as unknown as { browser: Sync }).browser.storage.sync.get(null)),
    );
    expect(JSON.parse(synced)).toHaveProperty('settings.notify');
    expect(synced).not.toContain(ctx.sim.accessKey);
    expect(synced).not.toContain(new URL(ctx.sim.url).host);
    await panel.close();
  });

  it('says plainly when the service rejects the key', async () => {
    const options = await OptionsPage.open(ctx.ext);
    // Same origin: already allowed, no prompt.
    expect(await options.save(ctx.sim.url, 'sim_wrong_key')).toBe(`Saved. The extension may reach ${ctx.sim.url}.`);
    await options.page.close();
    const intentId = ctx.sim.createIntent('success', 60_000);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    await expect
      .poll(() => popup.page.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain('The service rejected the access key. Tracking is paused until the key is updated in the settings.');
    await popup.close();
  });
});
