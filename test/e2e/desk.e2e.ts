/**
 * A desk's load in a real Chromium against the simulator: 300 intentIds pasted at once into the popup's Track box
 * (one request, the counts said, the invalid one left in the box), and tracked intents moved to another profile by
 * the popup's JSON export and import — the one that had ended is not notified again there, the muted one stays muted.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { launchExtension, removeProfile, tempProfile, useConfiguredExtension } from '../../drivers/fixtures/launch';
import {
  countNotificationCreates,
  createdNotifications,
  intentsOfNotificationId,
  waitForNotification,
} from '../../drivers/fixtures/notifications';
import { readTracked } from '../../drivers/fixtures/storage';
import { configure } from '../../drivers/pages/options';
import { PopupPage } from '../../drivers/pages/popup';

const ctx = useConfiguredExtension({ dataset: false });

/** How many records the worker's intent store holds (read inside the worker). */
async function storedCount(): Promise<number> {
  const worker = await ctx.ext.worker();
  return worker.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('svc-intents');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('intents').objectStore('intents').count();
          req.onsuccess = () => {
            open.result.close();
            resolve(req.result);
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

describe('a desk: many intents at once', () => {
  it('tracks 300 pasted intentIds in one go, says the counts, and leaves the invalid one in the box', async () => {
    const before = await storedCount();
    // Slow scripts: the 300 stay in flight while the test looks.
    const ids = Array.from({ length: 300 }, () => ctx.sim.createIntent('success', 600_000));
    const pasted = `${ids.slice(0, 150).join('\n')}\n0xnot-an-id\n${ids.slice(150).join(', ')}\t${ids[0]}`;
    const popup = await PopupPage.open(ctx.ext);
    await popup.intentBox.fill(pasted);
    await popup.page.getByRole('button', { name: 'Track', exact: true }).click();
    await expect.poll(() => popup.message().textContent(), { timeout: 30_000 }).toContain('Added 300, already tracked 0, not valid 1.');
    // The box is set by the same answer as the message, maybe in a later frame: wait for it by name.
    await expect.poll(() => popup.page.getByRole('textbox', { name: 'Intent ID' }).inputValue()).toBe('0xnot-an-id');
    await expect.poll(storedCount, { timeout: 10_000 }).toBe(before + 300);
    // The list is windowed: a search finds any of them.
    await popup.page.getByRole('searchbox', { name: 'Search tracked intents' }).fill(ids[299]!);
    await expect.poll(() => popup.row(ids[299]!).count()).toBe(1);
    await popup.close();
  });

  it('moves tracked intents to another profile by export and import: the ended one is not notified again', async () => {
    const ended = ctx.sim.createIntent('success', 300);
    const flying = ctx.sim.createIntent('success', 600_000);
    const popup = await PopupPage.open(ctx.ext);
    await popup.intentBox.fill(`${ended}\n${flying}`);
    await popup.page.getByRole('button', { name: 'Track', exact: true }).click();
    await waitForNotification(ctx.ext, ended, { timeoutMs: 30_000 });
    await popup.page.evaluate((id) => chrome.runtime.sendMessage({ type: 'mute', intentId: id, muted: true }), flying);
    await popup.page.reload();
    const [download] = await Promise.all([
      popup.page.waitForEvent('download'),
      popup.page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    const file = await download.path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { intents: Array<{ intentId: string; muted: boolean }> };
    expect(exported.intents.find((i) => i.intentId === flying)?.muted).toBe(true);
    await popup.close();

    const other = await launchExtension(tempProfile());
    try {
      await configure(other, ctx.sim.url, ctx.sim.accessKey);
      await countNotificationCreates(other);
      const moved = await PopupPage.open(other);
      await moved.page.locator('input[type="file"]').setInputFiles(file);
      const preview = moved.page.getByTestId('import-preview');
      await preview.waitFor();
      const n = exported.intents.length;
      expect(await preview.textContent()).toContain(`${n} intents in the file: ${n} new, 0 already tracked here`);
      expect(await preview.textContent()).toContain('stay muted');
      await preview.getByRole('button', { name: `Import ${n} intents` }).click();
      await expect.poll(() => moved.page.getByTestId('import-message').textContent()).toBe(`Added ${n}, already tracked 0, not valid 0.`);
      // The ended one is confirmed by one read (its status final), and never notified in this profile.
      await expect.poll(async () => (await readTracked(other, ended))?.phase, { timeout: 30_000 }).toBe('final');
      expect((await readTracked(other, ended))?.notification).toBe('shown');
      await moved.page.reload();
      await expect.poll(() => moved.row(flying).textContent(), { timeout: 10_000 }).toContain('Muted');
      await new Promise((r) => setTimeout(r, 2_000));
      const created = await createdNotifications(other);
      expect(created.filter((id) => intentsOfNotificationId(id).includes(ended))).toEqual([]);
      await moved.close();
    } finally {
      await other.close();
      removeProfile(other.userDataDir);
    }
  });
});
