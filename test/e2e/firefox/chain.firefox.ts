/**
 * On-chain verification in Firefox ESR (issue 28), against the simulator on two real local chains (anvil with the
 * chain ids of Arbitrum One and Base, started by this file, a block every 500 ms on each): verification turned on
 * for both chains in the options page (their anvils' RPC URLs; 127.0.0.1's access was granted with the service's,
 * else the add-on's prompt is answered); a chain intent tracked from the popup becomes "Verified on-chain" with the
 * destination's words in its receipt; a destination that moved less than the receipt says is one desktop
 * notification, handed once to the desktop; a destination re-orged away after the service said SUCCEEDED and the
 * receipt showed it confirmed is one too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useConfiguredFirefox } from '../../../drivers/fixtures/launch-firefox';
import { desktopAlerts } from '../../../drivers/fixtures/notifications-firefox';
import { Owned } from '../../../drivers/fixtures/owned';
import { PopupPage } from '../../../drivers/pages/popup';
import { ChainWorld } from '../../../simulator/chains';
import type { SimulatorOptions } from '../../../simulator/server';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The destination leg's on-chain words in the open receipt, or the local chains' errors when there are any. */
async function destinationOrChainErrors(popup: PopupPage) {
  if (world?.errors.length) return `chain errors: ${world.errors.join('; ')}`;
  return popup.leg('destination').locator('[data-testid="leg-verification"]').textContent();
}
const short = (intentId: string) => `${intentId.slice(0, 6)}…${intentId.slice(-4)}`;

// The local chains come first: the simulator of `useConfiguredFirefox` plays its chain intents on them.
const simOptions: SimulatorOptions = { stepMs: 2500 };
let world: ChainWorld | undefined;
const chains = new Owned();
beforeAll(async () => {
  world = await chains.own('the local chains', await ChainWorld.start(), (w) => w.close());
  world.mineEvery(500);
  simOptions.chains = world;
});
const ctx = useConfiguredFirefox(simOptions);
afterAll(() => chains.closeAll());

describe('on-chain verification in Firefox', () => {
  it('verifies a chain intent, and tells once that a smaller amount arrived', async () => {
    const urls = ctx.sim.rpcUrls();
    const options = await ctx.ext.openPage('options.html');
    await options.locator('form[aria-busy="false"]').waitFor(); // the saved settings are in the form
    await expect.poll(() => options.getByLabel('Service URL').count()).toBe(1);
    for (const [name, id] of [
      ['Arbitrum One', 42161],
      ['Base', 8453],
    ] as const) {
      await options.getByRole('checkbox', { name: `Verify on ${name}` }).click();
      await options.locator(`#chain-rpc-${id}`).fill(urls[id]!);
      await options.locator(`#chain-depth-${id}`).fill('3');
    }
    await options.getByRole('button', { name: 'Save' }).click();
    const status = async () =>
      (await options.getByTestId('chain-status').count()) > 0 ? options.getByTestId('chain-status').textContent() : '';
    await sleep(1500);
    if ((await status()) !== 'On-chain verification saved.') await ctx.ext.answerPermissionPrompt(true).catch(() => '');
    await expect.poll(status, { timeout: 15_000 }).toBe('On-chain verification saved.');
    await options.close();

    const good = ctx.sim.createIntent('chain-success');
    const smaller = ctx.sim.createIntent('chain-smaller');
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(good);
    await popup.track(smaller);
    await expect.poll(() => popup.row(good).textContent(), { timeout: 90_000, interval: 1_000 }).toContain('Verified on-chain');
    await popup.openReceipt(good);
    await expect
      .poll(() => popup.leg('destination').locator('[data-testid="leg-verification"]').textContent(), { timeout: 90_000, interval: 1_000 })
      .toMatch(/^Final on Base · block [\d,]+ · \d+ confirmations/);
    const words = (kind: 'deposit' | 'origin') => popup.leg(kind).locator('[data-testid="leg-verification"]').textContent();
    await expect
      .poll(() => words('origin'), { timeout: 90_000, interval: 1_000 })
      .toMatch(/^Final on Arbitrum One · block [\d,]+ · \d+ confirmations$/);
    await expect.poll(() => words('deposit'), { timeout: 90_000, interval: 1_000 }).toMatch(/^Final on Arbitrum One · block /);
    await popup.close();

    const told = async () => (await desktopAlerts(ctx.ext)).filter((a) => a.title === `On-chain check of ${short(smaller)}`);
    await expect.poll(async () => (await told()).length, { timeout: 90_000, interval: 1_000 }).toBe(1);
    expect((await told())[0]?.text.split('\n')[0]).toBe('The service says succeeded, but a different amount arrived on Base');
    expect((await told())[0]?.name.startsWith(`svc-chain:${smaller}:`)).toBe(true);
    await sleep(10_000);
    expect(await told()).toHaveLength(1);
    expect((await desktopAlerts(ctx.ext)).filter((a) => a.title === `On-chain check of ${short(good)}`)).toEqual([]);
    // The other intent's Arbitrum One legs, which shared that RPC origin's budget, are final too: none left behind.
    const second = await PopupPage.open(ctx.ext);
    await second.openReceipt(smaller);
    for (const kind of ['origin', 'deposit'] as const)
      await expect
        .poll(() => second.leg(kind).locator('[data-testid="leg-verification"]').textContent(), { timeout: 60_000, interval: 1_000 })
        .toMatch(/^Final on Arbitrum One · block /);
    await second.close();
  });

  it('tells that the destination was re-orged out after the service said SUCCEEDED', async () => {
    // Base is on from the test before.
    const options = await ctx.ext.openPage('options.html');
    await options.locator('form[aria-busy="false"]').waitFor(); // the saved settings are in the form
    await expect.poll(() => options.locator('#chain-depth-8453').count()).toBe(1);
    // 6: a leg seen with 1 of 6 confirmations is checked again when the missing ones should be there at 2 s a Base block
    // (the cadence's figure), ≈ 11 s later. It cannot become final before the re-org: Base's blocks are held until then.
    await options.locator('#chain-depth-8453').fill('6');
    await options.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => ((await options.getByTestId('chain-status').count()) > 0 ? options.getByTestId('chain-status').textContent() : ''))
      .toBe('On-chain verification saved.');
    await options.close();
    // The re-org comes once the extension has shown the destination confirmed, not on the simulator's clock: a re-org
    // before the worker's first read is "not found", never "re-orged out" — and under load that read came late. No
    // block is added on Base meanwhile, so that a late first read finds it confirmed, not final.
    world!.holdBlocks(8453, true);
    const id = ctx.sim.createIntent('chain-success');
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(id);
    await popup.openReceipt(id);
    await expect.poll(() => destinationOrChainErrors(popup), { timeout: 60_000, interval: 500 }).toMatch(/^Confirmed on Base · block /);
    await world!.reorgDestination(id);
    world!.holdBlocks(8453, false);
    const told = async () => (await desktopAlerts(ctx.ext)).filter((a) => a.title === `On-chain check of ${short(id)}`);
    await expect.poll(async () => (await told()).length, { timeout: 100_000, interval: 1_000 }).toBe(1);
    expect((await told())[0]?.text.split('\n')[0]).toBe('A transaction confirmed on Base was re-orged out');
    await popup.close();
    expect(world?.errors ?? []).toEqual([]);
  });
});
