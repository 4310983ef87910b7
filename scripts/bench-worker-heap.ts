/**
 * The extension's service worker's own JS heap, read over the DevTools protocol (the bench's memory row, and a heap
 * snapshot to find what holds it): a page of the extension opens a CDP session, attaches to the service worker's
 * target (`Target.attachToTarget`, not flattened, so that Playwright's page session carries the worker's messages in
 * `Target.sendMessageToTarget` / `Target.receivedMessageFromTarget`), and sends `HeapProfiler.collectGarbage`,
 * `Runtime.getHeapUsage` and, when asked, `HeapProfiler.takeHeapSnapshot` to it. The page is closed before the
 * figures are returned; the worker's heap holds nothing of it.
 */
import { writeFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';
import type { ExtensionBrowser } from '../drivers/fixtures/launch';

/** The worker's V8 heap (MB = 2^20 bytes), after a full garbage collection. */
export interface WorkerHeap {
  /** `Runtime.getHeapUsage().usedSize`: bytes of live JS objects (MB). */
  usedMB: number;
  /** `Runtime.getHeapUsage().totalSize`: the heap V8 reserved for the worker's isolate (MB). */
  totalMB: number;
  /** Where a heap snapshot was written, when one was asked for. */
  snapshot?: string;
}

/** A CDP channel to one target through a page session (non-flattened `Target.sendMessageToTarget`). */
function targetChannel(cdp: CDPSession, sessionId: string) {
  let seq = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, (params: Record<string, unknown>) => void>();
  cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const msg = JSON.parse(event.message) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
      method?: string;
      params?: never;
    };
    if (msg.id !== undefined) {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) w?.reject(new Error(msg.error.message));
      else w?.resolve(msg.result);
    } else if (msg.method) listeners.get(msg.method)?.(msg.params ?? {});
  });
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = ++seq;
      const answer = new Promise<T>((resolve, reject) => waiting.set(id, { resolve: resolve as (v: unknown) => void, reject }));
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
      return answer;
    },
    on(method: string, fn: (params: Record<string, unknown>) => void) {
      listeners.set(method, fn);
    },
  };
}

/**
 * A DevTools session on the extension's service worker, carried by a page of the extension opened for it (`page`,
 * which the caller closes): `worker.send` sends a method to the worker's target.
 */
async function attachToWorker(
  ext: ExtensionBrowser,
): Promise<{ page: Page; worker: ReturnType<typeof targetChannel>; detach(): Promise<void> }> {
  await ext.worker();
  const page = await ext.context.newPage();
  try {
    await page.goto(`chrome-extension://${ext.extensionId}/manifest.json`);
    const cdp = await ext.context.newCDPSession(page);
    const { targetInfos } = (await cdp.send('Target.getTargets')) as {
      targetInfos: Array<{ targetId: string; type: string; url: string }>;
    };
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${ext.extensionId}/`));
    if (!sw) throw new Error('no service worker target of the extension');
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: sw.targetId, flatten: false })) as { sessionId: string };
    const detach = async () => {
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {});
      await cdp.detach().catch(() => {});
    };
    return { page, worker: targetChannel(cdp, sessionId), detach };
  } catch (err) {
    await page.close();
    throw err;
  }
}

/**
 * {@link WorkerHeap} of the extension's service worker; `snapshotPath` also writes a heap snapshot there (the
 * `.heapsnapshot` format DevTools reads; `scripts/bench-heap-summary.ts` sums it by constructor).
 */
export async function workerHeap(ext: ExtensionBrowser, snapshotPath?: string): Promise<WorkerHeap> {
  const { page, worker, detach } = await attachToWorker(ext);
  try {
    await worker.send('HeapProfiler.enable');
    await worker.send('HeapProfiler.collectGarbage');
    await worker.send('HeapProfiler.collectGarbage');
    const usage = await worker.send<{ usedSize: number; totalSize: number }>('Runtime.getHeapUsage');
    const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;
    const heap: WorkerHeap = { usedMB: mb(usage.usedSize), totalMB: mb(usage.totalSize) };
    if (snapshotPath) {
      const chunks: string[] = [];
      worker.on('HeapProfiler.addHeapSnapshotChunk', (p) => chunks.push(p.chunk as string));
      await worker.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      writeFileSync(snapshotPath, chunks.join(''));
      heap.snapshot = snapshotPath;
    }
    await detach();
    return heap;
  } finally {
    await page.close();
  }
}

/**
 * Starts the sampling heap profiler of the extension's service worker, counting every allocation, kept or collected
 * since (`HeapProfiler.startSampling` with `includeObjectsCollectedByMajorGC`/`MinorGC`, one sample every 16 KiB on
 * average): where the worker's garbage comes from. A page of the extension stays open to carry the session until
 * `stop`, which writes the profile (`.heapprofile` JSON, bytes) to `path` and closes that page.
 * `scripts/bench-alloc-summary.ts` sums it by function and source file (of a build made with `SVC_MINIFY=0`).
 */
export function startAllocationSampling(ext: ExtensionBrowser): Promise<{ stop(path: string): Promise<void> }> {
  return startProfiler(
    ext,
    async (worker) => {
      await worker.send('HeapProfiler.enable');
      await worker.send('HeapProfiler.startSampling', {
        samplingInterval: 16_384,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    },
    'HeapProfiler.stopSampling',
  );
}

/**
 * Starts V8's sampling CPU profiler in the extension's service worker (`Profiler.start`, one sample every
 * `intervalUs` µs of the worker's thread): where the worker's time goes, as DevTools' Performance panel of the worker
 * shows it. A page of the extension stays open to carry the session until `stop`, which writes the profile
 * (`.cpuprofile` JSON, DevTools opens it) to `path` and closes that page. `scripts/bench-alloc-summary.ts` sums it by
 * function and source file (of a build made with `SVC_MINIFY=0`).
 */
export function startCpuProfile(ext: ExtensionBrowser, intervalUs = 1_000): Promise<{ stop(path: string): Promise<void> }> {
  return startProfiler(
    ext,
    async (worker) => {
      await worker.send('Profiler.enable');
      await worker.send('Profiler.setSamplingInterval', { interval: intervalUs });
      await worker.send('Profiler.start');
    },
    'Profiler.stop',
  );
}

/**
 * A profiler of the worker started by `start` over a DevTools session carried by an extension page; `stop` sends
 * `stopMethod`, writes the `profile` it answers (JSON) to `path` and closes the page.
 */
async function startProfiler(
  ext: ExtensionBrowser,
  start: (worker: ReturnType<typeof targetChannel>) => Promise<void>,
  stopMethod: string,
): Promise<{ stop(path: string): Promise<void> }> {
  const { page, worker } = await attachToWorker(ext);
  try {
    await start(worker);
  } catch (err) {
    await page.close();
    throw err;
  }
  return {
    async stop(path: string) {
      try {
        const { profile } = await worker.send<{ profile: unknown }>(stopMethod);
        writeFileSync(path, JSON.stringify(profile));
      } finally {
        await page.close();
      }
    },
  };
}
