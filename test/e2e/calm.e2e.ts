/**
 * Calm notifications end to end in Chromium against the simulator: a muted intent is tracked to its end without a
 * desktop notification, and quiet hours (set in the options page) hold the notifications of intents that finish
 * during them and give one "while you were away" summary when they end — at the real `browser.alarms` alarm.
 */
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from './fixtures/launch';
import {
  notificationIdsFor,
  notifications,
  recordedNotifications,
  recordNotifications,
  waitForNotification,
} from './fixtures/notifications';
import { readTracked } from './fixtures/storage';
import { PopupPage } from './pages/popup';

// Slow enough for a user to mute an intent before it ends (about 12 s for the success script).
const ctx = useConfiguredExtension({ stepMs: 3000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the tracker recorded the intent's final notification as dealt with (shown, held or skipped). */
const settled = (intentId: string) =>
  expect.poll(async () => (await readTracked(ctx.ext, intentId))?.notification, { timeout: 45_000, interval: 500 }).toBe('shown');

describe('calm notifications', () => {
  it('a muted intent gets no notification while its status updates; an unmuted one still does', async () => {
    await recordNotifications(ctx.ext);
    const muted = ctx.sim.createIntent('success');
    const loud = ctx.sim.createIntent('success');
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(muted);
    const bell = popup.row(muted).getByRole('button', { name: `Mute notifications of intent ${muted}` });
    await bell.click();
    await expect.poll(() => bell.getAttribute('aria-pressed')).toBe('true');
    await popup.track(loud);

    // The muted intent's status moves on in the popup, to the end.
    await expect.poll(() => popup.statusChip(muted).textContent(), { timeout: 10_000 }).toMatch(/Committed|Executing/);
    await expect.poll(() => popup.statusChip(muted).textContent(), { timeout: 45_000 }).toBe('Succeeded');
    expect(await popup.row(muted).textContent()).toContain('Muted');
    expect(await waitForNotification(ctx.ext, loud, { timeoutMs: 45_000 })).toHaveLength(1);
    await settled(muted);
    await sleep(1500);
    expect(await notificationIdsFor(ctx.ext, muted)).toEqual([]);
    const recorded = await recordedNotifications(ctx.ext);
    expect(recorded.filter((n) => n.id.includes(muted))).toEqual([]);
    expect(recorded.filter((n) => n.id.includes(loud))).toHaveLength(1);
    await popup.close();
  });

  it('quiet hours hold the notifications of intents that finish during them, then show one summary', async () => {
    await recordNotifications(ctx.ext);
    const options = await ctx.ext.openPage('options.html');
    // Quiet hours from five minutes ago to the first minute boundary at least 25 s away (the time the intents below
    // need to finish), in the browser's time zone: the summary is due in 25 to 85 s.
    const window = await options.evaluate(() => {
      const hm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
      const now = new Date();
      const end = new Date(now);
      end.setSeconds(0, 0);
      end.setMinutes(end.getMinutes() + (now.getSeconds() < 35 ? 1 : 2));
      return { start: hm(new Date(now.getTime() - 5 * 60_000)), end: hm(end), endsAt: end.getTime() };
    });
    await expect.poll(() => options.getByLabel('Service URL').inputValue()).not.toBe('');
    await options.getByLabel('Quiet hours').check();
    await options.getByLabel('From').fill(window.start);
    await options.getByLabel('to', { exact: true }).fill(window.end);
    await options.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => options.getByTestId('save-status').textContent()).toMatch(/^Saved/);
    await options.close();

    // Quick scripts (1 s a step): they finish well inside the quiet hours.
    const ids = [ctx.sim.createIntent('success', 1000), ctx.sim.createIntent('refund', 1000), ctx.sim.createIntent('success', 1000)];
    const popup = await PopupPage.open(ctx.ext);
    for (const id of ids) await popup.track(id);
    for (const id of ids) await settled(id);
    expect(Date.now()).toBeLessThan(window.endsAt);
    // Finished, recorded, and nothing on screen for them.
    await expect.poll(() => popup.statusChip(ids[1]!).textContent()).toBe('Refunded');
    const during = await recordedNotifications(ctx.ext);
    expect(during.filter((n) => ids.some((id) => n.id.includes(id)))).toEqual([]);
    expect(during.filter((n) => n.id.startsWith('svc-away:'))).toEqual([]);
    await popup.close();

    // The alarm at the end of the quiet hours shows one summary.
    const away = async () => (await recordedNotifications(ctx.ext)).filter((n) => n.id.startsWith('svc-away:'));
    await expect.poll(away, { timeout: window.endsAt - Date.now() + 30_000, interval: 1000 }).toHaveLength(1);
    const [summary] = await away();
    expect(summary!.at).toBeGreaterThanOrEqual(window.endsAt);
    expect(summary).toMatchObject({ title: 'While you were away: 3 intents finished', message: '2 succeeded, 1 refunded' });
    await sleep(2000);
    const after = await recordedNotifications(ctx.ext);
    expect(after.filter((n) => n.id.startsWith('svc-away:'))).toHaveLength(1);
    expect(after.filter((n) => ids.some((id) => n.id.includes(id)))).toEqual([]);
    for (const id of ids) expect(await notificationIdsFor(ctx.ext, id)).toEqual([]);
  });

  it('the progress notification (switched on in the options) is updated in place and becomes the one final notification', async () => {
    await recordNotifications(ctx.ext);
    const options = await ctx.ext.openPage('options.html');
    await expect.poll(() => options.getByLabel('Service URL').inputValue()).not.toBe('');
    await options.getByLabel('Quiet hours').uncheck();
    await options.getByLabel(/^Show progress while an intent is in flight/).check();
    await options.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => options.getByTestId('save-status').textContent()).toMatch(/^Saved/);
    await options.close();

    const intentId = ctx.sim.createIntent('success', 2500);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    await popup.close();
    await settled(intentId);
    await sleep(1000);
    const mine = (await recordedNotifications(ctx.ext)).filter((n) => n.id.includes(intentId));
    const [first] = mine;
    expect(first).toMatchObject({ op: 'create', id: expect.stringMatching(new RegExp(`^svc-progress:${intentId}:\\d+$`)) });
    // Every later change is an update of that one notification; the last says how it ended.
    expect(mine.slice(1).every((n) => n.op === 'update' && n.id === first!.id)).toBe(true);
    expect(new Set(mine.slice(0, -1).map((n) => n.message)).size).toBeGreaterThanOrEqual(2);
    const short = `${intentId.slice(0, 6)}…${intentId.slice(-4)}`;
    expect(mine.at(-1)).toMatchObject({ title: `Intent succeeded · ${short}`, message: 'Arbitrum One → Base: 250.00 USDC → 249.10 USDC' });
    expect(Object.keys(await notifications(ctx.ext)).filter((id) => id.includes(intentId))).toEqual([first!.id]);
    expect((await readTracked(ctx.ext, intentId))?.notified).toMatchObject({ title: `Intent succeeded · ${short}` });
  });
});
