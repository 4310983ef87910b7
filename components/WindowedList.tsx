import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';

/** Pixels rendered beyond the visible part, above and below, so that a quick scroll shows rows at once. */
const OVERSCAN_PX = 400;
/** Measuring passes (re-renders after a row's height changed) at most between two scrolls or list changes. */
const MAX_MEASURE_PASSES = 3;

/**
 * The index of the last row starting at or before `y` (px), given the rows' start offsets (ascending, `offsets[0]`
 * 0). Binary search: O(log n).
 */
export function rowAt(offsets: ArrayLike<number>, y: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/**
 * The rows to render for a scroll position: `offsets` (n + 1 entries: each row's start, then the total height, px),
 * the scroll position and the visible height. Returns `[start, end)`, the padding above and below them.
 */
export function visibleRange(
  offsets: ArrayLike<number>,
  scrollTop: number,
  viewport: number,
  overscan = OVERSCAN_PX,
): { start: number; end: number; top: number; bottom: number } {
  const n = offsets.length - 1;
  if (n <= 0) return { start: 0, end: 0, top: 0, bottom: 0 };
  const total = offsets[n] ?? 0;
  const start = Math.min(n - 1, rowAt(offsets, Math.max(0, scrollTop - overscan)));
  const end = Math.min(n, rowAt(offsets, scrollTop + viewport + overscan) + 1);
  return { start, end, top: offsets[start] ?? 0, bottom: total - (offsets[end] ?? total) };
}

/**
 * The height (px) the list shows rows in: the scroller's own height when it has been laid out, never more than its
 * largest height `maxHeight` (its box may be taller than it scrolls: then the rows in view are those of `maxHeight`).
 */
export function viewportHeight(clientHeight: number | undefined, maxHeight: number): number {
  return clientHeight && clientHeight > 0 ? Math.min(clientHeight, maxHeight) : maxHeight;
}

/**
 * A windowed (virtualized) list, as long lists in mail clients: a `<ul>` that scrolls on its own (at most `height`
 * px tall) and renders only the rows in view plus a margin, the others standing in as two spacer items (not padding:
 * a padding taller than the list's largest height made the box itself that tall, so that it never scrolled and every
 * row counted as in view, one render in two). Row heights may vary:
 * each rendered row is measured (its height and margins) and remembered by key; rows not yet seen count `estimate`
 * px. Each row from `renderItem` must be one `<li>`, given its index in `items` so that it can
 * tell screen readers its position (aria-posinset, aria-setsize) in the whole list.
 */
export function WindowedList<T>(props: {
  items: readonly T[];
  keyOf: (item: T) => string;
  renderItem: (item: T, index: number) => ComponentChildren;
  /** A row's height before it was measured (px). */
  estimate: number;
  /** The list's largest height (px). */
  height: number;
  label: string;
  class?: string;
}) {
  const { items, keyOf, estimate } = props;
  const list = useRef<HTMLUListElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const offsets = useMemo(() => {
    const out = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) out[i + 1] = (out[i] ?? 0) + (heights.current.get(keyOf(items[i] as T)) ?? estimate);
    return out;
  }, [items, measured, estimate]);
  const viewport = viewportHeight(list.current?.clientHeight, props.height);
  const { start, end, top, bottom } = visibleRange(offsets, scrollTop, viewport);

  // After each render: measure the rows shown (fractional heights, margins included); a height that changed by more
  // than a pixel re-renders with the new offsets. Measuring settles in a pass or two; a bound on the passes between
  // two scrolls or list changes keeps sub-pixel rounding from ever re-rendering in a loop.
  const passes = useRef({ items, scrollTop, count: 0 });
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const pass = passes.current;
    if (pass.items !== items || pass.scrollTop !== scrollTop) passes.current = { items, scrollTop, count: 0 };
    if (passes.current.count >= MAX_MEASURE_PASSES) return;
    // The rows, between the two spacers.
    const rows = Array.from(el.children).slice(1, -1);
    const first = rows[0] as HTMLElement | undefined;
    if (!first) return;
    const style = getComputedStyle(first);
    const margins = (Number.parseFloat(style.marginTop) || 0) + (Number.parseFloat(style.marginBottom) || 0);
    let changed = false;
    for (let i = 0; i < rows.length; i++) {
      const h = (rows[i] as HTMLElement).getBoundingClientRect().height;
      const item = items[start + i];
      if (item === undefined || !(h > 0)) continue;
      const key = keyOf(item);
      if (Math.abs((heights.current.get(key) ?? -1) - (h + margins)) > 1) {
        heights.current.set(key, h + margins);
        changed = true;
      }
    }
    if (changed) {
      passes.current.count++;
      setMeasured((m) => m + 1);
    }
  });

  return (
    <ul
      ref={list}
      class={`${props.class ?? ''} windowed`}
      aria-label={props.label}
      style={{ maxHeight: `${props.height}px`, overflowY: 'auto' }}
      onScroll={(e) => setScrollTop((e.currentTarget as HTMLUListElement).scrollTop)}
    >
      <li key="above" aria-hidden="true" class="windowed-spacer" style={{ height: `${top}px` }} />
      {items.slice(start, end).map((item, i) => props.renderItem(item, start + i))}
      <li key="below" aria-hidden="true" class="windowed-spacer" style={{ height: `${bottom}px` }} />
    </ul>
  );
}
