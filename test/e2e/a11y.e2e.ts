/**
 * Accessibility: axe-core on the popup (each tab, and a receipt), the options page and the welcome page, in Chromium with the
 * simulator's data. No serious or critical violation is allowed.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { OptionsPage } from '../../drivers/pages/options';
import { overflowingElements, POPUP_TABS, PopupPage, showEveryTab } from '../../drivers/pages/popup';
import { WelcomePage } from '../../drivers/pages/welcome';

const axeSource = readAxe();
function readAxe(): string {
  const require = createRequire(import.meta.url);
  return (require('axe-core') as { source: string }).source;
}

const ctx = useConfiguredExtension({ stepMs: 500 });

/** Serious and critical axe violations on the page as it is now: "rule: target" strings. */
async function violations(page: Page): Promise<string[]> {
  // page.evaluate goes through DevTools, so the extension page's CSP does not block it. Once a page: switching the popup's
  // tabs does not reload it.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(ctx: Document, o: object): Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe;
    // resultTypes: every violating node is still listed; passes and the rest are cut to one node each, which takes axe a
    // third of the time.
    return axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

describe('accessibility (axe-core)', () => {
  it('popup: every tab and a receipt, in light and dark', async () => {
    const intentId = ctx.sim.createIntent('failure', 300);
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(intentId);
    await expect.poll(() => popup.statusChip(intentId).textContent(), { timeout: 10_000 }).toBe('Failed');
    for (const scheme of ['light', 'dark'] as const) {
      await popup.page.emulateMedia({ colorScheme: scheme });
      expect(await violations(popup.page), `tracked (${scheme})`).toEqual([]);
      for (const tab of ['History', 'Search', 'Stuck funds', 'Routes'] as const) {
        await popup.page.getByRole('tab', { name: tab }).click();
        if (tab === 'Search') {
          await popup.page.getByLabel('Search intents').fill('0x');
          await popup.page.getByRole('button', { name: 'Search', exact: true }).click();
        }
        if (tab === 'Routes') await popup.page.getByRole('button', { name: 'Find routes' }).click();
        await popup.results(tab);
        expect(await violations(popup.page), `${tab} (${scheme})`).toEqual([]);
      }
      await popup.page.getByRole('tab', { name: 'Tracked' }).click();
    }
    await popup.openReceipt(intentId);
    expect(await violations(popup.page), 'receipt').toEqual([]);
    await popup.close();
  });

  it('options page', async () => {
    const options = await OptionsPage.open(ctx.ext);
    await options.page.getByLabel('Service URL').waitFor();
    expect(await violations(options.page)).toEqual([]);
    await options.page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(options.page)).toEqual([]);
    await options.page.close();
  });

  it('welcome page, after a first intent is tracked from it, in light and dark', async () => {
    const welcome = new WelcomePage(await ctx.ext.openPage('welcome.html'));
    await welcome.heading().waitFor();
    await welcome.trackFirst(ctx.sim.createIntent('success'));
    expect(await violations(welcome.page)).toEqual([]);
    await welcome.page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(welcome.page)).toEqual([]);
    await welcome.page.close();
  });

  it('the popup fits at its width: every tab visible, no element wider than its box or scrolling sideways', async () => {
    const popup = await PopupPage.open(ctx.ext);
    const problems: Record<string, string[]> = {};
    await showEveryTab(popup, async (tab) => {
      const found = await popup.page.evaluate(overflowingElements);
      if (found.length > 0) problems[tab] = found;
      await popup.page.screenshot({ path: `.output/e2e/chromium-popup-${tab.toLowerCase().replace(' ', '-')}.png` });
    });
    expect(problems).toEqual({});
    expect(await popup.page.locator('[role="tab"]').count()).toBe(POPUP_TABS.length);
    await popup.close();
  });
});
