/**
 * `npm start`: the demo. Builds the extension, starts the simulator with a few demo intents, launches Chromium with
 * the extension, configures it through its options page and tracks the intents through the popup, as a user would.
 *
 * With a display (DISPLAY set) the browser window stays open until Ctrl-C. Without one it runs headless, prints
 * each notification as it fires, writes popup screenshots to `.output/demo/`, and exits 0 once every demo intent
 * is final and notified.
 *
 * By default the intents run on real local chains (simulator/chains.ts: anvil with the chain ids of Arbitrum
 * One and Base, an ERC-20 on each): each leg's txnHash is a real transaction, and once an intent is final the demo
 * prints what the chain says of each leg, checked by the extension's verifier (lib/chain). `DEMO_CHAINS=0` runs
 * the simulator alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { launchExtension, removeProfile, tempProfile } from '../drivers/fixtures/launch';
import { notificationIdsFor } from '../drivers/fixtures/notifications';
import { readTracked } from '../drivers/fixtures/storage';
import { configure } from '../drivers/pages/options';
import { PopupPage } from '../drivers/pages/popup';
import { ChainWorld } from '../simulator/chains';
import { startSimulator } from '../simulator/server';
import { printVerification } from './demo-chains';

const OUT = '.output/demo';
const headless = !process.env.DISPLAY || process.env.CI === 'true';

console.log('demo: building the extension…');
execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });

const onChains = process.env.DEMO_CHAINS !== '0';
const chains = onChains ? await ChainWorld.start() : undefined;
chains?.mineEvery(1000); // a block a second on each chain: confirmations grow as on a live chain
const sim = await startSimulator({ stepMs: 2500, ...(chains ? { chains } : {}) });
const demo = chains
  ? [sim.createIntent('chain-success', 2000), sim.createIntent('failure', 2500), sim.createIntent('chain-lagging', 1500)]
  : [sim.createIntent('success', 2000), sim.createIntent('failure', 2500), sim.createIntent('success', 3500)];
console.log(`demo: simulator at ${sim.url} with ${demo.length} intents`);
if (chains) console.log(`demo: local chains ${JSON.stringify(sim.rpcUrls())} (anvil; Arbitrum One → Base)`);

const profile = tempProfile();
const ext = await launchExtension(profile, headless, undefined, { record: false });
console.log(`demo: Chromium started ${headless ? 'headless' : 'with a window'}, extension ${ext.extensionId}`);
await configure(ext, sim.url, sim.accessKey);
console.log('demo: options saved (service URL and access key)');

const popup = await PopupPage.open(ext);
for (const id of demo) {
  await popup.track(id);
  console.log(`demo: tracking ${id}`);
}

const printed = new Set<string>();
const deadline = Date.now() + 120_000;
while (printed.size < demo.length && Date.now() < deadline) {
  for (const id of demo) {
    if (printed.has(id) || (await notificationIdsFor(ext, id)).length === 0) continue;
    const record = (await readTracked(ext, id)) as { notified?: { title: string; message: string } } | undefined;
    printed.add(id);
    console.log(`🔔 ${record?.notified?.title ?? id}\n   ${(record?.notified?.message ?? '').replace(/\n/g, '\n   ')}`);
  }
  await new Promise((r) => setTimeout(r, 250));
}

if (chains) await printVerification(sim, demo);

mkdirSync(OUT, { recursive: true });
await popup.page.reload();
await popup.row(demo[0]!).waitFor();
await popup.page.screenshot({ path: `${OUT}/popup-list.png`, fullPage: true });
await popup.openReceipt(demo[0]!);
await popup.page.screenshot({ path: `${OUT}/popup-receipt.png`, fullPage: true });
await popup.page.goto(`chrome-extension://${ext.extensionId}/popup.html#intent=${demo[1]}`);
await popup.page.getByRole('heading', { name: /Receipt/ }).waitFor();
await popup.page.screenshot({ path: `${OUT}/popup-receipt-failed.png`, fullPage: true });
console.log(`demo: screenshots in ${OUT}/`);

const ok = printed.size === demo.length;
if (!ok) console.error(`demo: only ${printed.size} of ${demo.length} intents were notified in time`);
if (headless) {
  await ext.close();
  await sim.close();
  removeProfile(profile);
  process.exit(ok ? 0 : 1);
}
console.log('demo: the browser stays open; press Ctrl-C to stop.');
process.on('SIGINT', () => {
  void ext.close().finally(() => {
    void sim.close();
    removeProfile(profile);
    process.exit(0);
  });
});
