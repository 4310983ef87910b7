/**
 * `npm run screenshots`: the store listing's screenshots, 1280×800 PNG (the size the Chrome Web Store and addons.mozilla.org
 * take), written to `docs/store/`. Builds the extension, starts the simulator with a few intents, configures the
 * extension through its options page and tracks them through the popup in a headless Chromium, then photographs the
 * real pages: the popup at its own 380 px width and the side panel page at 440 px, each on a plain backdrop with a
 * caption; the options page as it is.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchExtension, removeProfile, tempProfile } from '../drivers/fixtures/launch';
import { configure, OptionsPage } from '../drivers/pages/options';
import { PopupPage } from '../drivers/pages/popup';
import { startSimulator } from '../simulator/server';

const OUT = 'docs/store';
const SIZE = { width: 1280, height: 800 };

/** Puts the popup on a backdrop with a caption (DOM nodes and text only: the extension pages carry no innerHTML). */
async function stage(page: Page, caption: string) {
  await page.addStyleTag({
    content: `
      html, body { height: 100%; }
      body { display: flex; flex-direction: column; align-items: center; gap: 24px; padding-top: 36px;
             background: linear-gradient(160deg, #1d3557 0%, #2a6f97 100%); }
      .popup { background: var(--bg); border-radius: 10px; box-shadow: 0 12px 40px rgba(0,0,0,.35);
               max-height: 640px; overflow: hidden; }
      .store-caption { font: 600 26px system-ui, sans-serif; color: #fff; margin: 0; }`,
  });
  await page.evaluate((text) => {
    const h = document.createElement('p');
    h.className = 'store-caption';
    h.textContent = text;
    document.body.prepend(h);
  }, caption);
}

console.log('screenshots: building the extension…');
execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
const sim = await startSimulator({ stepMs: 600 });
const intents = [
  sim.createIntent('success', 500),
  sim.createIntent('failure', 600),
  sim.createIntent('refund', 700),
  sim.createIntent('stuck'),
];
const profile = tempProfile();
const ext = await launchExtension(profile, true, undefined, { record: false });
try {
  await configure(ext, sim.url, sim.accessKey);
  const popup = await PopupPage.open(ext);
  for (const id of intents) await popup.track(id);
  for (const id of intents.slice(0, 3)) {
    await popup.row(id).waitFor();
    for (let i = 0; i < 100 && !/Succeeded|Failed|Refunded/.test((await popup.statusChip(id).textContent()) ?? ''); i++)
      await new Promise((r) => setTimeout(r, 200));
  }
  await popup.close();
  mkdirSync(OUT, { recursive: true });

  const shot = async (path: string, caption: string, prepare: (p: PopupPage<Page>) => Promise<void>) => {
    const p = await PopupPage.open(ext);
    await p.page.setViewportSize(SIZE);
    await p.row(intents[0]!).waitFor();
    await prepare(p);
    await stage(p.page, caption);
    await p.page.screenshot({ path: `${OUT}/${path}` });
    await p.close();
    console.log(`screenshots: ${OUT}/${path}`);
  };
  await shot('1-tracked.png', 'Every intent you track, live from the toolbar', async () => {});
  await shot('2-receipt.png', 'Each leg of the route, with its explorer link', async (p) => {
    await p.openReceipt(intents[1]!);
  });
  await shot('3-history.png', 'History, search, stuck funds and routes', async (p) => {
    await p.tab('History').click();
    await p.page.locator('[role="tabpanel"] li[data-intent-id]').first().waitFor();
  });

  // The side panel page at a side panel's width, docked on the right of the backdrop.
  const panel = await ext.openPage('sidepanel.html', SIZE);
  await new PopupPage(panel).row(intents[0]!).waitFor();
  await stage(panel, 'Or keep them open in the side panel');
  await panel.addStyleTag({
    content: '#app { align-self: flex-end; margin-right: 48px; } .popup.panel { width: 440px; min-height: 680px; }',
  });
  await panel.screenshot({ path: `${OUT}/4-side-panel.png` });
  await panel.close();
  console.log(`screenshots: ${OUT}/4-side-panel.png`);

  const options = await OptionsPage.open(ext);
  await options.page.setViewportSize(SIZE);
  await options.page.getByLabel('Service URL').waitFor();
  await options.page.waitForFunction(() => (document.getElementById('base-url') as HTMLInputElement | null)?.value !== '');
  // The key field is masked; the URL shown is an example, not the simulator's (not saved).
  await options.page.getByLabel('Service URL').fill('https://api.svc.example');
  await options.page.screenshot({ path: `${OUT}/5-settings.png` });
  console.log(`screenshots: ${OUT}/5-settings.png`);
} finally {
  await ext.close();
  await sim.close();
  removeProfile(profile);
}
