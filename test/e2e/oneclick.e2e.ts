/**
 * One-click tracking and housekeeping in Chromium against the simulator: the context menu's action on a selected
 * transaction hash, a watched address's new intent auto-tracked and notified, the badge following the counts, and
 * the CSV export.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotAt } from '../simulator/lifecycle';
import { type Simulator, startSimulator } from '../simulator/server';
import { configure, type ExtensionBrowser, launchExtension, notificationIdsFor, OptionsPage, PopupPage, removeProfile } from './fixtures';

let sim: Simulator;
let ext: ExtensionBrowser;

beforeAll(async () => {
  sim = await startSimulator({ stepMs: 1500 });
  ext = await launchExtension();
  await configure(ext, sim.url, sim.accessKey);
});
afterAll(async () => {
  await ext?.close();
  if (ext) removeProfile(ext.userDataDir);
  await sim?.close();
});

const badge = async () =>
  (await ext.worker()).evaluate(() =>
    (chrome as unknown as { action: { getBadgeText(d: object): Promise<string> } }).action.getBadgeText({}),
  );

describe('one-click tracking and housekeeping', () => {
  it('"Track intent" on a selected transaction hash tracks its intent', async () => {
    const now = sim.now();
    const target = sim.intents().find((i) => {
      const d = (snapshotAt(i, now).receipt as { destinationTransaction?: { txnHash: string } }).destinationTransaction;
      return d && !/0{10,}$/.test(d.txnHash);
    })!;
    const hash = (snapshotAt(target, now).receipt as { destinationTransaction: { txnHash: string } }).destinationTransaction.txnHash;
    const popup = await PopupPage.open(ext);
    // The menu's click handler runs trackSelection on the selected text; the same action is reachable by message.
    const reply = await popup.page.evaluate(
      (text) => chrome.runtime.sendMessage({ type: 'track-text', text }),
      `Bridged in tx ${hash} yesterday`,
    );
    expect(reply).toMatchObject({ ok: true, intentId: target.intentId });
    await popup.page.reload();
    await expect.poll(() => popup.row(target.intentId).count()).toBe(1);
    await popup.close();
  });

  it("auto-tracks a watched address's new intent and notifies when it ends; the badge follows", async () => {
    const owner = `0x${'c3'.repeat(20)}`;
    const intentId = sim.createIntent('success', 1500, owner);
    const options = await OptionsPage.open(ext);
    await options.page.getByLabel('My addresses (optional)').fill(owner);
    await options.page.getByRole('checkbox', { name: owner }).check();
    await options.save(sim.url, sim.accessKey);
    await options.page.close();
    await expect
      .poll(
        async () =>
          await PopupPage.open(ext).then(async (p) => {
            const n = await p.row(intentId).count();
            await p.close();
            return n;
          }),
        { timeout: 20_000 },
      )
      .toBe(1);
    await expect.poll(() => notificationIdsFor(ext, intentId), { timeout: 30_000 }).toHaveLength(1);

    // Badge: a failing intent shows a red count until the popup is opened.
    const failing = sim.createIntent('failure', 500);
    const popup = await PopupPage.open(ext);
    await popup.track(failing);
    await popup.close();
    await expect.poll(() => notificationIdsFor(ext, failing), { timeout: 20_000 }).toHaveLength(1);
    await expect.poll(badge, { timeout: 5_000 }).toBe('1');
    const seen = await PopupPage.open(ext);
    await expect.poll(badge, { timeout: 5_000 }).not.toBe('1');
    await seen.close();
  });

  it('exports the tracked intents as CSV with raw and display amounts', async () => {
    const popup = await PopupPage.open(ext);
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
    expect(text).not.toContain(sim.accessKey);
    await popup.close();
  });
});
