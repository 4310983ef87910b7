/**
 * Calm notifications in Firefox ESR against the simulator: quiet hours set in the options page hold the
 * notifications of intents that finish during them, and the real `browser.alarms` alarm at their end (or the
 * watchdog) shows one "while you were away" summary, handed once to the desktop, and nothing of their own.
 */
import { describe, expect, it } from 'vitest';
import { useConfiguredFirefox } from '../../../drivers/fixtures/launch-firefox';
import { alertsFor, desktopAlerts } from '../../../drivers/fixtures/notifications-firefox';
import { readTrackedFirefox } from '../../../drivers/fixtures/storage';
import { PopupPage } from '../../../drivers/pages/popup';

const ctx = useConfiguredFirefox({ stepMs: 1000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

describe('calm notifications in Firefox', () => {
  it('quiet hours hold two intents, then one summary comes at their end', async () => {
    // Slow scripts (30 s a step), tracked before the quiet hours are set; the simulator's clock is moved once they are
    // saved, and both end at once, inside them.
    const ids = [ctx.sim.createIntent('success', 30_000), ctx.sim.createIntent('refund', 30_000)];
    const popup = await PopupPage.open(ctx.ext);
    for (const id of ids) await popup.track(id);

    // From five minutes ago to the first minute boundary at least 25 s away: the summary is due in 25 to 85 s. Firefox
    // runs on this machine, in its time zone. What must fit in the margin is saving the options and the two holds
    // after the clock's move.
    const now = new Date();
    const end = new Date(now);
    end.setSeconds(0, 0);
    end.setMinutes(end.getMinutes() + (now.getSeconds() < 35 ? 1 : 2));
    const options = await ctx.ext.openPage('options.html');
    await options.locator('form[aria-busy="false"]').waitFor(); // the saved settings are in the form
    await expect.poll(() => options.getByLabel('Service URL').count()).toBe(1);
    await options.getByRole('checkbox', { name: 'Quiet hours' }).click();
    await options.getByLabel('From').fill(hm(new Date(now.getTime() - 5 * 60_000)));
    await options.getByLabel('to').fill(hm(end));
    await options.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await options.getByTestId('save-status').count()) > 0 && options.getByTestId('save-status').textContent())
      .toMatch(/^Saved/);
    await options.close();
    ctx.sim.advanceClock(10 * 30_000);

    for (const id of ids)
      await expect
        .poll(async () => (await readTrackedFirefox(ctx.ext, id))?.notification, { timeout: 45_000, interval: 500 })
        .toBe('shown');
    await popup.close();
    expect(Date.now()).toBeLessThan(end.getTime());
    for (const id of ids) expect(await alertsFor(ctx.ext, id)).toEqual([]);

    const away = async () => (await desktopAlerts(ctx.ext)).filter((a) => a.name.startsWith('svc-away:'));
    expect(await away()).toEqual([]);
    await expect.poll(away, { timeout: end.getTime() - Date.now() + 45_000, interval: 1000 }).toHaveLength(1);
    const [summary] = await away();
    expect(summary!.at).toBeGreaterThanOrEqual(end.getTime());
    expect(summary).toMatchObject({ title: 'While you were away: 2 intents finished', text: '1 succeeded, 1 refunded', actions: 0 });
    await sleep(2000);
    expect(await away()).toHaveLength(1);
    for (const id of ids) expect(await alertsFor(ctx.ext, id)).toEqual([]);
  });
});
