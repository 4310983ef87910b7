/**
 * The bench's desk rows (`BENCH_PARTS=desk`, sizes `BENCH_DESK_SIZES`, default 1,000 and 5,000): a desk tracking
 * thousands. In Node: the time to track them all through one list (`createTrackList`, one store transaction) beside
 * one at a time (`createTrackIntent` per id, as 500 `track` messages were). In Chromium (the real extension against
 * the simulator, 10 % in flight, the rest already ended and notifications snoozed so that no burst of notifications
 * weighs on the figures): the time of the one `track-many` message for them all, the popup opened again and again —
 * from navigation start to the first row in the list, and from first contentful paint to it — and a search of one
 * intentId in the popup's search box, from the input event to the frame after the list shows it. Times in ms.
 */
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from '../drivers/fixtures/launch';
import { POPUP_VIEWPORT } from '../drivers/pages/popup';
import { MemoryStateStore, MemoryStore } from '../lib/store/memory';
import { realClock } from '../lib/time/clock';
import { Tracker } from '../lib/tracker/engine';
import { createTrackIntent } from '../lib/worker/track';
import { createTrackList } from '../lib/worker/track-many';

/** p50, p99 and max of samples (ms), with their count. */
export interface Stats {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

/** What a desk row measured (ms). Node rows have `trackAllMs` and `oneByOneMs` only. */
export interface DeskFigures {
  /** All `n` tracked by one list (Node) or one `track-many` message answered (Chromium). */
  trackAllMs: number;
  /** Node: the same `n` tracked one at a time (each a list of one: a write and a prune). */
  oneByOneMs?: number;
  /** Chromium: popup navigation start → first row of the tracked list in the DOM. */
  popupOpenMs?: Stats | null;
  /** Chromium: popup first contentful paint → first row (the "within 150 ms of its first paint"). */
  listAfterFirstPaintMs?: Stats | null;
  /** Chromium: search box input → the frame after the list shows the one intent searched. */
  searchMs?: Stats | null;
}

/** Stats of samples; null when there are none. */
export function stats(samples: number[]): Stats | null {
  if (samples.length === 0) return null;
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  const round = (v: number) => Math.round(v * 10) / 10;
  return { p50: round(at(0.5)), p99: round(at(0.99)), max: round(s[s.length - 1]!), count: s.length };
}

const hex = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

/** A tracker on an in-memory store whose transport never answers (the figures are the tracking path's alone). */
function idleTracker(): Tracker {
  return new Tracker({
    store: new MemoryStore(),
    stateStore: new MemoryStateStore(),
    clock: realClock,
    transport: () => new Promise(() => {}),
    notifier: { show: async () => undefined, exists: async () => false },
  });
}

/** Node: `n` intentIds tracked by one list, then (on a fresh tracker) one at a time. */
export async function deskNode(n: number): Promise<DeskFigures> {
  const ids = Array.from({ length: n }, (_, i) => hex(i + 1));
  const many = idleTracker();
  let t0 = performance.now();
  await createTrackList(many)(ids.map((intentId) => ({ intentId })));
  const trackAllMs = performance.now() - t0;
  many.stop();
  const single = idleTracker();
  const track = createTrackIntent(single);
  t0 = performance.now();
  for (const id of ids) await track(id);
  const oneByOneMs = performance.now() - t0;
  single.stop();
  return { trackAllMs: Math.round(trackAllMs), oneByOneMs: Math.round(oneByOneMs) };
}

/** Marks, in every popup page from its first script on, when the first row of the tracked list enters the DOM. */
function markListShown(): void {
  if (!location.pathname.endsWith('/popup.html')) return;
  const w = window as unknown as { __listShownAt?: number };
  const observer = new MutationObserver(() => {
    if (w.__listShownAt === undefined && document.querySelector('li[data-intent-id]')) {
      w.__listShownAt = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** One popup opening: navigation start → first row, and first contentful paint → first row. */
async function openOnce(ext: ExtensionBrowser): Promise<{ shown: number; afterPaint: number | null }> {
  const page = await ext.openPage('popup.html', POPUP_VIEWPORT);
  try {
    await page.waitForFunction(() => (window as unknown as { __listShownAt?: number }).__listShownAt !== undefined, undefined, {
      timeout: 60_000,
    });
    return await page.evaluate(() => {
      const shown = (window as unknown as { __listShownAt: number }).__listShownAt;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
      return { shown, afterPaint: fcp === undefined ? null : shown - fcp };
    });
  } finally {
    await page.close();
  }
}

/** One search in an open popup: input event → the frame after the list's first row is `intentId`. */
async function searchOnce(page: Page, intentId: string): Promise<number> {
  // tsx compiles the callback below with esbuild's keepNames, whose `__name` helper the page does not have.
  await page.evaluate('globalThis.__name ??= (f) => f');
  return page.evaluate(async (q) => {
    const input = document.querySelector<HTMLInputElement>('input[type="search"]');
    if (!input) return -1;
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const t0 = performance.now();
    setValue.call(input, q);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise<void>((resolve) => {
      const check = () =>
        document.querySelector('li[data-intent-id]')?.getAttribute('data-intent-id') === q ? resolve() : requestAnimationFrame(check);
      check();
    });
    await new Promise((r) => requestAnimationFrame(r));
    const ms = performance.now() - t0;
    setValue.call(input, '');
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(r));
    return ms;
  }, intentId);
}

/** The simulator as the desk rows use it: its control endpoint. */
export interface DeskSim {
  control<T>(path: string, body?: unknown): Promise<T>;
}

/**
 * Chromium: `n` intents (10 % in flight, the rest ended before they are tracked), tracked by one `track-many` from
 * the popup with notifications snoozed; then `opens` popup openings and `searches` searches. `ext` is configured.
 */
export async function deskBrowser(
  ext: ExtensionBrowser,
  sim: DeskSim,
  n: number,
  samples: { opens: number; searches: number },
): Promise<DeskFigures> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = i % 10 === 0 ? { scenario: 'stuck', stepMs: 200 } : { scenario: 'success', stepMs: 20 };
    ids.push((await sim.control<{ intentId: string }>('/control/intents', body)).intentId);
  }
  // The ended ones are final at the service before they are tracked.
  await new Promise((r) => setTimeout(r, 2_000));
  await ext.context.addInitScript(markListShown);
  const page = await ext.openPage('popup.html', POPUP_VIEWPORT);
  const trackAllMs = await page.evaluate(async (list) => {
    const rt = (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<{ ok: boolean }> } } }).chrome.runtime;
    await rt.sendMessage({ type: 'snooze' });
    const t0 = performance.now();
    const reply = await rt.sendMessage({ type: 'track-many', intents: list.map((intentId) => ({ intentId })) });
    if (!reply?.ok) throw new Error(`track-many failed: ${JSON.stringify(reply)}`);
    return performance.now() - t0;
  }, ids);
  await page.close();
  const shown: number[] = [];
  const afterPaint: number[] = [];
  for (let i = 0; i < samples.opens; i++) {
    const o = await openOnce(ext);
    shown.push(o.shown);
    if (o.afterPaint !== null) afterPaint.push(o.afterPaint);
  }
  const searching = await ext.openPage('popup.html', POPUP_VIEWPORT);
  await searching.waitForSelector('input[type="search"]', { timeout: 60_000 });
  const searches: number[] = [];
  for (let i = 0; i < samples.searches; i++) {
    const ms = await searchOnce(searching, ids[Math.floor(Math.random() * ids.length)]!);
    if (ms >= 0) searches.push(ms);
  }
  await searching.close();
  return {
    trackAllMs: Math.round(trackAllMs),
    popupOpenMs: stats(shown),
    listAfterFirstPaintMs: stats(afterPaint),
    searchMs: stats(searches),
  };
}
