/**
 * On-chain verification end to end in Chromium (issue 28), against the simulator on two real local chains (anvil
 * with the chain ids of Arbitrum One and Base, started by this file, a block every 500 ms on each): verification is
 * turned on for both chains in the options page (each chain's RPC URL replaced by its anvil's, a small finality
 * depth); a chain intent tracked from the popup becomes "Verified on-chain" with each leg's words in its receipt; a
 * destination that moved less than the receipt says is one desktop notification, once; a destination re-orged away
 * after the service said SUCCEEDED and the receipt showed it confirmed is one notification too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { recordedNotifications, recordNotifications } from '../../drivers/fixtures/notifications';
import { Owned } from '../../drivers/fixtures/owned';
import { startVirtualDisplay, type VirtualDisplay } from '../../drivers/fixtures/xvfb';
import { PopupPage } from '../../drivers/pages/popup';
import { ChainWorld } from '../../simulator/chains';
import type { SimulatorOptions } from '../../simulator/server';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const short = (intentId: string) => `${intentId.slice(0, 6)}…${intentId.slice(-4)}`;

// The local chains come first: the simulator of `useConfiguredExtension` plays its chain intents on them.
// A window on a virtual display: the browser's host-permission prompt for the RPC origin is answered by keyboard.
const simOptions: SimulatorOptions = { stepMs: 2500 };
let world: ChainWorld | undefined;
let screen: VirtualDisplay | undefined;
const chainsAndDisplay = new Owned();
beforeAll(async () => {
  screen = await chainsAndDisplay.own('the virtual display', await startVirtualDisplay(), (s) => s.close());
  world = await chainsAndDisplay.own('the local chains', await ChainWorld.start(), (w) => w.close());
  world.mineEvery(500);
  simOptions.chains = world;
});
// Registered before the fixture's, so that it runs after it (vitest runs `afterAll` hooks last-registered first): the
// browser is closed while its display and its chains still stand. Closed first, the display took the browser down
// under it, and the fixture's close failed ("Target page, context or browser has been closed"), under load.
afterAll(() => chainsAndDisplay.closeAll());
const ctx = useConfiguredExtension(simOptions, () => screen!.display);

/** Whether the extension holds the host permission of `pattern` (asked in the worker). */
const granted = async (pattern: string) => (await ctx.ext.worker()).evaluate((p) => chrome.permissions.contains({ origins: [p] }), pattern);

/** Turns verification on for both chains in the options page, on their anvils, final after `depth` confirmations. */
async function verifyOn(depth: { arbitrum: number; base: number }) {
  const urls = ctx.sim.rpcUrls();
  const options = await ctx.ext.openPage('options.html');
  await expect.poll(() => options.getByLabel('Service URL').inputValue()).not.toBe('');
  for (const [name, id, d] of [
    ['Arbitrum One', 42161, depth.arbitrum],
    ['Base', 8453, depth.base],
  ] as const) {
    await options.getByRole('checkbox', { name: `Verify on ${name}` }).check();
    await options.locator(`#chain-rpc-${id}`).fill(urls[id]!);
    await options.locator(`#chain-depth-${id}`).fill(String(d));
  }
  await options.getByRole('button', { name: 'Save' }).click();
  if (!(await granted('http://127.0.0.1/*'))) {
    // Chrome's "Add permissions" dialog for http://127.0.0.1 (both anvils' origin, whatever the port).
    await sleep(1500);
    screen!.press('Tab', 'Return');
    await sleep(1000);
  }
  await expect.poll(() => options.getByTestId('chain-status').textContent(), { timeout: 15_000 }).toBe('On-chain verification saved.');
  await options.close();
}

/** The chain notifications recorded for `intentId` (title "On-chain check of 0x1234…abcd"). */
async function chainNotices(intentId: string) {
  return (await recordedNotifications(ctx.ext)).filter((n) => n.op === 'create' && n.title === `On-chain check of ${short(intentId)}`);
}

