/**
 * The product's main job, end to end in a real Chromium against the simulator over HTTP: configure through the
 * options page, track from the popup, get exactly one desktop notification when the intent ends, and read the
 * receipt with every leg. Tracking from the clipboard needs the browser's permission prompt: `keyboard.e2e.ts`.
 */
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { createsFor, waitForNotification } from '../../drivers/fixtures/notifications';
import { OptionsPage } from '../../drivers/pages/options';
import { PopupPage } from '../../drivers/pages/popup';

const ctx = useConfiguredExtension({ stepMs: 1200 });

/** Waits until the extension asked the browser to show a notification for the intent; resolves with those `create` calls. */
const notified = (intentId: string) => waitForNotification(ctx.ext, intentId, { timeoutMs: 30_000 });
/** What a `create` call asked the browser to display. */
const words = ({ id, title, message, buttons }: { id: string; title?: string; message?: string; buttons: string[] }) => ({
  id,
  title,
  message,
  buttons,
});

describe('tracking an intent', () => {
  it('Test connection tells OK, a rejected key, and an origin-restricted key apart', async () => {
    const options = await OptionsPage.open(ctx.ext);
    await options.fill(ctx.sim.url, ctx.sim.accessKey);
    expect(await options.testConnection()).toMatch(/^Connected/);
    await options.fill(ctx.sim.url, 'wrong-key');
    expect(await options.testConnection()).toContain('rejected the access key (AccessKeyNotFound, 1101)');
    await options.fill(ctx.sim.url, ctx.sim.restrictedAccessKey);
    expect(await options.testConnection()).toContain('not allowed from this extension');
    await options.fill('http://127.0.0.1:1', ctx.sim.accessKey);
    expect(await options.testConnection()).toMatch(/^Not reachable/);
    await options.page.close();
  });

  it('tracks a typed intentId, notifies once on SUCCEEDED, and shows every leg', async () => {
    // Steps of 30 s, so that the popup shows the intent in flight however slow its start; then the simulator's clock is
    // moved past the end instead of waiting for it (at 1.2 s steps, a start slower than the intent's 6 s saw it ended).
    const intentId = ctx.sim.createIntent('success', 30_000);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    await expect.poll(() => popup.row(intentId).count()).toBe(1);
    await expect.poll(() => popup.statusChip(intentId).textContent(), { timeout: 20_000 }).toMatch(/Committed|Executing/);
    await popup.close();
    ctx.sim.advanceClock(10 * 30_000);

    // What the browser was asked to display, as it received the call.
    const [shown] = await notified(intentId);
    expect(words(shown!)).toEqual({
      id: expect.stringMatching(new RegExp(`^svc-intent:${intentId}:`)),
      title: `Intent succeeded · ${intentId.slice(0, 6)}…${intentId.slice(-4)}`,
      message: 'Arbitrum One → Base: 250.00 USDC → 249.10 USDC',
      buttons: ['View receipt', 'Open in explorer'],
    });

    const again = await PopupPage.open(ctx.ext);
    await expect.poll(() => again.statusChip(intentId).textContent()).toBe('Succeeded');
    await expect.poll(() => again.row(intentId).textContent()).toContain('Arbitrum One → Base · 250.00 USDC');
    await again.openReceipt(intentId);
    for (const kind of ['deposit', 'origin', 'destination'] as const) {
      await expect.poll(() => again.leg(kind).locator('.chip').textContent()).toBe('Succeeded');
      const link = again.leg(kind).getByRole('link');
      expect(await link.getAttribute('href')).toMatch(/^https:\/\/(arbiscan\.io|basescan\.org)\/tx\/0x[0-9a-f]{64}$/);
      expect(await again.leg(kind).textContent()).toContain('Mined');
    }
    expect(await again.leg('refund').count()).toBe(0);
    expect(await again.page.getByText('249.10 USDC').count()).toBeGreaterThan(0);
    await again.close();
    // Seconds later, after the popup's reads: still that one `create` (a second one under the same id included).
    expect((await createsFor(ctx.ext, intentId)).map(words)).toEqual([words(shown!)]);
  });

  it('notifies once on FAILED with the reason, and shows it on the origin leg', async () => {
    const intentId = ctx.sim.createIntent('failure');
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(` ${intentId}\n`);
    await expect.poll(() => popup.row(intentId).count()).toBe(1);
    await popup.close();

    const [shown] = await notified(intentId);
    expect(words(shown!)).toEqual({
      id: expect.stringMatching(new RegExp(`^svc-intent:${intentId}:`)),
      title: `Intent failed · ${intentId.slice(0, 6)}…${intentId.slice(-4)}`,
      message:
        'Arbitrum One → Optimism: 1.50 ETH → 1.49625 WETH\nReason: execution reverted: insufficient output amount (slippage 0.50% exceeded)',
      buttons: ['View receipt'],
    });
    const view = await PopupPage.open(ctx.ext, `#intent=${intentId}`);
    await expect.poll(() => view.page.locator('#receipt-title .chip').textContent()).toBe('Failed');
    await expect.poll(() => view.leg('origin').locator('.chip').textContent()).toBe('Failed');
    expect(await view.leg('origin').textContent()).toContain('insufficient output amount');
    // A placeholder hash gets no explorer link.
    expect(await view.leg('origin').getByRole('link').count()).toBe(0);
    await view.close();
    expect((await createsFor(ctx.ext, intentId)).map(words)).toEqual([words(shown!)]);
  });

  it('says an unknown intentId is not known to the service yet, and keeps it (back-off, not a busy loop)', async () => {
    const unknown = `0x${'e'.repeat(64)}`;
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(unknown);
    await expect.poll(() => popup.row(unknown).textContent(), { timeout: 15_000 }).toContain('Not known to the service yet');
    // The tracker's checks of it, and the ETA look-up's reads of its quote (GetIntent: once, then again after 30 s at
    // the earliest when it fails, lib/worker/eta-baseline.ts), which are no part of the checks' back-off.
    const about = () => ctx.sim.requests().filter((r) => r.intentId === unknown);
    const isCheck = (op: string) => op === 'WaitIntentReceipt' || op === 'GetIntentReceipt';
    const lookups = () => about().filter((r) => r.operation === 'GetIntent').length;
    const before = lookups();
    await new Promise((r) => setTimeout(r, 3000));
    // Asked again soon at first (a just-committed intent appears within seconds), never in a loop: after a NotFound
    // answer the next check waits 1.6-2 s, then 2-2.5 s and more (lib/tracker/policy.ts, notFoundDelay). Read on the
    // simulator's own clock: every check starts at least 1.5 s after the one before it, where a loop paced by the
    // request budget alone would come every 1.1 s. (Counted together in a window of the test's, a look-up made three
    // requests in 2.6 s: a run under load, when the popup showed the row late.)
    const starts = about()
      .filter((r) => isCheck(r.operation))
      .map((r) => r.start);
    expect(starts.length).toBeGreaterThanOrEqual(2);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_500);
    expect(lookups() - before).toBeLessThanOrEqual(1);
    // Nothing else is asked about it.
    expect(about().filter((r) => !isCheck(r.operation) && r.operation !== 'GetIntent')).toEqual([]);
    await popup.close();
  });
});
