/**
 * The bench's memory rows (`BENCH_PARTS=memory`, sizes `BENCH_MEMORY_SIZES`, default 1,000 and 5,000): the worker of
 * the extension as a user runs it (the build itself, no recorder) in Chromium against the simulator, with `n`
 * intents tracked by one `track-many` (10 % stay in flight, 90 % finish at random over `spreadMs`), read once the
 * tracker holds a final receipt for the finishing ones (or `settleMs` has passed), after `idleMs` more with no page
 * of the extension open:
 * - `processMB`: the extension renderer process's private memory and resident set (`extensionMemory`, Linux
 *   `/proc/<pid>/smaps_rollup`), read with no page of the extension open and none opened in this browser since
 *   `track-many` (the one that sent it excepted): the figure of Chrome's task manager for the extension's process;
 * - `heap`: the worker's own V8 heap after two full garbage collections (`Runtime.getHeapUsage` over the DevTools
 *   protocol, `bench-worker-heap.ts`), read after `processMB`; `BENCH_HEAP_SNAPSHOT=1` also writes its heap snapshot
 *   to `bench/heap-<n>.heapsnapshot` (not committed; `scripts/bench-heap-summary.ts` reads it).
 * `samples.allocationPath` also records where the worker allocated from `track-many` to the settled read (every
 * allocation, collected or not: `startAllocationSampling`), written there.
 * `performance.measureUserAgentSpecificMemory` is not used: it needs cross-origin isolation, which an extension's
 * service worker has not.
 */
import type { ExtensionBrowser } from '../drivers/fixtures/launch';
import { POPUP_VIEWPORT } from '../drivers/pages/popup';
import { DB_NAMES } from '../lib/store/db-names';
import { SCRIPTS, scriptLength } from '../simulator/lifecycle';
import { extensionMemory, type WorkerMemory } from './bench-desk';
import { extensionFootprint, type Footprint } from './bench-footprint';
import { startAllocationSampling, type WorkerHeap, workerHeap } from './bench-worker-heap';

/** What a memory row measured. */
export interface MemoryFigures {
  /** Intents that were to finish, and how many of them the worker held as final when it was read. */
  finishing: number;
  finalHeld: number;
  /** From `track-many` to the read (ms). */
  runMs: number;
  /** Requests the simulator received from `track-many` to the read, by operation. */
  requests: Record<string, number>;
  processMB: WorkerMemory;
  heap: WorkerHeap;
  /**
   * The process's private memory (MB) at each step: launched, configured, tracked, settled (then `processMB`), and
   * `afterGc`: after the full garbage collections of `heap` (the worker's garbage is the difference).
   */
  stagesMB: Record<string, number | null>;
  /**
   * Chrome's own figure (its task manager's "Memory footprint", `bench-footprint.ts`) at the read (`idle`) and after
   * the worker's full garbage collections (`afterGc`), with what each allocator held; and the footprint at each step.
   */
  footprint: { idle: Footprint; afterGc: Footprint; stagesMB: Record<string, number | null> };
}

/** How a memory row runs (ms). */
export interface MemorySamples {
  spreadMs: number;
  /** The longest wait for the finishing intents to be final in the worker, from `track-many`. */
  settleMs: number;
  /** Idle with no page open before the read. */
  idleMs: number;
  /** Write the worker's heap snapshot to this path. */
  snapshotPath?: string;
  /** Write the worker's allocation profile (from `track-many` to settled) to this path. */
  allocationPath?: string;
}

/** The simulator as the memory rows use it. */
export interface MemorySim {
  control<T>(path: string, body?: unknown): Promise<T>;
  /** The simulator's request log entries that started in [from, to) (wall-clock ms). */
  requestsBetween(from: number, to: number): Promise<Array<{ operation: string }>>;
}

