/**
 * A desk's load in Firefox ESR (puppeteer-core over WebDriver BiDi) against the simulator: 300 intentIds pasted at
 * once into the popup's Track box, and an export (JSON, as another browser's popup writes it) imported: the intent
 * that had ended is confirmed final and not notified again, the muted one stays muted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElementHandle } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { useConfiguredFirefox } from '../../../drivers/fixtures/launch-firefox';
import { alertsFor, waitForAlert } from '../../../drivers/fixtures/notifications-firefox';
import { readTrackedFirefox } from '../../../drivers/fixtures/storage';
import { PopupPage } from '../../../drivers/pages/popup';

const ctx = useConfiguredFirefox({ dataset: false });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a desk in Firefox', () => {
  it('tracks 300 pasted intentIds in one go and says the counts', async () => {
    const ids = Array.from({ length: 300 }, () => ctx.sim.createIntent('success', 600_000));
    const popup = await PopupPage.open(ctx.ext);
    await popup.intentBox.fill(`${ids.join('\n')}\nnot-valid!`);
    await popup.page.getByRole('button', { name: 'Track', exact: true }).click();
    await expect.poll(() => popup.message().textContent(), { timeout: 30_000 }).toContain('Added 300, already tracked 0, not valid 1.');
    await expect.poll(async () => (await readTrackedFirefox(ctx.ext, ids[299]!))?.phase, { timeout: 10_000 }).toBe('tracking');
    await popup.close();
    // Opened again with the 300: the list is windowed, a search finds the last one.
    const again = await PopupPage.open(ctx.ext);
    await again.page.getByRole('searchbox', { name: 'Search tracked intents' }).fill(ids[299]!);
    await expect.poll(() => again.row(ids[299]!).count()).toBe(1);
    await again.close();
  });

  it('imports an export: the intent that had ended is not notified again, the muted one stays muted', async () => {
    const ended = ctx.sim.createIntent('success', 300);
    const flying = ctx.sim.createIntent('success', 600_000);
    // Let the first one end at the service before it is imported as ended and notified elsewhere.
    await sleep(3_000);
    const now = Date.now();
    // An export as the popup of another browser writes it (lib/format/export.ts: `{exportedAt, intents}`, times in ISO).
    const iso = (ms: number) => new Date(ms).toISOString();
    const row = (intentId: string, over: Record<string, unknown>) => ({ intentId, receipt: null, notifiedAt: '', muted: false, ...over });
    const exported = {
      exportedAt: iso(now),
      intents: [
        row(ended, { status: 'SUCCEEDED', tracking: 'final', addedAt: iso(now - 60_000), notifiedAt: iso(now - 30_000) }),
        row(flying, { status: 'EXECUTING', tracking: 'tracking', addedAt: iso(now - 50_000), muted: true }),
      ],
    };
    const dir = mkdtempSync(join(tmpdir(), 'svc-import-'));
    const file = join(dir, 'svc-intents.json');
    writeFileSync(file, JSON.stringify(exported, null, 2));
    try {
      const popup = await PopupPage.open(ctx.ext);
      const input = (await popup.page.raw.waitForSelector('input[type="file"]')) as ElementHandle<HTMLInputElement>;
      await input.uploadFile(file);
      await expect.poll(() => popup.page.getByTestId('import-preview').textContent()).toContain('2 intents in the file: 2 new');
      // Below the 300 rows' windowed list, in a page re-rendered every second (intents in flight): scrolled into view
      // and clicked in the page (Puppeteer's click found no box for it there).
      await popup.page.raw.evaluate(() => {
        const button = [...document.querySelectorAll<HTMLButtonElement>('.import-preview button')].find(
          (b) => b.textContent === 'Import 2 intents',
        );
        button?.scrollIntoView();
        button?.click();
      });
      await expect.poll(() => popup.page.getByTestId('import-message').textContent()).toBe('Added 2, already tracked 0, not valid 0.');
      await expect.poll(async () => (await readTrackedFirefox(ctx.ext, ended))?.phase, { timeout: 30_000 }).toBe('final');
      expect((await readTrackedFirefox(ctx.ext, ended))?.notification).toBe('shown');
      await popup.close();
      const again = await PopupPage.open(ctx.ext);
      // The list is windowed (the first test's 300 are tracked too): a search brings the row.
      await again.page.getByRole('searchbox', { name: 'Search tracked intents' }).fill(flying);
      await expect.poll(() => again.row(flying).textContent(), { timeout: 10_000 }).toContain('Muted');
      await again.close();
      await sleep(2_000);
      expect(await alertsFor(ctx.ext, ended)).toEqual([]);
      // The in-flight one is still told when it ends (not part of this test's time); a fresh one still notifies.
      const control = ctx.sim.createIntent('success', 300);
      const p = await PopupPage.open(ctx.ext);
      await p.track(control);
      await p.close();
      await waitForAlert(ctx.ext, control, 30_000);
      expect(await alertsFor(ctx.ext, ended)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
