/**
 * The popup from the keyboard alone, and the side panel, in Chromium against the simulator: tabs move with the arrow
 * keys, Enter opens a receipt, Escape goes back to where the user was; the side panel page (`sidepanel.html`, opened
 * by URL as Chrome's side panel loads it) shows the same views at its own width and follows the tracker's records
 * while it stays open.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { POPUP_TABS, PopupPage } from '../../drivers/pages/popup';

const ctx = useConfiguredExtension({ stepMs: 800 });

/** What has the focus: its role or tag, and its accessible text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { role: el?.getAttribute('role') ?? el?.tagName.toLowerCase() ?? '', text: el?.textContent?.trim() ?? '' };
  });

/** Presses Tab until `want` holds for the focused element (at most `max` presses); fails otherwise. */
async function tabTo(page: Page, want: (f: { role: string; text: string }) => boolean, max = 25) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (want(await focused(page))) return;
  }
  throw new Error(`Tab never reached the element; focus is on ${JSON.stringify(await focused(page))}`);
}

describe('the popup from the keyboard', () => {
  it('moves between tabs with the arrow keys, opens a receipt with Enter and goes back with Escape', async () => {
    const first = ctx.sim.createIntent('success', 60_000);
    const second = ctx.sim.createIntent('failure', 60_000);
    const setup = await PopupPage.open(ctx.ext);
    await setup.track(first);
    await setup.track(second);
    await expect.poll(() => setup.row(second).count()).toBe(1);
    await setup.close();

    const popup = await PopupPage.open(ctx.ext);
    const page = popup.page as Page;
    await popup.row(first).waitFor();
    await tabTo(page, (f) => f.role === 'tab');
    expect(await focused(page)).toEqual({ role: 'tab', text: 'Tracked' });
    const selected = () => page.locator('[role="tab"][aria-selected="true"]').textContent();
    const expectTab = async (name: string) => {
      await expect.poll(selected).toBe(name);
      await expect.poll(() => focused(page)).toEqual({ role: 'tab', text: name });
    };
    await page.keyboard.press('ArrowRight');
    await expectTab('History');
    await popup.results('History');
    await page.keyboard.press('ArrowRight');
    await expectTab('Search');
    await page.keyboard.press('ArrowLeft');
    await expectTab('History');
    await page.keyboard.press('End');
    await expectTab(POPUP_TABS.at(-1)!);
    await page.keyboard.press('ArrowRight');
    await expectTab('Tracked');
    await page.keyboard.press('ArrowLeft');
    await expectTab('Routes');
    await page.keyboard.press('Home');
    await expectTab('Tracked');

    // Into the list: the first intent's row, then Enter.
    await tabTo(page, (f) => f.text.startsWith(`Open receipt of intent ${second}`) || f.text.startsWith(`Open receipt of intent ${first}`));
    const rowText = (await focused(page)).text;
    const openedId = rowText.includes(second) ? second : first;
    await page.keyboard.press('Enter');
    await page.locator('#receipt-title').waitFor();
    expect(await page.locator('.receipt .mono').first().textContent()).toContain(openedId);
    // The focus moves to Back as the receipt renders; polled, as every other wait on the page here.
    await expect.poll(() => focused(page)).toEqual({ role: 'button', text: '← Back' });
    expect(page.url()).toContain(`#intent=${openedId}`);

    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#receipt-title').count()).toBe(0);
    await expect.poll(async () => (await focused(page)).text).toContain(`Open receipt of intent ${openedId}`);
    expect(await selected()).toBe('Tracked');

    // Enter on Back works as well; Escape in the tabs leaves the popup as it is (the browser closes a real one).
    await page.keyboard.press('Enter');
    await page.locator('#receipt-title').waitFor();
    // Tab only once the focus is on Back.
    await expect.poll(async () => (await focused(page)).text).toBe('← Back');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toEqual({ role: 'button', text: '← Back' });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#receipt-title').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await popup.row(openedId).count()).toBe(1);
    await popup.close();
  });
});

describe('the side panel', () => {
  it('shows the popup’s views at the panel’s width and follows the tracker while it stays open', async () => {
    const panelPage = await ctx.ext.openPage('sidepanel.html', { width: 520, height: 900 });
    const panel = new PopupPage(panelPage);
    await panel.intentBox.waitFor();
    for (const tab of POPUP_TABS) expect(await panel.tab(tab).count()).toBe(1);
    expect(await panelPage.locator('main').evaluate((m) => m.getBoundingClientRect().width)).toBe(520);

    // Tracked from the popup (another page): the panel shows it without a reload, and its status as it changes.
    const intentId = ctx.sim.createIntent('success', 800);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    await expect.poll(() => panel.row(intentId).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => panel.statusChip(intentId).textContent(), { timeout: 30_000 }).toBe('Succeeded');

    // Removed in the popup: gone from the panel.
    await popup
      .row(intentId)
      .getByRole('button', { name: `Remove intent ${intentId}` })
      .click();
    await expect.poll(() => panel.row(intentId).count(), { timeout: 10_000 }).toBe(0);
    await popup.close();

    // The same receipt and lookup views: tracked in the panel, its receipt opened there, History loads.
    const other = ctx.sim.createIntent('failure', 800);
    await panel.track(other);
    await panel.openReceipt(other);
    await expect.poll(() => panelPage.locator('#receipt-title .chip').textContent(), { timeout: 30_000 }).toBe('Failed');
    await panelPage.keyboard.press('Escape');
    await panel.tab('History').click();
    await panel.results('History');
    await panelPage.close();
  });
});