/** `n` intents: every tenth stuck in flight, every fifth of the others failing, the rest succeeding over `spreadMs`. */
async function createIntents(sim: MemorySim, n: number, spreadMs: number): Promise<string[]> {
  const ids: string[] = [];
  const base = Date.now() + 20_000;
  for (let i = 0; i < n; i++) {
    if (i % 10 === 0) {
      ids.push((await sim.control<{ intentId: string }>('/control/intents', { scenario: 'stuck', stepMs: 200 })).intentId);
      continue;
    }
    const script = i % 5 === 4 ? 'failure' : 'success';
    const finishIn = Math.max(2_000, base + Math.random() * spreadMs - Date.now());
    const stepMs = Math.round(finishIn / scriptLength(SCRIPTS[script]));
    ids.push((await sim.control<{ intentId: string }>('/control/intents', { scenario: script, stepMs })).intentId);
  }
  return ids;
}

/** How many tracked records the worker's IndexedDB holds as final (read inside the worker, nothing kept). */
async function finalCount(ext: ExtensionBrowser): Promise<number> {
  const worker = await ext.worker();
  await worker.evaluate('globalThis.__name ??= (f) => f');
  return worker.evaluate(async (dbName) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(dbName);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    try {
      let count = 0;
      await new Promise<void>((resolve, reject) => {
        const req = db.transaction('intents').objectStore('intents').openCursor();
        req.onsuccess = () => {
          const cursor = req.result;
          if (!cursor) return resolve();
          if ((cursor.value as { phase?: string }).phase === 'final') count++;
          cursor.continue();
        };
        req.onerror = () => reject(req.error);
      });
      return count;
    } finally {
      db.close();
    }
  }, DB_NAMES.intents);
}

/** One memory row on a configured `ext` (the build itself) against `sim`. */
export async function memoryRow(
  ext: ExtensionBrowser,
  sim: MemorySim,
  n: number,
  samples: MemorySamples,
  stagesMB: Record<string, number | null> = {},
): Promise<MemoryFigures> {
  const ids = await createIntents(sim, n, samples.spreadMs);
  const finishing = ids.filter((_, i) => i % 10 !== 0).length;
  const sampling = samples.allocationPath ? await startAllocationSampling(ext) : undefined;
  const page = await ext.openPage('popup.html', POPUP_VIEWPORT);
  const from = Date.now();
  await page.evaluate(async (list) => {
    const rt = (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<{ ok: boolean }> } } }).chrome.runtime;
    const reply = await rt.sendMessage({ type: 'track-many', intents: list.map((intentId) => ({ intentId })) });
    if (!reply?.ok) throw new Error(`track-many failed: ${JSON.stringify(reply)}`);
  }, ids);
  await page.close();
  stagesMB.tracked = (await extensionMemory(ext)).privateMB;
  const footprintStages: Record<string, number | null> = { tracked: (await extensionFootprint(ext)).footprintMB };
  let finalHeld = 0;
  while (Date.now() - from < samples.settleMs) {
    await new Promise((r) => setTimeout(r, 5_000));
    finalHeld = await finalCount(ext);
    if (finalHeld >= finishing) break;
  }
  if (sampling && samples.allocationPath) await sampling.stop(samples.allocationPath);
  stagesMB.settled = (await extensionMemory(ext)).privateMB;
  footprintStages.settled = (await extensionFootprint(ext)).footprintMB;
  await new Promise((r) => setTimeout(r, samples.idleMs));
  const processMB = await extensionMemory(ext);
  const idle = await extensionFootprint(ext);
  const heap = await workerHeap(ext, samples.snapshotPath);
  // Again once the worker's garbage is collected: what of the process was the worker's garbage.
  stagesMB.afterGc = (await extensionMemory(ext)).privateMB;
  const afterGc = await extensionFootprint(ext, process.env.BENCH_FOOTPRINT_RAW);
  const requests: Record<string, number> = {};
  for (const e of await sim.requestsBetween(from, Date.now())) requests[e.operation] = (requests[e.operation] ?? 0) + 1;
  return {
    finishing,
    finalHeld,
    runMs: Date.now() - from,
    requests,
    processMB,
    heap,
    stagesMB,
    footprint: { idle, afterGc, stagesMB: footprintStages },
  };
}
