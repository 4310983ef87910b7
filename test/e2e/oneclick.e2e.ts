/**
 * One-click tracking and housekeeping in Chromium against the simulator: a watched address's new intent auto-tracked
 * and notified, the badge following the counts, and the CSV export. (The context menu's "Track intent" on a selected
 * transaction hash needs the browser's own menu, on a display: `keyboard.e2e.ts`.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { createsFor, waitForNotification } from '../../drivers/fixtures/notifications';
import { OptionsPage } from '../../drivers/pages/options';
import { PopupPage } from '../../drivers/pages/popup';

const ctx = useConfiguredExtension({ stepMs: 1500 });

/** The badge background as [r, g, b, a]; the extension uses red (180, 35, 24) for unseen failures. */
const badgeColor = async () =>
  (await ctx.ext.worker()).evaluate(() =>
    (chrome as unknown as { action: { getBadgeBackgroundColor(d: object): Promise<number[]> } }).action.getBadgeBackgroundColor({}),
  );
const RED = [180, 35, 24, 255];
const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;

const badge = async () =>
  (await ctx.ext.worker()).evaluate(() =>
    (chrome as unknown as { action: { getBadgeText(d: object): Promise<string> } }).action.getBadgeText({}),
  );

describe('one-click tracking and housekeeping', () => {
  it("auto-tracks a watched address's new intent and notifies when it ends; the badge follows", async () => {
    const owner = `0x${'c3'.repeat(20)}`;
    const intentId = ctx.sim.createIntent('success', 1500, owner);
    const options = await OptionsPage.open(ctx.ext);
    await options.page.getByLabel('My addresses (optional)').fill(owner);
    await options.page.getByRole('checkbox', { name: owner }).check();
    await options.save(ctx.sim.url, ctx.sim.accessKey);
    await options.page.close();
    // The check after the save reads the address's history only once the service's time has settled (up to four asks,
    // lib/worker/watched.ts `settledTime`); on a loaded machine it may not, and that check reads nothing. The next
    // comes with a watchdog alarm (every 30 s) once a minute has passed: up to 90 s.
    await expect
      .poll(
        async () =>
          await PopupPage.open(ctx.ext).then(async (p) => {
            const n = await p.row(intentId).count();
            await p.close();
            return n;
          }),
        { timeout: 95_000 },
      )
      .toBe(1);
    const [told] = await waitForNotification(ctx.ext, intentId, { timeoutMs: 30_000 });
    expect(told).toMatchObject({ title: `Intent succeeded · ${short(intentId)}`, outcome: expect.stringMatching(/ok|pending/) });

    // Badge: a failing intent shows a red count until the popup is opened.
    const failing = ctx.sim.createIntent('failure', 500);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(failing);
    await popup.close();
    const [failed] = await waitForNotification(ctx.ext, failing, { timeoutMs: 20_000 });
    expect(failed).toMatchObject({ title: `Intent failed · ${short(failing)}` });
    await expect.poll(badge, { timeout: 5_000 }).toBe('1');
    await expect.poll(badgeColor, { timeout: 5_000 }).toEqual(RED);
    const seen = await PopupPage.open(ctx.ext);
    // Seen: the red failure count gives way to the blue count of intents in flight (or nothing).
    await expect.poll(badgeColor, { timeout: 5_000 }).not.toEqual(RED);
    await seen.close();
    // Each of the two told once, in all this time.
    expect(await createsFor(ctx.ext, intentId)).toHaveLength(1);
    expect(await createsFor(ctx.ext, failing)).toHaveLength(1);
  });

  it('exports the tracked intents as CSV with raw and display amounts', async () => {
    const popup = await PopupPage.open(ctx.ext);
    await popup.page.locator('li[data-intent-id]').first().waitFor();
    const rows = await popup.page.locator('li[data-intent-id]').count();
    const [download] = await Promise.all([
      popup.page.waitForEvent('download'),
      popup.page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('svc-intents.csv');
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toMatch(/^intentId,status,tracking,originChainId,destinationChainId,originToken,originAmountRaw,originAmount,/);
    expect(lines).toHaveLength(rows + 1);
    const success = lines.find((l) => l.includes(',SUCCEEDED,') && l.includes(',250000000,250.00,'));
    expect(success).toBeDefined();
    expect(text).not.toContain(ctx.sim.accessKey);
    await popup.close();
  });
});
