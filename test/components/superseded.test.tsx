// @vitest-environment happy-dom
/**
 * No superseded answer reaches a list: each lookup tab against the simulator over HTTP, with every request held at a
 * gate until the test lets it through, so that answers arrive in the order the test chooses. What is checked is what
 * the user sees (the rows, the list's `data-query`) and what the service was asked (the requests that passed the
 * gate), never the components' state.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HistoryTab } from '@/entrypoints/popup/views/HistoryTab';
import { RoutesTab } from '@/entrypoints/popup/views/RoutesTab';
import { SearchTab } from '@/entrypoints/popup/views/SearchTab';
import { StuckTab } from '@/entrypoints/popup/views/StuckTab';
import { SvcClient } from '@/lib/api/client';
import type { LookupApi } from '@/lib/api/lookup';
import type { GetIntentHistoryRequest } from '@/lib/api/schemas/history';
import { snapshotAt } from '../../simulator/lifecycle';
import { TERMINAL } from '../../simulator/queries';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
let client: SvcClient;
beforeAll(async () => {
  sim = await startSimulator();
  client = new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey });
});
afterAll(() => sim.close());
afterEach(() => cleanup());

type Operation = 'getIntentHistory' | 'searchIntents' | 'getExactOutputRoutes';

/** A request held at the gate: what was asked, and how to let it through (to the simulator) or answer it otherwise. */
interface Held {
  operation: Operation;
  request: Record<string, unknown>;
  release(): Promise<void>;
  answerWith(answer: unknown): Promise<void>;
}

/** The client behind a gate: every lookup waits until the test releases it; prices pass (USD is not under test). */
function gated(): { api: LookupApi; held: Held[]; next: (operation: Operation) => Promise<Held> } {
  const held: Held[] = [];
  const seen = new Set<Held>();
  const hold =
    (operation: Operation) =>
    (request: unknown): Promise<never> =>
      new Promise((resolve, reject) => {
        const call = async () => (client[operation] as (r: unknown) => Promise<unknown>).call(client, request);
        held.push({
          operation,
          request: request as Record<string, unknown>,
          release: async () => {
            await act(async () => {
              await call().then(resolve as (v: unknown) => void, reject);
            });
          },
          answerWith: async (answer) => {
            await act(async () => {
              (resolve as (v: unknown) => void)(answer);
            });
          },
        });
      });
  const api: LookupApi = {
    getIntentHistory: hold('getIntentHistory'),
    searchIntents: hold('searchIntents'),
    getExactOutputRoutes: hold('getExactOutputRoutes'),
    getTokenPrices: (request) => client.getTokenPrices(request),
  };
  /** The next request of `operation` not yet handed out, once the component has sent it. */
  const next = async (operation: Operation) => {
    let found: Held | undefined;
    await waitFor(() => {
      found = held.find((h) => h.operation === operation && !seen.has(h));
      expect(found, `a ${operation} request`).toBeDefined();
    });
    seen.add(found!);
    return found!;
  };
  return { api, held, next };
}

const noop = () => {};
/** Lets what an answer started (the components' async continuations) run to its end. */
const settle = () =>
  act(async () => {
    await new Promise((r) => setTimeout(r, 50));
  });
const list = (name: string) => screen.getByRole('list', { name });
const ids = (name: string) =>
  within(list(name))
    .getAllByRole('listitem')
    .map((li) => li.getAttribute('data-intent-id'));
const newestFirst = (status?: string, owner?: string) =>
  [...sim.intents()]
    .filter(
      (i) => (status === undefined || snapshotAt(i, Date.now()).status === status) && (owner === undefined || i.ownerAddress === owner),
    )
    .sort((a, b) => b.numericId - a.numericId)
    .map((i) => i.intentId);
