// @vitest-environment happy-dom
/**
 * The popup's views against the simulator over real HTTP: loading, lists, empty, error and long-list states.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HistoryTab } from '@/entrypoints/popup/views/HistoryTab';
import { RoutesTab } from '@/entrypoints/popup/views/RoutesTab';
import { SearchTab } from '@/entrypoints/popup/views/SearchTab';
import { StuckTab } from '@/entrypoints/popup/views/StuckTab';
import { SvcClient } from '@/lib/api/client';
import { snapshotAt } from '../../simulator/lifecycle';
import { TERMINAL } from '../../simulator/queries';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
let api: SvcClient;
beforeAll(async () => {
  sim = await startSimulator();
  api = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
});
afterAll(() => sim.close());
afterEach(() => {
  cleanup();
  sim.clearFaults();
});

const noop = () => {};
const rowsIn = (name: string) => within(screen.getByRole('list', { name })).getAllByRole('listitem');
const byIdDesc = () => [...sim.intents()].sort((a, b) => b.numericId - a.numericId);

describe('HistoryTab', () => {
  it('lists the newest 20 first, loads more on demand, and grows into a long list', async () => {
    render(<HistoryTab api={api} now={Date.now()} trackedIds={new Set()} myAddresses={[]} onOpen={noop} onTrack={noop} />);
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    const expected = byIdDesc().map((i) => i.intentId);
    expect(rowsIn('Intent history').map((li) => li.getAttribute('data-intent-id'))).toEqual(expected.slice(0, 20));
    for (let page = 2; page <= 6; page++) {
      fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20 * page));
    }
    expect(rowsIn('Intent history').map((li) => li.getAttribute('data-intent-id'))).toEqual(expected.slice(0, 120));
  });

  it('filters by two statuses at once', async () => {
    render(<HistoryTab api={api} now={Date.now()} trackedIds={new Set()} myAddresses={[]} onOpen={noop} onTrack={noop} />);
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Refunded' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Aborted' }));
    const want = byIdDesc().filter((i) => ['REFUNDED', 'ABORTED'].includes(snapshotAt(i, Date.now()).status));
    await waitFor(() =>
      expect(rowsIn('Intent history').map((li) => li.getAttribute('data-intent-id'))).toEqual(want.slice(0, 20).map((i) => i.intentId)),
    );
    for (const li of rowsIn('Intent history')) expect(li.textContent).toMatch(/Refunded|Aborted/);
  });

  it('keeps an owner address being typed while the list re-renders, and asks for that owner on Enter', async () => {
    const owners = new Map<string, number>();
    for (const i of sim.intents()) owners.set(i.ownerAddress, (owners.get(i.ownerAddress) ?? 0) + 1);
    const [owner] = [...owners.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const want = byIdDesc()
      .filter((i) => i.ownerAddress === owner)
      .map((i) => i.intentId);
    const tab = (now: number) => <HistoryTab api={api} now={now} trackedIds={new Set()} myAddresses={[]} onOpen={noop} onTrack={noop} />;
    const { rerender } = render(tab(Date.now()));
    const field = screen.getByLabelText('Owner address') as HTMLInputElement;
    // Typed while the first page is still on its way: its answer re-renders the tab.
    fireEvent.input(field, { target: { value: owner } });
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    expect(field.value).toBe(owner);
    // The popup's clock ticks (every second while an intent is in flight): the tab re-renders again.
    rerender(tab(Date.now() + 1_000));
    expect(field.value).toBe(owner);
    fireEvent.change(field);
    await waitFor(() => expect(rowsIn('Intent history').map((li) => li.getAttribute('data-intent-id'))).toEqual(want.slice(0, 20)));
  });

  it('empties an owner address typed but not applied when the filters are cleared, and shows a quick pick picked again', async () => {
    const mine = `0x${'4'.repeat(40)}`;
    render(<HistoryTab api={api} now={Date.now()} trackedIds={new Set()} myAddresses={[mine]} onOpen={noop} onTrack={noop} />);
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    const field = screen.getByLabelText('Owner address') as HTMLInputElement;
    fireEvent.input(field, { target: { value: '0xabc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(field.value).toBe(''));
    // The quick pick, then a half-typed other address: picking the same address again shows it again.
    fireEvent.click(screen.getByRole('button', { name: /0x4444/ }));
    await waitFor(() => expect(field.value).toBe(mine));
    fireEvent.input(field, { target: { value: '0xabc' } });
    fireEvent.click(screen.getByRole('button', { name: /0x4444/ }));
    await waitFor(() => expect(field.value).toBe(mine));
  });

  it('keeps a key typed right after the owner is applied or picked (before any effect runs)', async () => {
    const mine = `0x${'4'.repeat(40)}`;
    render(<HistoryTab api={api} now={Date.now()} trackedIds={new Set()} myAddresses={[mine]} onOpen={noop} onTrack={noop} />);
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    const field = screen.getByLabelText('Owner address') as HTMLInputElement;
    // Raw events, one microtask apart: Testing Library's fireEvent would flush Preact's effects in between.
    const ticks = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };
    const type = async (value: string) => {
      field.value = value;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await ticks();
    };
    await type('0xab');
    field.dispatchEvent(new Event('change', { bubbles: true }));
    await ticks();
    await type('0xabc');
    await new Promise((r) => setTimeout(r, 100));
    expect(field.value).toBe('0xabc');
    screen.getByRole('button', { name: /0x4444/ }).dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await ticks();
    await type(`${mine}5`);
    await new Promise((r) => setTimeout(r, 100));
    expect(field.value).toBe(`${mine}5`);
  });

  it('asks once for an owner applied twice, and shows a quick pick pressed only while the field shows it', async () => {
    const mine = `0x${'ab'.repeat(20)}`;
    // Only this tab's requests are counted, as its client sends them: an earlier test's request can still reach the
    // simulator after this test started (issued there, not yet logged), so the simulator's log cannot tell them apart.
    const sent: string[] = [];
    const own = new SvcClient({
      baseUrl: sim.url,
      accessKey: sim.accessKey,
      fetch: (input, init) => {
        sent.push(String(input));
        return fetch(input, init);
      },
    });
    const asked = () => sent.filter((url) => url.endsWith('/GetIntentHistory')).length;
    render(<HistoryTab api={own} now={Date.now()} trackedIds={new Set()} myAddresses={[mine]} onOpen={noop} onTrack={noop} />);
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    const field = screen.getByLabelText('Owner address') as HTMLInputElement;
    const pick = screen.getByRole('button', { name: /0xabab/ });
    fireEvent.input(field, { target: { value: ` ${mine.toUpperCase().replace('0X', '0x')} ` } });
    fireEvent.change(field);
    expect(await screen.findByText('No intents match these filters.')).toBeTruthy();
    expect(asked()).toBe(2);
    // The field shows the applied (trimmed) address; the pick matches it whatever its case.
    expect(pick.getAttribute('aria-pressed')).toBe('true');
    // Applied again (the field left, Enter again): no second query.
    fireEvent.change(field);
    await new Promise((r) => setTimeout(r, 200));
    expect(asked()).toBe(2);
    // Typing something else: the pick is no longer what the field shows.
    fireEvent.input(field, { target: { value: '0xab' } });
    expect(pick.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(pick);
    expect(field.value).toBe(mine);
    expect(pick.getAttribute('aria-pressed')).toBe('true');
  });

  it('says so when nothing matches', async () => {
    render(
      <HistoryTab api={api} now={Date.now()} trackedIds={new Set()} myAddresses={[`0x${'4'.repeat(40)}`]} onOpen={noop} onTrack={noop} />,
    );
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    fireEvent.click(screen.getByRole('button', { name: /0x4444/ }));
    expect(await screen.findByText('No intents match these filters.')).toBeTruthy();
  });

  it('explains a rejected key and offers the settings', async () => {
    const bad = new SvcClient({ baseUrl: sim.url, accessKey: 'wrong' });
    render(<HistoryTab api={bad} now={Date.now()} trackedIds={new Set()} myAddresses={[]} onOpen={noop} onTrack={noop} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('rejected the access key');
    expect(within(alert).getByRole('button', { name: 'Open settings' })).toBeTruthy();
  });

  it('marks tracked rows and tracks with one click', async () => {
    const first = byIdDesc()[0]!.intentId;
    const tracked: string[] = [];
    render(
      <HistoryTab
        api={api}
        now={Date.now()}
        trackedIds={new Set([first])}
        myAddresses={[]}
        onOpen={noop}
        onTrack={(id) => tracked.push(id)}
      />,
    );
    await waitFor(() => expect(rowsIn('Intent history')).toHaveLength(20));
    expect((screen.getByRole('button', { name: `Tracked intent ${first}` }) as HTMLButtonElement).disabled).toBe(true);
    const second = byIdDesc()[1]!.intentId;
    fireEvent.click(screen.getByRole('button', { name: `Track intent ${second}` }));
    expect(tracked).toEqual([second]);
  });
});

describe('SearchTab', () => {
  it('finds an intent by the hash of its destination leg', async () => {
    const now = Date.now();
    const target = byIdDesc().find((i) => {
      const r = snapshotAt(i, now).receipt as { destinationTransaction?: { txnHash: string } };
      return r.destinationTransaction && !/0{10,}$/.test(r.destinationTransaction.txnHash);
    })!;
    const hash = (snapshotAt(target, now).receipt as { destinationTransaction: { txnHash: string } }).destinationTransaction.txnHash;
    render(<SearchTab api={api} trackedIds={new Set()} onOpen={noop} onTrack={noop} />);
    fireEvent.input(screen.getByLabelText('Search intents'), { target: { value: hash } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(rowsIn('Search results').map((li) => li.getAttribute('data-intent-id'))).toEqual([target.intentId]));
    expect(screen.getByText('Price impact')).toBeTruthy();
  });

  it('says when nothing matches, and what to type when the box is empty', async () => {
    render(<SearchTab api={api} trackedIds={new Set()} onOpen={noop} onTrack={noop} />);
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Type an intent ID');
    fireEvent.input(screen.getByLabelText('Search intents'), { target: { value: 'zzzz-nothing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(/No intent matches/)).toBeTruthy();
  });

  it('explains a proxy error page', async () => {
    sim.injectFault({ kind: 'html502' }, 'SearchIntents');
    render(<SearchTab api={api} trackedIds={new Set()} onOpen={noop} onTrack={noop} />);
    fireEvent.input(screen.getByLabelText('Search intents'), { target: { value: 'abc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toContain('not the service');
  });
});

describe('StuckTab', () => {
  it('lists exactly the recoverable intents, with balances in display units and USD', async () => {
    const now = Date.now();
    const want = byIdDesc().filter((i) => i.balance && TERMINAL.includes(snapshotAt(i, now).status));
    render(<StuckTab api={api} onOpen={noop} />);
    await waitFor(() => expect(rowsIn('Intents with recoverable funds')).toHaveLength(want.length));
    expect(rowsIn('Intents with recoverable funds').map((li) => li.getAttribute('data-intent-id'))).toEqual(want.map((i) => i.intentId));
    expect(screen.getByText(/recoverable/)).toBeTruthy();
    expect(rowsIn('Intents with recoverable funds')[0]!.textContent).toMatch(/\$[\d,]+\.\d\d/);
  });

  it('offers a retry after an error', async () => {
    sim.injectFault({ kind: 'http500' }, 'GetIntentHistory');
    render(<StuckTab api={api} onOpen={noop} />);
    const alert = await screen.findByRole('alert');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(rowsIn('Intents with recoverable funds').length).toBeGreaterThan(0));
  });
});

describe('RoutesTab', () => {
  it('lists featured tokens first for a known token, and "No route found" for an unknown one', async () => {
    render(<RoutesTab api={api} />);
    fireEvent.change(screen.getByLabelText('Token to receive'), { target: { value: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find routes' }));
    await waitFor(() => expect(rowsIn('Tokens you can pay with').length).toBeGreaterThan(5));
    const featured = rowsIn('Tokens you can pay with').map((li) => li.getAttribute('data-featured'));
    expect(featured.indexOf('no')).toBeGreaterThan(0);
    expect(featured.slice(featured.indexOf('no'))).not.toContain('yes');

    fireEvent.change(screen.getByLabelText('Token to receive'), { target: { value: 'paste' } });
    fireEvent.input(screen.getByLabelText('Token address'), { target: { value: `0x${'5'.repeat(40)}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Find routes' }));
    expect(await screen.findByText(/No route found/)).toBeTruthy();
  });

  it('refuses a malformed pasted address with a clear message', async () => {
    render(<RoutesTab api={api} />);
    fireEvent.change(screen.getByLabelText('Token to receive'), { target: { value: 'paste' } });
    fireEvent.input(screen.getByLabelText('Token address'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find routes' }));
    expect((await screen.findByRole('alert')).textContent).toContain('must be a 0x address');
  });
});
