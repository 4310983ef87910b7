/**
 * ETA, progress and "where is my money" in the built extension in Chromium against the simulator over HTTP: the
 * countdown from the quote's estimate, the switch to "taking longer than usual" once it has passed, the timeline
 * with the total, and the refund explained with its transaction. Writes the README's two screenshots.
 */
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { PopupPage } from '../../drivers/pages/popup';
import { legHash } from '../../simulator/lifecycle';

const ctx = useConfiguredExtension({ stepMs: 1500 });

describe('ETA and progress', () => {
  it('counts the quote’s estimate down, then says the intent is taking longer than usual, then how long it took', async () => {
    // A slow intent: steps of 6 s, 24 s of execution, against a quote that said 10 s.
    const intentId = ctx.sim.createIntent('slow', 1500, undefined, { estimatedDuration: 10 });
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    const row = popup.row(intentId);
    await expect.poll(() => row.textContent(), { timeout: 20_000 }).toMatch(/≈ \d+ s left · estimate from the quote/);
    expect(await row.getByRole('progressbar').count()).toBe(1);
    await expect
      .poll(() => row.textContent(), { timeout: 20_000 })
      .toContain('taking longer than usual (expected ≈ 10 s) · estimate from the quote');
    await popup.openReceipt(intentId);
    await expect.poll(() => popup.page.locator('.eta').textContent()).toContain('taking longer than usual (expected ≈ 10 s)');
    await expect.poll(() => popup.page.locator('.timeline-total').textContent(), { timeout: 30_000 }).toBe('completed in 24 s');
    const steps = popup.page.getByRole('list', { name: 'Progress' }).getByRole('listitem');
    expect(await steps.count()).toBe(3);
    // Deposit mined one step (6 s) after the start, the bridge two steps later, the destination one more.
    expect(await steps.locator('.step-took').allTextContents()).toEqual(['6 s', '12 s', '6 s']);
    await popup.page.screenshot({ path: '.output/e2e/receipt-timeline.png', fullPage: true });
    await popup.close();
  });

  it('says where a refunded intent’s money went, with the refund transaction on the explorer', async () => {
    const intentId = ctx.sim.createIntent('refund', 1000);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    await expect.poll(() => popup.statusChip(intentId).textContent(), { timeout: 30_000 }).toBe('Refunded');
    await popup.openReceipt(intentId);
    const money = popup.page.getByRole('region', { name: 'Where is my money?' });
    await expect.poll(() => money.textContent()).toContain('Refunded: 1.50 ETH went back to 0x');
    expect(await money.textContent()).toContain('on Arbitrum One.');
    const refund = ctx.sim.intents().find((i) => i.intentId === intentId)!;
    expect(await money.getByRole('link').getAttribute('href')).toBe(`https://arbiscan.io/tx/${legHash(refund, 'refund')}`);
    await expect.poll(() => popup.page.locator('.timeline-total').textContent()).toMatch(/^refunded after \d+ s$/);
    await popup.page.screenshot({ path: '.output/e2e/receipt-refund.png', fullPage: true });
    await popup.close();
  });
});
