/**
 * The popup as a place to look anything up, in Chromium against the simulator's data set: history paging and
 * filters, search by a destination-leg hash, stuck funds, and routes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useConfiguredExtension } from '../../drivers/fixtures/launch';
import { PopupPage } from '../../drivers/pages/popup';
import { NO_FILTERS } from '../../lib/query/history-filters';
import { queryKey } from '../../lib/query/query-key';
import { intentWithDestinationHash } from '../../simulator/find';
import { snapshotAt } from '../../simulator/lifecycle';
import { TERMINAL } from '../../simulator/queries';

const ctx = useConfiguredExtension();
let popup: PopupPage<Page>;

const ids = async (list: string) =>
  popup.page
    .getByRole('list', { name: list })
    .locator(':scope > li')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-intent-id')));

describe('looking things up in the popup', () => {
  it("pages through all of one owner's history and sees every intent exactly once", async () => {
    const owners = new Map<string, number>();
    for (const i of ctx.sim.intents()) owners.set(i.ownerAddress, (owners.get(i.ownerAddress) ?? 0) + 1);
    const [owner] = [...owners.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const expected = ctx.sim
      .intents()
      .filter((i) => i.ownerAddress === owner)
      .sort((a, b) => b.numericId - a.numericId)
      .map((i) => i.intentId);
    expect(expected.length).toBeGreaterThan(20);

    popup = await PopupPage.open(ctx.ext);
    await popup.page.getByRole('tab', { name: 'History' }).click();
    await popup.page.getByText('Filters', { exact: true }).click();
    await popup.page.getByLabel('Owner address').fill(owner);
    await popup.page.getByLabel('Owner address').press('Enter');
    await popup.page.getByLabel('Owner address').blur();
    // The list shows the owner's query (its data-query), answered: the unfiltered list never counts.
    const byOwner = queryKey({ ...NO_FILTERS, ownerAddress: owner });
    await popup.results('History', byOwner);
    while (await popup.page.getByRole('button', { name: 'Load more' }).isVisible()) {
      const before = (await ids('Intent history')).length;
      await popup.page.getByRole('button', { name: 'Load more' }).click();
      // More rows than before, of the same query, and nothing in flight.
      await expect.poll(async () => (await ids('Intent history')).length).toBeGreaterThan(before);
      await popup.results('History', byOwner);
    }
    const seen = await ids('Intent history');
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('filters by two statuses', async () => {
    await popup.page.getByRole('button', { name: 'Clear filters' }).click();
    await popup.page.getByRole('checkbox', { name: 'Failed' }).check();
    await popup.page.getByRole('checkbox', { name: 'Refunded' }).check();
    await popup.results('History', queryKey({ ...NO_FILTERS, statuses: ['FAILED', 'REFUNDED'] }));
    const now = ctx.sim.now();
    const want = ctx.sim
      .intents()
      .filter((i) => ['FAILED', 'REFUNDED'].includes(snapshotAt(i, now).status))
      .sort((a, b) => b.numericId - a.numericId)
      .slice(0, 20)
      .map((i) => i.intentId);
    expect(await ids('Intent history')).toEqual(want);
    await popup.page.screenshot({ path: '.output/e2e/history.png' });
  });

  it('finds an intent by the hash of its destination leg and shows its quote summary', async () => {
    const { intentId: targetId, hash } = intentWithDestinationHash(ctx.sim);
    const target = { intentId: targetId };
    await popup.page.getByRole('tab', { name: 'Search' }).click();
    await popup.page.getByLabel('Search intents').fill(hash);
    await popup.page.getByRole('button', { name: 'Search', exact: true }).click();
    await popup.results('Search', queryKey(hash));
    expect(await ids('Search results')).toEqual([target.intentId]);
    await expect.poll(() => popup.page.getByRole('list', { name: 'Search results' }).textContent()).toContain('Price impact');
    await popup.page.screenshot({ path: '.output/e2e/search.png' });
    // One click tracks it; the receipt opens from the result.
    await popup.page.getByRole('button', { name: `Track intent ${target.intentId}` }).click();
    await expect.poll(() => popup.page.getByRole('button', { name: `Tracked intent ${target.intentId}` }).count()).toBe(1);
    await popup.page.getByRole('button', { name: `Open receipt of intent ${target.intentId}` }).click();
    await expect.poll(() => popup.page.locator('li[data-leg="destination"] a').getAttribute('href')).toContain(hash);
    await popup.page.screenshot({ path: '.output/e2e/receipt.png', fullPage: true });
    await popup.page.getByRole('button', { name: '← Back' }).click();
  });

  it('lists exactly the recoverable intents under Stuck funds', async () => {
    const now = ctx.sim.now();
    const want = ctx.sim
      .intents()
      .filter((i) => i.balance && TERMINAL.includes(snapshotAt(i, now).status))
      .sort((a, b) => b.numericId - a.numericId)
      .map((i) => i.intentId);
    expect(want.length).toBeGreaterThan(0);
    await popup.page.getByRole('tab', { name: 'Stuck funds' }).click();
    await popup.results('Stuck funds');
    expect(await ids('Intents with recoverable funds')).toEqual(want);
  });

  it('lists featured tokens first for a route to a known token', async () => {
    await popup.page.getByRole('tab', { name: 'Routes' }).click();
    await popup.page.getByLabel('Receive on').selectOption({ label: 'Base' });
    await popup.page.getByLabel('Token to receive').selectOption({ label: 'USDC' });
    await popup.page.getByRole('button', { name: 'Find routes' }).click();
    await popup.results('Routes');
    const list = popup.page.getByRole('list', { name: 'Tokens you can pay with' });
    const featured = await list.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-featured')));
    const firstPlain = featured.indexOf('no');
    expect(firstPlain).toBeGreaterThan(0);
    expect(featured.slice(firstPlain)).not.toContain('yes');
    expect(await list.locator('li').first().getAttribute('data-symbol')).toBe('USDC');
    await popup.close();
  });
});
