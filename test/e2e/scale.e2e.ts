/**
 * The tracker at scale and under faults, in Chromium against the simulator: a burst of faults on
 * WaitIntentReceipt with the back-off shown in the popup, then one notification; and 200 intents finishing at
 * random times, each notified exactly once with never more than 4 tracker requests in flight.
 */
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import {
  countNotificationCreates,
  createdNotifications,
  createsFor,
  intentsOfNotificationId,
  waitForNotification,
} from '../../drivers/fixtures/notifications';
import { PopupPage } from '../../drivers/pages/popup';
import { peakConcurrency } from '../../simulator/server';

const ctx = useConfiguredExtension({ dataset: false, waitTimeoutMs: 20_000 });

describe('tracker at scale and under faults', () => {
  it('rides out a burst of 500/429/reset/malformed answers, shows the back-off, then notifies once', async () => {
    const intentId = ctx.sim.createIntent('success', 3000);
    for (const fault of [
      { kind: 'http500' },
      { kind: 'reset' },
      { kind: 'malformed' },
      { kind: 'http500' },
      { kind: 'rate-limit', retryAfterSeconds: 2 },
      { kind: 'html502' },
    ] as const) {
      ctx.sim.injectFault(fault, 'WaitIntentReceipt');
    }
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    await expect
      .poll(() => popup.row(intentId).textContent(), { timeout: 20_000 })
      .toMatch(/Having trouble reaching the service|rate-limiting/);
    await popup.close();
    await waitForNotification(ctx.ext, intentId, { timeoutMs: 90_000, intervalMs: 500 });
    const receipt = await PopupPage.open(ctx.ext, `#intent=${intentId}`);
    await expect.poll(() => receipt.page.locator('#receipt-title .chip').textContent()).toBe('Succeeded');
    expect(await receipt.page.locator('.health').count()).toBe(0);
    await receipt.close();
    expect(await createsFor(ctx.ext, intentId)).toHaveLength(1);
  });

  it('notifies 200 intents finishing at random times exactly once each, never over 4 requests in flight', async () => {
    await countNotificationCreates(ctx.ext);
    const since = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) {
      // Steps of 1–6 s: the success script ends after 4 steps (4–24 s), the failure one after 3 — 200 finishes spread
      // over 20 s, about ten a second at the peak.
      ids.push(ctx.sim.createIntent(i % 5 === 0 ? 'failure' : 'success', 1000 + Math.floor(Math.random() * 5000)));
    }
    const popup = await PopupPage.open(ctx.ext);
    const replies = await popup.page.evaluate(async (list) => {
      const out: unknown[] = [];
      for (const intentId of list) out.push(await chrome.runtime.sendMessage({ type: 'track', intentId }));
      return out;
    }, ids);
    expect(replies.every((r) => (r as { ok: boolean }).ok)).toBe(true);
    await popup.close();

    // Intents that finish together share one summary notification: count intents, not toasts.
    const notifiedIntents = async () => (await createdNotifications(ctx.ext)).flatMap(intentsOfNotificationId);
    const count = async () => {
      const notified = new Set(await notifiedIntents());
      return ids.filter((id) => notified.has(id)).length;
    };
    await expect.poll(count, { timeout: 150_000, interval: 2000 }).toBe(200);
    await new Promise((r) => setTimeout(r, 3000));
    const notified = await notifiedIntents();
    for (const id of ids)
      expect(
        notified.filter((n) => n === id),
        id,
      ).toHaveLength(1);
    expect(notified).toHaveLength(200);
    // Grouping made far fewer toasts than intents.
    expect((await createdNotifications(ctx.ext)).length).toBeLessThan(200);

    const log = ctx.sim.requests().filter((e) => e.start >= since);
    // No look-up of the user's here (their fifth place, lib/api/budget-limits.ts USER_PLACES): the worker's own 4.
    expect(peakConcurrency(log)).toBeLessThanOrEqual(4);
  });
});
