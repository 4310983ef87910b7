// @vitest-environment happy-dom
/**
 * The tracked list at 5,000: a window of rows rendered (not 5,000), each telling its place in the whole list; a scroll
 * renders the rows in view; search and filter narrow the list; a short list stays a plain list. Also the window's
 * arithmetic (binary search over row offsets).
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rowAt, visibleRange, WindowedList } from '@/components/WindowedList';
import { TrackedList, WINDOW_ABOVE } from '@/entrypoints/popup/views/TrackedList';
import { TrackedTab } from '@/entrypoints/popup/views/TrackedTab';
import type { TrackedIntent } from '@/lib/store';

const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const intent = (n: number): TrackedIntent => ({
  intentId: hex(n),
  addedAt: 10_000 - n,
  lastStates: [],
  phase: n % 10 === 0 ? 'tracking' : 'final',
  status: n % 10 === 0 ? 'EXECUTING' : 'SUCCEEDED',
  notification: n % 10 === 0 ? 'none' : 'shown',
});
const noop = () => {};

afterEach(cleanup);

describe('window arithmetic', () => {
  const offsets = Float64Array.from([0, 50, 150, 160, 400]);
  it('finds the row at a height', () => {
    expect([0, 49, 50, 151, 160, 399, 10_000].map((y) => rowAt(offsets, y))).toEqual([0, 0, 1, 2, 3, 3, 4]);
  });
  it('gives the rows in view with the margin, and the padding standing in for the others', () => {
    expect(visibleRange(offsets, 100, 30, 0)).toEqual({ start: 1, end: 2, top: 50, bottom: 250 });
    expect(visibleRange(offsets, 100, 70, 0)).toEqual({ start: 1, end: 4, top: 50, bottom: 0 });
    expect(visibleRange(offsets, 0, 1_000, 0)).toEqual({ start: 0, end: 4, top: 0, bottom: 0 });
    expect(visibleRange(Float64Array.from([0]), 0, 100)).toEqual({ start: 0, end: 0, top: 0, bottom: 0 });
  });
});

describe('measuring rows', () => {
  it('settles when sub-pixel heights flip between renders (Firefox hung re-measuring in a loop)', async () => {
    const reads = new WeakMap<Element, number>();
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const n = (reads.get(this) ?? 0) + 1;
      reads.set(this, n);
      // A row read as 66 or 69 px by turns: every pass "changes" every height it measures.
      return { height: n % 2 ? 66 : 69, width: 300, top: 0, left: 0, right: 300, bottom: 0, x: 0, y: 0, toJSON: () => ({}) };
    });
    let renders = 0;
    const items = Array.from({ length: 200 }, (_, i) => i);
    render(
      <WindowedList
        items={items}
        keyOf={String}
        renderItem={(i) => {
          renders++;
          return <li key={i}>{i}</li>;
        }}
        estimate={60}
        height={300}
        label="Rows"
      />,
    );
    await new Promise((r) => setTimeout(r, 300));
    const settled = renders;
    await new Promise((r) => setTimeout(r, 300));
    expect(renders).toBe(settled);
    expect(renders).toBeLessThan(200);
    rect.mockRestore();
  });
});

describe('the tracked list at 5,000', () => {
  const intents = Array.from({ length: 5_000 }, (_, i) => intent(i));
  const list = () => screen.getByRole('list', { name: 'Tracked intents' });

  it('renders a window of rows, in flight first, each with its place in the whole list', () => {
    render(
      <TrackedTab
        intents={intents}
        now={20_000}
        busy={false}
        onAcceptSuggestion={noop}
        onDismissSuggestion={noop}
        onClearFinished={noop}
        onTrack={async () => undefined}
        onTrackClipboard={noop}
        onOpen={noop}
        onImported={async () => {}}
        onRemove={noop}
      />,
    );
    const rows = within(list()).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]?.getAttribute('data-intent-id')).toBe(hex(0));
    expect(rows[1]?.getAttribute('data-intent-id')).toBe(hex(10));
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('5000');
    expect(rows[1]?.getAttribute('aria-posinset')).toBe('2');
  });

  it('renders the rows in view after a scroll', () => {
    render(<TrackedList intents={intents} now={20_000} onOpen={noop} onRemove={noop} />);
    const ul = list();
    ul.scrollTop = 76 * 4_000;
    fireEvent.scroll(ul);
    const rows = within(ul).getAllByRole('listitem');
    expect(rows.length).toBeLessThan(40);
    const first = Number(rows[0]?.getAttribute('aria-posinset'));
    expect(first).toBeGreaterThan(3_900);
    expect(first).toBeLessThanOrEqual(4_001);
  });

  it('narrows to the intents a search and a filter keep, and says how many of how many', () => {
    render(<TrackedList intents={intents} now={20_000} onOpen={noop} onRemove={noop} />);
    fireEvent.input(screen.getByRole('searchbox', { name: 'Search tracked intents' }), { target: { value: hex(4_321) } });
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((r) => r.getAttribute('data-intent-id')),
    ).toEqual([hex(4_321)]);
    expect(screen.getByTestId('tracked-count').textContent).toBe('Showing 1 of 5000.');
    fireEvent.input(screen.getByRole('searchbox', { name: 'Search tracked intents' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Show' }), { target: { value: 'in-flight' } });
    expect(screen.getByTestId('tracked-count').textContent).toBe('Showing 500 of 5000.');
    expect(within(list()).getAllByRole('listitem')[0]?.getAttribute('aria-setsize')).toBe('500');
  });

  it('keeps a short list plain: every row rendered, no search box', () => {
    render(<TrackedList intents={intents.slice(0, WINDOW_ABOVE - 40)} now={20_000} onOpen={noop} onRemove={noop} />);
    expect(within(list()).getAllByRole('listitem')).toHaveLength(WINDOW_ABOVE - 40);
    expect(screen.queryByRole('searchbox')).toBeNull();
  });
});
