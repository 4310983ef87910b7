/**
 * Calm notifications end to end in Chromium against the simulator. Two scenarios, each paying for its own waits once:
 * quiet hours set in the options hold the notifications of intents that finish during them (a muted one among them)
 * and the real `browser.alarms` alarm at their end shows one "while you were away" summary; then, with the optional
 * progress notification on, a muted intent is tracked to its end without any notification while another one's
 * progress notification is updated in place and becomes its only final notification.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { notificationIdsFor, notifications, recordedNotifications, recordNotifications } from '../../drivers/fixtures/notifications';
import { readTracked } from '../../drivers/fixtures/storage';
import { PopupPage } from '../../drivers/pages/popup';

const ctx = useConfiguredExtension({ stepMs: 3000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const short = (intentId: string) => `${intentId.slice(0, 6)}…${intentId.slice(-4)}`;

/** Waits until the tracker recorded the intent's final notification as dealt with (shown, held or skipped). */
const settled = (intentId: string) =>
  expect.poll(async () => (await readTracked(ctx.ext, intentId))?.notification, { timeout: 45_000, interval: 500 }).toBe('shown');

/** Opens the options page, lets `change` set the notification fields, saves. */
async function saveOptions(change: (page: Page) => Promise<void>) {
  const options = await ctx.ext.openPage('options.html');
  await expect.poll(() => options.getByLabel('Service URL').inputValue()).not.toBe('');
  await change(options);
  await options.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => options.getByTestId('save-status').textContent()).toMatch(/^Saved/);
  await options.close();
}

/** Mutes a tracked intent from its receipt, goes back, and waits until its row says so. */
async function muteFromReceipt(popup: PopupPage<Page>, intentId: string) {
  await popup.openReceipt(intentId);
  const button = popup.page.getByRole('button', { name: 'Mute notifications' });
  await button.click();
  await expect.poll(() => popup.page.getByRole('button', { name: 'Unmute notifications' }).getAttribute('aria-pressed')).toBe('true');
  await popup.page.getByRole('button', { name: '← Back' }).click();
  await expect.poll(() => popup.row(intentId).textContent()).toContain('Muted');
}

/** Mutes a tracked intent with the bell of its row and waits until the row says so. */
async function mute(popup: PopupPage<Page>, intentId: string) {
  const bell = popup.row(intentId).getByRole('button', { name: `Mute notifications of intent ${intentId}` });
  await bell.click();
  await expect.poll(() => bell.getAttribute('aria-pressed')).toBe('true');
  await expect.poll(() => popup.row(intentId).textContent()).toContain('Muted');
}

describe('calm notifications', () => {
  it('quiet hours hold the notifications of intents that finish during them, then the alarm shows one summary', async () => {
    await recordNotifications(ctx.ext);
    // Slow scripts (30 s a step): the intents are tracked, and one muted (never announced, not even in the summary),
    // before the quiet hours are set; then the simulator's clock is moved and they all end at once, inside them.
    const ids = [ctx.sim.createIntent('success', 30_000), ctx.sim.createIntent('refund', 30_000), ctx.sim.createIntent('success', 30_000)];
    const muted = ctx.sim.createIntent('failure', 30_000);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(muted);
    await mute(popup, muted);
    for (const id of ids) await popup.track(id);

    // Quiet hours from five minutes ago to the first minute boundary at least 25 s away, in the browser's time zone:
    // the summary is due in 25 to 85 s. What must fit in that margin is saving the options and the four holds after
    // the clock's move (about 5 s alone in the e2e pool).
    const probe = await ctx.ext.openPage('options.html');
    const window = await probe.evaluate(() => {
      const hm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
      const now = new Date();
      const end = new Date(now);
      end.setSeconds(0, 0);
      end.setMinutes(end.getMinutes() + (now.getSeconds() < 35 ? 1 : 2));
      return { start: hm(new Date(now.getTime() - 5 * 60_000)), end: hm(end), endsAt: end.getTime() };
    });
    await probe.close();
    await saveOptions(async (page) => {
      await page.getByLabel('Quiet hours').check();
      await page.getByLabel('From').fill(window.start);
      await page.getByLabel('to', { exact: true }).fill(window.end);
    });
    ctx.sim.advanceClock(10 * 30_000);
    for (const id of [...ids, muted]) await settled(id);
    expect(Date.now()).toBeLessThan(window.endsAt);
    // Finished and shown as such in the popup, with nothing on screen for them.
    await expect.poll(() => popup.statusChip(ids[1]!).textContent()).toBe('Refunded');
    await expect.poll(() => popup.statusChip(muted).textContent()).toBe('Failed');
    const during = await recordedNotifications(ctx.ext);
    expect(during.filter((n) => [...ids, muted].some((id) => n.id.includes(id)))).toEqual([]);
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
    // No notification of its own for any of them (the summary's id names its first intent, and is the one above).
    expect(after.filter((n) => !n.id.startsWith('svc-away:') && [...ids, muted].some((id) => n.id.includes(id)))).toEqual([]);
    for (const id of [...ids, muted]) expect(await notificationIdsFor(ctx.ext, id)).toEqual([]);
  });

  it('a muted intent gets no notification while its status updates; the progress notification of another is updated in place and becomes its one final notification', async () => {
    await recordNotifications(ctx.ext);
    await saveOptions(async (page) => page.getByLabel('Quiet hours').uncheck());
    // Muted before the progress notification is switched on, so that not even one appears for it. Its steps are 30 s
    // (at 3 s, a slow start under load saw it ended before it was seen in flight); its end is brought by moving the
    // simulator's clock once the other intent has ended.
    const muted = ctx.sim.createIntent('success', 30_000);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(muted);
    await muteFromReceipt(popup, muted);
    await saveOptions(async (page) => page.getByLabel(/^Show progress while an intent is in flight/).check());
    const loud = ctx.sim.createIntent('success', 2500);
    await popup.track(loud);

    // The muted intent's status moves on in the popup, to the end, while it is in flight with progress on.
    await expect.poll(() => popup.statusChip(muted).textContent(), { timeout: 10_000 }).toMatch(/Committed|Executing/);
    await settled(loud);
    ctx.sim.advanceClock(10 * 30_000);
    await expect.poll(() => popup.statusChip(muted).textContent(), { timeout: 45_000 }).toBe('Succeeded');
    await settled(muted);
    await sleep(1500);
    await popup.close();

    const recorded = await recordedNotifications(ctx.ext);
    expect(recorded.filter((n) => n.id.includes(muted))).toEqual([]);
    expect(await notificationIdsFor(ctx.ext, muted)).toEqual([]);

    const mine = recorded.filter((n) => n.id.includes(loud));
    const [first] = mine;
    expect(first).toMatchObject({ op: 'create', id: expect.stringMatching(new RegExp(`^svc-progress:${loud}:\\d+$`)) });
    // Every later change is an update of that one notification; the last says how it ended.
    expect(mine.slice(1).every((n) => n.op === 'update' && n.id === first!.id)).toBe(true);
    expect(new Set(mine.slice(0, -1).map((n) => n.message)).size).toBeGreaterThanOrEqual(2);
    expect(mine.at(-1)).toMatchObject({
      title: `Intent succeeded · ${short(loud)}`,
      message: 'Arbitrum One → Base: 250.00 USDC → 249.10 USDC',
    });
    expect(Object.keys(await notifications(ctx.ext)).filter((id) => id.includes(loud))).toEqual([first!.id]);
    expect((await readTracked(ctx.ext, loud))?.notified).toMatchObject({ title: `Intent succeeded · ${short(loud)}` });
  });
});