describe('on-chain verification', () => {
  it('verifies a chain intent on both chains, and tells once that a smaller amount arrived', async () => {
    await verifyOn({ arbitrum: 3, base: 3 });
    await recordNotifications(ctx.ext);
    const good = ctx.sim.createIntent('chain-success');
    const smaller = ctx.sim.createIntent('chain-smaller');
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(good);
    await popup.track(smaller);

    // "Verified on-chain" once the destination leg is final on Base with the amount the receipt says.
    await expect.poll(() => popup.row(good).textContent(), { timeout: 90_000, interval: 1_000 }).toContain('Verified on-chain');
    await popup.openReceipt(good);
    const words = (kind: 'deposit' | 'origin' | 'destination') => popup.leg(kind).locator('[data-testid="leg-verification"]').textContent();
    await expect
      .poll(() => words('destination'), { timeout: 90_000, interval: 1_000 })
      .toMatch(/^Final on Base · block [\d,]+ · \d+ confirmations/);
    expect((await words('destination'))?.toLowerCase()).toContain('received 249.10 usdc at 0x7099…79c8');
    // Both intents' Arbitrum One legs share that RPC origin's budget: a leg left without a verdict for want of budget
    // is asked again when the budget refills, though the receipt's other legs are final.
    await expect
      .poll(() => words('origin'), { timeout: 90_000, interval: 1_000 })
      .toMatch(/^Final on Arbitrum One · block [\d,]+ · \d+ confirmations$/);
    await expect.poll(() => words('deposit'), { timeout: 90_000, interval: 1_000 }).toMatch(/^Final on Arbitrum One · block /);
    await popup.page.getByRole('button', { name: '← Back' }).click();

    // 200 USDC arrived where the receipt says 249.10: told once, and the row is never "verified".
    await expect.poll(async () => (await chainNotices(smaller)).length, { timeout: 90_000, interval: 1_000 }).toBe(1);
    const [notice] = await chainNotices(smaller);
    expect(notice?.message?.split('\n')[0]).toBe('The service says succeeded, but a different amount arrived on Base');
    // More blocks and more checks do not tell it again.
    await sleep(10_000);
    expect(await chainNotices(smaller)).toHaveLength(1);
    expect(await chainNotices(good)).toHaveLength(0);
    expect(await popup.row(smaller).textContent()).not.toContain('Verified on-chain');
    // Its Arbitrum One legs are final too (the legs that lost the budget to the other intent's are not left behind).
    await popup.openReceipt(smaller);
    await expect.poll(() => words('origin'), { timeout: 60_000, interval: 1_000 }).toMatch(/^Final on Arbitrum One · block /);
    await expect.poll(() => words('deposit'), { timeout: 60_000, interval: 1_000 }).toMatch(/^Final on Arbitrum One · block /);
    await popup.close();
  });

  it('tells that the destination was re-orged out after the service said SUCCEEDED', async () => {
    // 6 on Base: a leg seen with 1 of 6 confirmations is checked again when the missing ones should be there at 2 s a
    // Base block (the cadence's figure), ≈ 11 s later. It cannot become final before the re-org: Base's blocks are held
    // until then.
    await verifyOn({ arbitrum: 3, base: 6 });
    await recordNotifications(ctx.ext);
    // The re-org comes once the extension has shown the destination confirmed, not on the simulator's clock: a re-org
    // before the worker's first read is "not found", never "re-orged out" — and under load that read came late. No
    // block is added on Base meanwhile, so that a late first read finds it confirmed, not final.
    world!.holdBlocks(8453, true);
    const id = ctx.sim.createIntent('chain-success');
    const popup = await PopupPage.open(ctx.ext);
    await popup.track(id);
    await popup.openReceipt(id);
    const destination = async () =>
      world?.errors.length
        ? `chain errors: ${world.errors.join('; ')}`
        : popup.leg('destination').locator('[data-testid="leg-verification"]').textContent();
    await expect.poll(destination, { timeout: 60_000, interval: 500 }).toMatch(/^Confirmed on Base · block /);
    await world!.reorgDestination(id);
    world!.holdBlocks(8453, false);
    await expect.poll(async () => (await chainNotices(id)).length, { timeout: 90_000, interval: 1_000 }).toBe(1);
    expect((await chainNotices(id))[0]?.message?.split('\n')[0]).toBe('A transaction confirmed on Base was re-orged out');
    await expect.poll(destination, { timeout: 90_000, interval: 1_000 }).toMatch(/^(Re-orged out of Base|Not found on Base)/);
    await popup.close();
    expect(world?.errors ?? []).toEqual([]);
  });
});
