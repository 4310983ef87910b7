/**
 * Chrome's own figure for the extension's process: the "Memory footprint" of its task manager, read the way the
 * task manager reads it. Chromium's memory instrumentation (`memory-infra`) takes a memory dump of every process when
 * asked over the DevTools protocol (`Tracing.requestMemoryDump`, browser target); each process's dump carries
 * `process_totals.private_footprint_bytes` (on Linux: its anonymous resident memory plus swap), the figure the task
 * manager shows, and, for a detailed dump, what each of its allocators holds (V8, malloc, PartitionAlloc, Blink's GC,
 * the compositor's tiles…). `performance.measureUserAgentSpecificMemory` is not used: it needs cross-origin
 * isolation, which an extension's service worker has not.
 */
import { writeFileSync } from 'node:fs';
import type { ExtensionBrowser } from '../drivers/fixtures/launch';
import { extensionPids } from './bench-desk';

/** The extension process's footprint in one memory dump (MB = 2^20 bytes). */
export interface Footprint {
  /** `private_footprint_bytes` summed over the extension's renderer processes: Chrome's task manager figure. */
  footprintMB: number | null;
  /**
   * The top-level allocators of those processes (effective size: what the allocator holds for itself, not counted
   * again under another), largest first; those under 0.5 MB left out.
   */
  allocatorsMB: Record<string, number>;
  /**
   * The parts of the three largest (V8, malloc, PartitionAlloc) two levels down (`size`: what each part holds, live
   * objects and the free space its allocator kept), those under 0.5 MB left out: live objects against kept space.
   */
  partsMB: Record<string, number>;
  method: string;
}

const MB = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
const hexBytes = (v: unknown) => (typeof v === 'string' ? Number.parseInt(v, 16) : Number.NaN);

/** One event of a memory-infra trace (the fields read here). */
export interface DumpEvent {
  ph: string;
  pid: number;
  args?: {
    dumps?: {
      process_totals?: { private_footprint_bytes?: string };
      allocators?: Record<string, { attrs?: Record<string, { value?: string }> }>;
    };
  };
}

/**
 * The {@link Footprint} of processes `pids` in the events of one memory-infra trace (`ph: 'v'`, one per process;
 * sizes in hexadecimal bytes, as Chromium writes them). `footprintMB` is null when no event names those processes.
 */
export function footprintOf(events: readonly DumpEvent[], pids: readonly number[]): Footprint {
  let footprint = 0;
  let seen = 0;
  const allocators: Record<string, number> = {};
  const parts: Record<string, number> = {};
  for (const e of events) {
    if (e.ph !== 'v' || !pids.includes(e.pid)) continue;
    const dumps = e.args?.dumps;
    const total = hexBytes(dumps?.process_totals?.private_footprint_bytes);
    if (Number.isFinite(total)) {
      footprint += total;
      seen++;
    }
    for (const [name, a] of Object.entries(dumps?.allocators ?? {})) {
      const depth = name.split('/').length;
      if (depth > 1 && depth <= 3 && /^(v8|malloc|partition_alloc)\//.test(name)) {
        const size = hexBytes(a.attrs?.size?.value);
        if (Number.isFinite(size)) parts[name] = (parts[name] ?? 0) + size;
      }
      if (depth > 1) continue;
      const size = hexBytes(a.attrs?.effective_size?.value ?? a.attrs?.size?.value);
      if (Number.isFinite(size)) allocators[name] = (allocators[name] ?? 0) + size;
    }
  }
  const atLeastHalfMB = (entries: Array<[string, number]>) => entries.filter(([, b]) => b >= 2 ** 19);
  return {
    footprintMB: seen > 0 ? MB(footprint) : null,
    allocatorsMB: Object.fromEntries(
      atLeastHalfMB(Object.entries(allocators))
        .sort((a, b) => b[1] - a[1])
        .map(([k, b]) => [k, MB(b)]),
    ),
    partsMB: Object.fromEntries(
      atLeastHalfMB(Object.entries(parts))
        .sort((a, b) => a[0].localeCompare(b[0]))
        .map(([k, b]) => [k, MB(b)]),
    ),
    method: `Chromium memory-infra dump (Tracing.requestMemoryDump, detailed): private_footprint_bytes of ${pids.length} extension renderer process(es), the task manager's "Memory footprint"`,
  };
}

/**
 * One detailed memory dump of every process of `ext`'s browser; the extension's renderer processes' figures
 * ({@link footprintOf}); `rawPath`: their dump events are also written there (JSON) for a closer look, e.g. by bucket
 * size. Throws when the dump is refused (the browser's `success: false`).
 */
export async function extensionFootprint(ext: ExtensionBrowser, rawPath?: string): Promise<Footprint> {
  const browser = ext.context.browser();
  if (!browser) throw new Error('no browser behind the context: the footprint needs a browser DevTools session');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const events: DumpEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as DumpEvent[])));
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', {
      traceConfig: {
        includedCategories: ['disabled-by-default-memory-infra'],
        excludedCategories: ['*'],
        // No periodic dumps: only the one asked for below (the protocol's type says string values; it takes a list).
        memoryDumpConfig: { triggers: [] } as unknown as Record<string, string>,
      },
      transferMode: 'ReportEvents',
    });
    const { success } = await cdp.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' });
    await cdp.send('Tracing.end');
    await complete;
    if (!success) throw new Error('the browser refused the memory dump');
    const pids = extensionPids(ext.userDataDir);
    if (rawPath) writeFileSync(rawPath, JSON.stringify(events.filter((e) => e.ph === 'v' && pids.includes(e.pid))));
    return footprintOf(events, pids);
  } finally {
    await cdp.detach().catch(() => {});
  }
}