const ownerWithMost = () => {
  const counts = new Map<string, number>();
  for (const i of sim.intents()) counts.set(i.ownerAddress, (counts.get(i.ownerAddress) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
};
/** The History query a component sent, as the service received it. */
const historyOf = (h: Held) => h.request as GetIntentHistoryRequest;

function renderHistory(api: LookupApi) {
  render(<HistoryTab api={api} now={Date.now()} trackedIds={new Set()} myAddresses={[]} onOpen={noop} onTrack={noop} />);
}

describe('History: only the query on screen', () => {
  it('drops the first query’s answer when it arrives after the answer to the filter that replaced it', async () => {
    const gate = gated();
    renderHistory(gate.api);
    const unfiltered = await gate.next('getIntentHistory');
    const owner = ownerWithMost();
    fireEvent.click(screen.getByText('Filters'));
    fireEvent.input(screen.getByLabelText('Owner address'), { target: { value: owner } });
    fireEvent.change(screen.getByLabelText('Owner address'), { target: { value: owner } });
    const byOwner = await gate.next('getIntentHistory');
    expect(historyOf(byOwner).byOwnerAddress).toBe(owner);

    await byOwner.release();
    await unfiltered.release();
    await settle();
    expect(ids('Intent history')).toEqual(newestFirst(undefined, owner).slice(0, 20));
    expect(list('Intent history').getAttribute('data-query')).toContain(owner);
    expect(list('Intent history').getAttribute('aria-busy')).toBe('false');
  });

  it('drops a "Load more" page of the old query when the filter changed before it arrived, and pages the new query with its own cursor', async () => {
    const gate = gated();
    renderHistory(gate.api);
    await (await gate.next('getIntentHistory')).release();
    expect(ids('Intent history')).toEqual(newestFirst().slice(0, 20));

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    const oldMore = await gate.next('getIntentHistory');
    fireEvent.click(screen.getByText('Filters'));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Failed' }));
    const failed = await gate.next('getIntentHistory');
    expect(historyOf(failed).byStatus).toBe('FAILED');
    const firstPage = await client.getIntentHistory(historyOf(failed));
    await failed.release();
    await oldMore.release();
    await settle();
    const want = newestFirst('FAILED');
    expect(want.length).toBeGreaterThan(20);
    expect(ids('Intent history')).toEqual(want.slice(0, 20));

    // "Load more" now continues the FAILED query, from the FAILED answer's cursor.
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    const more = await gate.next('getIntentHistory');
    expect(historyOf(more).byStatus).toBe('FAILED');
    const cursor = Object.fromEntries(Object.entries(firstPage.nextPage ?? {}).filter(([, v]) => v !== null));
    expect(historyOf(more).page).toMatchObject(cursor);
    await more.release();
    expect(ids('Intent history')).toEqual(want.slice(0, 40));
  });

  it('sends nothing for a "Load more" pressed in the frame in which a filter change starts its query', async () => {
    const gate = gated();
    renderHistory(gate.api);
    await (await gate.next('getIntentHistory')).release();
    // The button as it was on screen when the user pressed it: the filter change below re-renders the tab (the list is
    // about to be replaced, so the button goes) before the click is handled.
    const loadMore = screen.getByRole('button', { name: 'Load more' });
    fireEvent.click(screen.getByText('Filters'));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Failed' }));
    fireEvent.click(loadMore);
    const failed = await gate.next('getIntentHistory');
    await failed.release();
    await settle();
    for (const h of gate.held.filter((h) => h !== failed && historyOf(h).byStatus === 'FAILED')) await h.release();
    expect(
      gate.held.filter((h) => historyOf(h).byStatus === 'FAILED').map((h) => historyOf(h).page?.after ?? historyOf(h).page?.before),
    ).toEqual([undefined]);
    expect(ids('Intent history')).toEqual(newestFirst('FAILED').slice(0, 20));
  });
});

describe('Search: only the latest search', () => {
  it('shows the second search’s results even when the first search answers last', async () => {
    const gate = gated();
    render(<SearchTab api={gate.api} trackedIds={new Set()} onOpen={noop} onTrack={noop} />);
    const [first, second] = [...sim.intents()].sort((a, b) => b.numericId - a.numericId);
    fireEvent.input(screen.getByLabelText('Search intents'), { target: { value: first!.intentId } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    // An intentId is asked as an intentId and as a transaction hash: two requests a search.
    const one = [await gate.next('searchIntents'), await gate.next('searchIntents')];
    // The button is disabled while a search runs: a second search is submitted with Enter in the box.
    fireEvent.input(screen.getByLabelText('Search intents'), { target: { value: second!.intentId } });
    fireEvent.submit(screen.getByLabelText('Search intents').closest('form')!);
    const two = [await gate.next('searchIntents'), await gate.next('searchIntents')];
    expect(two.map((h) => h.request.byIntentId ?? h.request.byTransactionHash)).toEqual([second!.intentId, second!.intentId]);
    for (const h of two) await h.release();
    for (const h of one) await h.release();
    await settle();
    expect(ids('Search results')).toEqual([second!.intentId]);
    expect(list('Search results').getAttribute('data-query')).toBe(JSON.stringify(second!.intentId));
  });
});

describe('Stuck funds: only the current connection', () => {
  it('drops the answer of the connection that was replaced', async () => {
    const before = gated();
    const after = gated();
    const released = new Set<Held>();
    const { rerender } = render(<StuckTab api={before.api} onOpen={noop} />);
    const old = await before.next('getIntentHistory');
    rerender(<StuckTab api={after.api} onOpen={noop} />);
    // The current connection's answer, page by page (the tab follows nextPage).
    for (let page = await after.next('getIntentHistory'); ; ) {
      await page.release();
      await settle();
      const more = after.held.find((h) => !released.has(h) && h !== page);
      released.add(page);
      if (!more) break;
      page = more;
    }
    // The replaced connection answers last, with nothing recoverable.
    await old.answerWith({ intents: [], nextPage: null });
    await settle();
    const want = [...sim.intents()]
      .filter((i) => i.balance && TERMINAL.includes(snapshotAt(i, Date.now()).status))
      .sort((a, b) => b.numericId - a.numericId)
      .map((i) => i.intentId);
    expect(want.length).toBeGreaterThan(0);
    expect(ids('Intents with recoverable funds')).toEqual(want);
  });
});

describe('Routes: only the latest request', () => {
  it('shows the routes to the token asked last even when the earlier request answers last', async () => {
    const gate = gated();
    render(<RoutesTab api={gate.api} />);
    fireEvent.change(screen.getByLabelText('Token to receive'), { target: { value: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find routes' }));
    const usdc = await gate.next('getExactOutputRoutes');
    fireEvent.change(screen.getByLabelText('Token to receive'), { target: { value: '0x0000000000000000000000000000000000000000' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Find routes' }).closest('form')!);
    const eth = await gate.next('getExactOutputRoutes');
    const want = (await client.getExactOutputRoutes(eth.request as never)).tokens.map((t) => t.symbol);
    const usdcWant = (await client.getExactOutputRoutes(usdc.request as never)).tokens.map((t) => t.symbol);
    expect(want).not.toEqual(usdcWant);
    await eth.release();
    await usdc.release();
    await settle();
    const shown = within(list('Tokens you can pay with'))
      .getAllByRole('listitem')
      .map((li) => li.getAttribute('data-symbol'));
    expect(shown).toEqual(want);
    expect(list('Tokens you can pay with').getAttribute('data-query')).toContain(
      '"destinationTokenAddress":"0x0000000000000000000000000000000000000000"',
    );
  });
});
