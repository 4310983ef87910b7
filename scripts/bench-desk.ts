/**
 * The bench's desk rows (`BENCH_PARTS=desk`, sizes `BENCH_DESK_SIZES`, default 1,000 and 5,000): a desk tracking
 * thousands. In Node: the time to track them all through one list (`createTrackList`, one store transaction) beside
 * one at a time (`createTrackIntent` per id, as 500 `track` messages were). In Chromium (the real extension against
 * the simulator; 10 % stay in flight, the other 90 % finish at random times over `spreadMs` after they are tracked):
 * the time of the one `track-many` message for them all; the notification latency of those that finish (the
 * notification's creation minus the later of the receipt's `finishedAt` and the sending of `track-many`); then, with
 * all of them tracked and 10 % in flight, the popup opened again and again — from navigation start to the first row
 * in the list, from first contentful paint to it, and to the search box (shown once the whole list is read) — and a
 * search of one intentId in the popup's search box, from the input event to the frame after the list shows it; then
 * the whole worker idle for `idleMs` with no page open (requests a minute at the simulator), the most requests in
 * flight at the simulator over the whole row, and the worker's memory (see {@link extensionMemory}). Times in ms.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from '../drivers/fixtures/launch';
import { countNotificationCreates, createdNotificationTimes, intentsOfNotificationId } from '../drivers/fixtures/notifications';
import { POPUP_VIEWPORT } from '../drivers/pages/popup';
import { MemoryStateStore, MemoryStore } from '../lib/store/memory';
import { realClock } from '../lib/time/clock';
import { Tracker } from '../lib/tracker/engine';
import { createTrackIntent } from '../lib/worker/track';
import { createTrackList } from '../lib/worker/track-many';
import { SCRIPTS, scriptLength } from '../simulator/lifecycle';
import { peakConcurrency, type RequestLogEntry } from '../simulator/server';
import { startCpuProfile } from './bench-worker-heap';

/** p50, p99 and max of samples (ms), with their count. */
export interface Stats {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

/**
 * The memory of the extension's renderer process (the one Chrome runs the service worker in; no extension page open
 * when it is read), from Linux's /proc/<pid>/smaps_rollup: `privateMB` its private memory (Private_Clean +
 * Private_Dirty, close to Chrome's task manager "Memory footprint"), `rssMB` its resident set; `jsHeapMB` the worker's
 * JS heap in use where the worker exposes one (`performance.memory`), else null. MB = 2^20 bytes.
 */
export interface WorkerMemory {
  method: string;
  privateMB: number | null;
  rssMB: number | null;
  jsHeapMB: number | null;
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
  /** Chromium: popup navigation start → the search box in the DOM (the whole list read). */
  fullListMs?: Stats | null;
  /** Chromium: notification latency of the intents that finished after being tracked (ms), and how many were told. */
  latencyMs?: Stats | null;
  /** Chromium: intents that were to finish, and those of them that ended before `track-many` was sent. */
  finishing?: number;
  /** Chromium: requests the simulator received by operation while the notifications were awaited (from `track-many`). */
  requestsWhileFinishing?: Record<string, number>;
  endedBeforeTracked?: number;
  /**
   * Chromium: desktop notifications the worker created (`create` calls the browser took, single and grouped) from
   * `track-many` until every finishing intent was told or the wait ended: what the user saw pop up.
   */
  notificationsCreated?: number;
  /** Chromium: requests a minute the whole worker sent while idle (no page open, 10 % in flight), over `idleMs`. */
  idleRequestsPerMinute?: number;
  /** Chromium: most requests in flight at once at the simulator, from `track-many` to the end of the row. */
  peakInFlight?: number;
  /** Chromium: the worker's memory at the end of the row. */
  memory?: WorkerMemory;
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

/**
 * Marks, in every popup page from its first script on, when the first row of the tracked list enters the DOM, and
 * when its search box does (shown once the whole list is read).
 */
function markListShown(): void {
  if (!location.pathname.endsWith('/popup.html')) return;
  const w = window as unknown as { __listShownAt?: number; __fullAt?: number };
  const observer = new MutationObserver(() => {
    if (w.__listShownAt === undefined && document.querySelector('li[data-intent-id]')) w.__listShownAt = performance.now();
    if (w.__fullAt === undefined && document.querySelector('input[type="search"]')) w.__fullAt = performance.now();
    if (w.__listShownAt !== undefined && w.__fullAt !== undefined) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * One popup opening: navigation start → first row, first contentful paint → first row, and navigation start → the
 * search box (the whole list read).
 */
async function openOnce(ext: ExtensionBrowser): Promise<{ shown: number; afterPaint: number | null; full: number }> {
  const page = await ext.openPage('popup.html', POPUP_VIEWPORT);
  try {
    await page.waitForFunction(
      () => {
        const w = window as unknown as { __listShownAt?: number; __fullAt?: number };
        return w.__listShownAt !== undefined && w.__fullAt !== undefined;
      },
      undefined,
      { timeout: 60_000 },
    );
    return await page.evaluate(() => {
      const { __listShownAt: shown, __fullAt: full } = window as unknown as { __listShownAt: number; __fullAt: number };
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
      return { shown, full, afterPaint: fcp === undefined ? null : shown - fcp };
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

/** The simulator as the desk rows use it: its control endpoint, its request log, an intent's finish time. */
export interface DeskSim {
  control<T>(path: string, body?: unknown): Promise<T>;
  /** The simulator's request log entries that started in [from, to) (wall-clock ms). */
  requestsBetween(from: number, to: number): Promise<RequestLogEntry[]>;
  /** When the intent reached its final status at the service (wall-clock ms; NaN when it has not). */
  finishedAt(intentId: string): Promise<number>;
}

/** The pids of Chromium's extension renderer processes under the browser started with `userDataDir`. */
export function extensionPids(userDataDir: string): number[] {
  const procs = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        // Chromium rewrites its processes' titles: their arguments may be separated by spaces rather than NULs.
        const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split(/[\0 ]/);
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return { pid: Number(d), ppid, cmd };
      } catch {
        return undefined;
      }
    })
    .filter((p) => p !== undefined);
  const browser = procs.find((p) => p.cmd.includes(`--user-data-dir=${userDataDir}`) && !p.cmd.some((a) => a.startsWith('--type=')));
  if (!browser) return [];
  const parent = new Map(procs.map((p) => [p.pid, p.ppid]));
  const under = (pid: number) => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === browser.pid) return true;
    return false;
  };
  return procs.filter((p) => p.cmd.includes('--extension-process') && under(p.pid)).map((p) => p.pid);
}

/** {@link WorkerMemory} of the extension's process (no extension page open) and the worker's JS heap. */
export async function extensionMemory(ext: ExtensionBrowser): Promise<WorkerMemory> {
  const kb = (text: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN);
  let priv = 0;
  let rss = 0;
  const pids = extensionPids(ext.userDataDir);
  for (const pid of pids) {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    priv += kb(text, 'Private_Clean') + kb(text, 'Private_Dirty');
    rss += kb(text, 'Rss');
  }
  const heap = await (await ext.worker())
    .evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null)
    .catch(() => null);
  const mb = (k: number) => (pids.length > 0 && Number.isFinite(k) ? Math.round((k / 1024) * 10) / 10 : null);
  return {
    method: `/proc/<pid>/smaps_rollup of ${pids.length} extension renderer process(es); JS heap: performance.memory in the worker`,
    privateMB: mb(priv),
    rssMB: mb(rss),
    jsHeapMB: typeof heap === 'number' ? Math.round((heap / 2 ** 20) * 10) / 10 : null,
  };
}

/** How a Chromium desk row runs: popup openings and searches, how long the intents take to finish, the idle window. */
export interface DeskSamples {
  opens: number;
  searches: number;
  /** The finishing intents end at random over this many ms, from about 20 s after they are created (ms). */
  spreadMs: number;
  /** How long the whole worker is watched idle at the end (ms). */
  idleMs: number;
  /**
   * Where to write a CPU profile of the worker (`startCpuProfile`), from before `track-many` to the last search, when
   * one is asked for (`BENCH_CPU_PROFILE=1`). The profiler and the page that carries it slow the row: its figures are
   * for where the time goes, not for the results.
   */
  cpuProfilePath?: string;
}

/** The simulator's scripts as the desk uses them: success, failure (every fifth), stuck (every tenth, in flight). */
async function createDesk(sim: DeskSim, n: number, spreadMs: number): Promise<{ ids: string[]; finishing: Set<string> }> {
  const ids: string[] = [];
  const finishing = new Set<string>();
  // Creating thousands over HTTP takes seconds: each finish time is set from one start, so that they spread evenly.
  const base = Date.now() + 20_000;
  for (let i = 0; i < n; i++) {
    if (i % 10 === 0) {
      ids.push((await sim.control<{ intentId: string }>('/control/intents', { scenario: 'stuck', stepMs: 200 })).intentId);
      continue;
    }
    const script = i % 5 === 4 ? 'failure' : 'success';
    const finishIn = Math.max(2_000, base + Math.random() * spreadMs - Date.now());
    const stepMs = Math.round(finishIn / scriptLength(SCRIPTS[script]));
    const id = (await sim.control<{ intentId: string }>('/control/intents', { scenario: script, stepMs })).intentId;
    ids.push(id);
    finishing.add(id);
  }
  return { ids, finishing };
}

/** Latency of each finishing intent's first notification: its creation minus the later of its finish and `sentAt`. */
async function notificationLatencies(ext: ExtensionBrowser, sim: DeskSim, finishing: Set<string>, sentAt: number) {
  const first = new Map<string, number>();
  for (const [nid, at] of await createdNotificationTimes(ext))
    for (const id of intentsOfNotificationId(nid)) if (finishing.has(id) && !first.has(id)) first.set(id, at);
  const latencies: number[] = [];
  let endedBefore = 0;
  for (const [id, at] of first) {
    const finished = await sim.finishedAt(id);
    if (finished < sentAt) endedBefore++;
    latencies.push(at - Math.max(finished, sentAt));
  }
  return { latencies, endedBefore };
}

/**
 * Chromium: `n` intents (10 % stay in flight, the rest finish over `samples.spreadMs`), tracked by one `track-many`
 * from the popup; their notifications timed; then `opens` popup openings, `searches` searches, the whole worker idle
 * for `idleMs` and its memory. `ext` is configured.
 */
export async function deskBrowser(ext: ExtensionBrowser, sim: DeskSim, n: number, samples: DeskSamples): Promise<DeskFigures> {
  const { ids, finishing } = await createDesk(sim, n, samples.spreadMs);
  await countNotificationCreates(ext);
  await ext.context.addInitScript(markListShown);
  const profiling = samples.cpuProfilePath ? await startCpuProfile(ext) : undefined;
  const page = await ext.openPage('popup.html', POPUP_VIEWPORT);
  const from = Date.now();
  const trackAllMs = await page.evaluate(async (list) => {
    const rt = (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<{ ok: boolean }> } } }).chrome.runtime;
    const t0 = performance.now();
    const reply = await rt.sendMessage({ type: 'track-many', intents: list.map((intentId) => ({ intentId })) });
    if (!reply?.ok) throw new Error(`track-many failed: ${JSON.stringify(reply)}`);
    return performance.now() - t0;
  }, ids);
  await page.close();
  // Every finishing intent notified, or its last finish plus 60 s.
  const deadline = from + 20_000 + samples.spreadMs + 60_000;
  while (Date.now() < deadline) {
    const told = new Set((await createdNotificationTimes(ext)).flatMap(([nid]) => intentsOfNotificationId(nid)));
    if ([...finishing].every((id) => told.has(id))) break;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  // Counted before the latencies are read: reading them asks the simulator for every intent's finish.
  const requestsWhileFinishing: Record<string, number> = {};
  for (const e of await sim.requestsBetween(from, Date.now()))
    requestsWhileFinishing[e.operation] = (requestsWhileFinishing[e.operation] ?? 0) + 1;
  const notificationsCreated = (await createdNotificationTimes(ext)).length;
  const { latencies, endedBefore } = await notificationLatencies(ext, sim, finishing, from);
  const shown: number[] = [];
  const afterPaint: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < samples.opens; i++) {
    const o = await openOnce(ext);
    shown.push(o.shown);
    full.push(o.full);
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
  if (profiling && samples.cpuProfilePath) await profiling.stop(samples.cpuProfilePath);
  // The whole worker idle: no page open, 10 % of the intents in flight (stuck at the service), the rest final.
  const idleFrom = Date.now();
  await new Promise((r) => setTimeout(r, samples.idleMs));
  const idleTo = Date.now();
  const idle = await sim.requestsBetween(idleFrom, idleTo);
  const memory = await extensionMemory(ext);
  return {
    trackAllMs: Math.round(trackAllMs),
    latencyMs: stats(latencies),
    finishing: finishing.size,
    requestsWhileFinishing,
    endedBeforeTracked: endedBefore,
    notificationsCreated,
    popupOpenMs: stats(shown),
    listAfterFirstPaintMs: stats(afterPaint),
    fullListMs: stats(full),
    searchMs: stats(searches),
    idleRequestsPerMinute: Math.round((idle.length / (idleTo - idleFrom)) * 60_000 * 10) / 10,
    peakInFlight: peakConcurrency(await sim.requestsBetween(from, idleTo)),
    memory,
  };
}
