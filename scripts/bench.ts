/**
 * `npm run bench`: this tracker against the spec's client example (GetIntentReceipt every 2 s per intent,
 * unbounded), side by side on one simulator (a child process, so the figures of this process are the trackers'):
 * for 1, 100 and 500 intents finishing at random times over SPREAD_MS, notification latency after the terminal
 * transition (p50/p95/p99/max), requests per minute (total while running, and per idle intent when nothing
 * changes), peak concurrent requests at the simulator, CPU time of the tracker process. The real-browser path is
 * measured for 1, 100 and 500 intents. The service's scale (part `scale`, each row on its own simulator child):
 * 10 tracked among a busy project's 5 000 others an hour; 100 tracked that GetIntentHistory never lists; idle
 * request rates at server waits of 0 s and 20 s; intents that answer NotFound before they appear. Figures go to
 * bench/results.json (bench/results.quick.json with BENCH_QUICK=1) and are printed as tables; `BENCH_TRACE=1` also
 * writes each browser row's finish and notification times and request log to bench/trace-browser-N.json.
 *
 * Not part of `npm test`. Takes about 32 minutes; `BENCH_QUICK=1` runs a short version (for trying it out).
 * `BENCH_PARTS` (comma-separated) picks rows: `node`, `browser`, `scale` (= `busy`, `not-in-history`, `idle`,
 * `not-found`, `watched`: the whole worker idle with 20 and 100 watched addresses, one request budget), `desk` (a desk
 * tracking 1,000 and 5,000: time to track them all, popup open to list shown and search p50/p99, `./bench-desk.ts`;
 * `BENCH_CPU_PROFILE=1` also writes the worker's CPU profile to bench/cpu-desk-N.cpuprofile);
 * `memory` (the worker with 1,000 and 5,000 tracked in Chromium: the extension process's private memory and the
 * worker's own JS heap over the DevTools protocol, `./bench-memory.ts`, docs/memory.md; not in the default set);
 * `chain` (the on-chain verifier in Node against two anvils with 1, 100 and 500 tracked intents: destination block to
 * "verified" and to "arrived", RPC requests a minute per chain, `./bench-chain.ts`; not in the default set);
 * `BENCH_NODE_SIZES` / `BENCH_BROWSER_SIZES` / `BENCH_DESK_SIZES` / `BENCH_MEMORY_SIZES` / `BENCH_CHAIN_SIZES` (e.g.
 * `500`) narrow the node, browser, desk, memory and chain rows.
 */
import './bench-i18n';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { launchExtension, removeProfile } from '../drivers/fixtures/launch';
import { countNotificationCreates, createdNotificationTimes, intentsOfNotificationId } from '../drivers/fixtures/notifications';
import { configure } from '../drivers/pages/options';
import { PopupPage } from '../drivers/pages/popup';
import { type Lane, RequestBudget } from '../lib/api/budget';
import { SvcClient } from '../lib/api/client';
import type { Settings, WatchedCheckpoint } from '../lib/store';
import { MemoryStateStore, MemoryStore } from '../lib/store/memory';
import { realClock } from '../lib/time/clock';
import { Tracker } from '../lib/tracker/engine';
import { createBaselineFinder } from '../lib/worker/eta-baseline';
import { createWatchedCheck } from '../lib/worker/watched';
import { SCRIPTS, scriptLength } from '../simulator/lifecycle';
import { peakConcurrency, type RequestLogEntry } from '../simulator/server';
import { type ChainFigures, chainRow } from './bench-chain';
import { type DeskFigures, deskBrowser, deskNode, extensionMemory } from './bench-desk';
import { extensionFootprint } from './bench-footprint';
import { type MemoryFigures, memoryRow } from './bench-memory';
import { earlierRows, mergeResults, type ResultsFile } from './bench-results';

const QUICK = process.env.BENCH_QUICK === '1';
const SCALE_PARTS = ['busy', 'not-in-history', 'idle', 'not-found', 'watched'];
const KNOWN_PARTS = ['node', 'browser', 'scale', 'desk', 'memory', 'chain', ...SCALE_PARTS];
const PARTS = new Set((process.env.BENCH_PARTS ?? 'node,browser,scale,desk').split(',').map((p) => p.trim()));
for (const p of PARTS) {
  if (!KNOWN_PARTS.includes(p)) {
    console.error(`BENCH_PARTS: unknown part "${p}"; known: ${KNOWN_PARTS.join(', ')}`);
    process.exit(2);
  }
}
if (PARTS.has('scale')) for (const p of SCALE_PARTS) PARTS.add(p);
const sizes = (env: string | undefined, all: number[]) => (env ? env.split(',').map(Number) : all);

const SPREAD_MS = QUICK ? 20_000 : 60_000;
const TAIL_MS = QUICK ? 15_000 : 30_000;
const IDLE_MS = QUICK ? 15_000 : 40_000;
const SIZES = PARTS.has('node') ? sizes(process.env.BENCH_NODE_SIZES, QUICK ? [1, 20] : [1, 100, 500]) : [];
const BROWSER_SIZES = PARTS.has('browser') ? sizes(process.env.BENCH_BROWSER_SIZES, QUICK ? [1] : [1, 100, 500]) : [];
/** Desk rows: tracked intents, and how many popup openings and searches each Chromium row times. */
const DESK_SIZES = PARTS.has('desk') ? sizes(process.env.BENCH_DESK_SIZES, QUICK ? [200] : [1_000, 5_000]) : [];
/**
 * Memory rows (`./bench-memory.ts`): tracked intents; `BENCH_HEAP_SNAPSHOT=1` also writes the worker's heap snapshot,
 * `BENCH_ALLOC_PROFILE=1` its allocation profile (docs/memory.md).
 */
const MEMORY_SIZES = PARTS.has('memory') ? sizes(process.env.BENCH_MEMORY_SIZES, QUICK ? [200] : [1_000, 5_000]) : [];
const MEMORY_SAMPLES = QUICK
  ? { spreadMs: 20_000, settleMs: 90_000, idleMs: 10_000 }
  : { spreadMs: 60_000, settleMs: 300_000, idleMs: 30_000 };
/** Chain rows: tracked intents verified on the local chains. */
const CHAIN_SIZES = PARTS.has('chain') ? sizes(process.env.BENCH_CHAIN_SIZES, QUICK ? [1, 20] : [1, 100, 500]) : [];
const DESK_SAMPLES = QUICK
  ? { opens: 5, searches: 10, spreadMs: 20_000, idleMs: 20_000 }
  : { opens: 30, searches: 50, spreadMs: 60_000, idleMs: 60_000 };
/** Scale rows: how long their intents take to finish, and how long to wait for the last notifications after. */
const SCALE = {
  busy: { tracked: 10, othersPerHour: 5000, spreadMs: QUICK ? 20_000 : 120_000, tailMs: QUICK ? 15_000 : 30_000 },
  notInHistory: { tracked: 100, spreadMs: QUICK ? 40_000 : 300_000, tailMs: QUICK ? 20_000 : 120_000 },
  idle: { sizes: [6, 100], serverWaitsMs: [0, 20_000], warmUpMs: QUICK ? 5_000 : 10_000, windowMs: QUICK ? 15_000 : 60_000 },
  notFound: { intents: QUICK ? 5 : 10, stepMs: [1_500, 4_000] as const, tailMs: QUICK ? 20_000 : 60_000 },
  /** The whole worker idle: 12 intents that never change and watched addresses with nothing new, one request budget. */
  watched: {
    intents: 12,
    addresses: [20, 100],
    serverWaitsMs: [0, 20_000],
    warmUpMs: QUICK ? 10_000 : 20_000,
    windowMs: QUICK ? 30_000 : 120_000,
  },
};
const OUT = QUICK ? 'bench/results.quick.json' : 'bench/results.json';

if (BROWSER_SIZES.length > 0 || DESK_SIZES.length > 0 || MEMORY_SIZES.length > 0) {
  // The browser runs use a copy of the build, so that rebuilding while the benchmark runs changes nothing.
  rmSync('.output/bench-chrome-mv3', { recursive: true, force: true });
  cpSync('.output/chrome-mv3', '.output/bench-chrome-mv3', { recursive: true });
  process.env.SVC_EXTENSION_DIR = '.output/bench-chrome-mv3';
}

type Kind = 'tracker' | 'baseline';
type Percentiles = { p50: number; p95: number; p99: number; max: number };
interface Figures {
  /** Names the row; results of a later run replace those with the same row. */
  row: string;
  /** When the row was measured (ISO 8601). */
  measuredAt?: string;
  /** The machine it was measured on (the file's `machine` is the last run's). */
  machine?: Record<string, unknown>;
  kind: Kind | 'tracker (browser)';
  intents: number;
  notified: number;
  latencyMs: Percentiles | null;
  requestsPerMinute: number;
  idleRequestsPerMinute: number | null;
  idleRequestsPerMinutePerIntent: number | null;
  peakConcurrentRequests: number;
  cpuMs: number | null;
  /** Browser rows: a popup History look-up (GetIntentHistory through the worker) while the intents are tracked (ms). */
  historyLookupMs?: (Percentiles & { count: number }) | null;
  /**
   * Intents that had ended before they were tracked (browser rows: their track message sent); their latency counts
   * from their tracking: no tracker can tell of an intent before it is asked to track it.
   */
  finishedBeforeTracked?: number;
  /** Scale rows only. */
  scale?: {
    scenario: 'busy' | 'not-in-history' | 'idle' | 'not-found' | 'watched';
    /** Watched rows: how many addresses, and the most requests the service received in any 60 s of the window. */
    watchedAddresses?: number;
    maxRequestsInAMinute?: number;
    /** Watched rows: requests a minute the background lane (watched check, ETA baselines) sent in the window. */
    backgroundPerMinute?: number;
    /** Longest time (ms) a tracked intent not yet notified went without an individual answer (see README). */
    largestStalenessMs: number | null;
    serverWaitMs: number;
    /** How long the run lasted (ms). */
    runMs: number;
    /** Busy row: the others' rate, and the simulator's own time for GetIntentHistory (ms). */
    othersPerHour?: number;
    simulatorHistoryMs?: { p50: number; max: number; calls: number } | null;
  };
  /** Desk rows only (`./bench-desk.ts`): tracking them all, popup open, search (ms). */
  desk?: DeskFigures;
  /** Memory rows only (`./bench-memory.ts`): the worker's process and JS heap with `intents` tracked (MB). */
  memory?: MemoryFigures;
  /** Chain rows only (`./bench-chain.ts`): destination block to verified / arrived (ms), RPC requests per chain. */
  chain?: ChainFigures;
}

const chromium = (() => {
  try {
    return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const machine = {
  date: new Date().toISOString(),
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  os: `${os.type()} ${os.release()}`,
  node: process.version,
  chromium,
  settings: { spreadMs: SPREAD_MS, tailMs: TAIL_MS, idleMs: IDLE_MS, serverWaitMs: 20_000, quick: QUICK, scale: SCALE },
};

// ---- simulators (child processes) ----
interface Sim {
  url: string;
  accessKey: string;
  client: SvcClient;
  child: ChildProcess;
  control<T>(path: string, body?: unknown): Promise<T>;
  requestsBetween(from: number, to: number): Promise<RequestLogEntry[]>;
  stop(): void;
}
const children = new Set<ChildProcess>();

/** Starts a simulator child with these CLI flags (`simulator/cli.ts`); resolves once it listens. */
async function startSim(flags: string[] = []): Promise<Sim> {
  const child = spawn('node', ['--import', 'tsx', 'simulator/cli.ts', '--port', '0', '--wait-timeout-ms', '20000', ...flags], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const { url, accessKey } = await new Promise<{ url: string; accessKey: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`simulator exited (${code}) before it was ready`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
  });
  const control = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(
      `${url}${path}`,
      body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
    );
    return (await res.json()) as T;
  };
  return {
    url,
    accessKey,
    client: new SvcClient({ baseUrl: url, accessKey }),
    child,
    control,
    requestsBetween: async (from, to) =>
      (await control<RequestLogEntry[]>('/control/requests')).filter((e) => e.start >= from && e.start < to),
    stop: () => {
      child.kill('SIGTERM');
      children.delete(child);
    },
  };
}

/** Creates `n` intents finishing at uniform random times in [5 s, 5 s + spreadMs]; extra fields go to the control call. */
async function createFinishing(sim: Sim, n: number, spreadMs = SPREAD_MS, extra: () => Record<string, unknown> = () => ({})) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const failure = i % 5 === 4;
    const more = extra();
    const finishIn = 5_000 + Math.random() * spreadMs + Number(more.createdAgoMs ?? 0);
    const stepMs = Math.round(finishIn / scriptLength(failure ? SCRIPTS.failure : SCRIPTS.success));
    const body = { scenario: failure ? 'failure' : 'success', stepMs, ...more };
    ids.push((await sim.control<{ intentId: string }>('/control/intents', body)).intentId);
  }
  return ids;
}

async function createIdle(sim: Sim, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await sim.control<{ intentId: string }>('/control/intents', { scenario: 'stuck', stepMs: 200 })).intentId);
  return ids;
}

function percentiles(values: number[]): Percentiles | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1]! };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const finishedAt = (r: { summary?: { finishedAt?: string | null } | null; updatedAt?: string | null }) =>
  Date.parse(r.summary?.finishedAt ?? r.updatedAt ?? '');

/**
 * What one tracker run saw: latency per notified intent (from its finish, or its tracking when it ended before), when
 * each intent was tracked and notified (ms), and how many ended before they were tracked.
 */
interface Run {
  latencies: number[];
  finishedBeforeTracked: number;
  trackedAt: Map<string, number>;
  notifiedAt: Map<string, number>;
  stop: () => void;
}

/** Runs one tracker (in this process) over `ids` until all are notified or time runs out. */
async function runTracker(sim: Sim, kind: Kind, ids: string[], deadline: number): Promise<Run> {
  const latencies: number[] = [];
  const trackedAt = new Map<string, number>();
  const notifiedAt = new Map<string, number>();
  let finishedBeforeTracked = 0;
  // Latency counts from the finish, or from the intent's tracking when it ended before (creating 5,000 intents at the
  // simulator takes seconds, and the first of them finish from 5 s after their creation): no tracker can tell of an
  // intent before it is asked to track it. As in the browser rows.
  const since = (intentId: string, finished: number) => {
    const tracked = trackedAt.get(intentId) ?? finished;
    if (finished < tracked) finishedBeforeTracked++;
    return Math.max(finished, tracked);
  };
  const client = sim.client;
  if (kind === 'tracker') {
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore: new MemoryStateStore(),
      clock: realClock,
      transport: async () => client,
      notifier: {
        async show(intent) {
          notifiedAt.set(intent.intentId, Date.now());
          if (intent.receipt) latencies.push(Date.now() - since(intent.intentId, finishedAt(intent.receipt)));
          return undefined;
        },
        exists: async () => false,
      },
    });
    for (const id of ids) {
      trackedAt.set(id, Date.now());
      await tracker.track(id);
    }
    while (latencies.length < ids.length && Date.now() < deadline) await sleep(200);
    return { latencies, trackedAt, notifiedAt, finishedBeforeTracked, stop: () => tracker.stop() };
  }
  let stopped = false;
  const loops = ids.map(async (intentId) => {
    trackedAt.set(intentId, Date.now());
    while (!stopped) {
      try {
        const { intentReceipt } = await client.getIntentReceipt({ intentId });
        if (intentReceipt.status === 'SUCCEEDED' || intentReceipt.status === 'FAILED') {
          notifiedAt.set(intentId, Date.now());
          latencies.push(Date.now() - since(intentId, finishedAt(intentReceipt)));
          return;
        }
      } catch {
        // the example client just tries again
      }
      await sleep(2000);
    }
  });
  while (latencies.length < ids.length && Date.now() < deadline) await sleep(200);
  return {
    latencies,
    trackedAt,
    notifiedAt,
    finishedBeforeTracked,
    stop: () => {
      stopped = true;
      void Promise.all(loops);
    },
  };
}

/**
 * Largest staleness (ms): for each tracked intent, the longest stretch without an individual answer about it
 * (GetIntentReceipt or WaitIntentReceipt answered 200, at the time the answer was written) between its tracking
 * and its notification (or `end` when it was not notified); the largest over all intents. History pages do not
 * count: they are what the not-in-history mode takes away.
 */
function largestStaleness(log: readonly RequestLogEntry[], run: Pick<Run, 'trackedAt' | 'notifiedAt'>, end: number): number | null {
  const answers = new Map<string, number[]>();
  for (const e of log) {
    if (!e.intentId || e.end === undefined || e.status !== 200 || e.outcome !== 'answered') continue;
    if (e.operation !== 'GetIntentReceipt' && e.operation !== 'WaitIntentReceipt') continue;
    const list = answers.get(e.intentId) ?? [];
    list.push(e.end);
    answers.set(e.intentId, list);
  }
  let largest: number | null = null;
  for (const [id, from] of run.trackedAt) {
    const to = run.notifiedAt.get(id) ?? end;
    let last = from;
    let gap = 0;
    for (const t of (answers.get(id) ?? []).filter((t) => t > from && t <= to).sort((a, b) => a - b)) {
      gap = Math.max(gap, t - last);
      last = t;
    }
    gap = Math.max(gap, to - last);
    largest = Math.max(largest ?? 0, gap);
  }
  return largest;
}

const perMinute = (count: number, ms: number) => Math.round((count / ms) * 60_000 * 10) / 10;

/** Idle phase: `n` intents that never change; requests per minute over IDLE_MS after a warm-up. */
async function idleRate(sim: Sim, kind: Kind, n: number): Promise<number> {
  const ids = await createIdle(sim, n);
  await sleep(1000);
  const { stop } = await runTracker(sim, kind, ids, Date.now() + 5_000);
  const from = Date.now();
  await sleep(IDLE_MS);
  const count = (await sim.requestsBetween(from, Date.now())).length;
  stop();
  await sleep(500);
  return (count / IDLE_MS) * 60_000;
}

async function runNode(sim: Sim, kind: Kind, n: number): Promise<Figures> {
  const ids = await createFinishing(sim, n);
  const from = Date.now();
  const cpu = process.cpuUsage();
  const { latencies, finishedBeforeTracked, stop } = await runTracker(sim, kind, ids, from + SPREAD_MS + 5_000 + TAIL_MS);
  const cpuUsed = process.cpuUsage(cpu);
  const to = Date.now();
  stop();
  const log = await sim.requestsBetween(from, to);
  await sleep(2500);
  const idle = await idleRate(sim, kind, n);
  return {
    row: `${kind} ${n}`,
    kind,
    intents: n,
    notified: latencies.length,
    latencyMs: percentiles(latencies),
    requestsPerMinute: Math.round((log.length / (to - from)) * 60_000),
    idleRequestsPerMinute: Math.round(idle * 10) / 10,
    idleRequestsPerMinutePerIntent: Math.round((idle / n) * 100) / 100,
    peakConcurrentRequests: peakConcurrency(log),
    cpuMs: Math.round((cpuUsed.user + cpuUsed.system) / 1000),
    finishedBeforeTracked,
  };
}

/** The real extension in Chromium: notification creation time minus the terminal transition. */
async function runBrowser(sim: Sim, n: number): Promise<Figures> {
  // The copy whose worker records notification calls: the latency is read from them (with the build itself no call is
  // seen and every row counts 0 notifications).
  const ext = await launchExtension(undefined, true, undefined, { record: true });
  try {
    await configure(ext, sim.url, sim.accessKey);
    await countNotificationCreates(ext);
    const ids = await createFinishing(sim, n);
    const from = Date.now();
    const popup = await PopupPage.open(ext);
    // When each track message was sent (wall-clock ms). Sending 500 of them takes 5–9 s here, and an intent may end
    // before its own is sent: the worker cannot tell the user before it is asked to track, so such an intent's latency
    // counts from the sending (the row says how many there were).
    const trackedAt: number[] = await popup.page.evaluate(async (list) => {
      const rt = (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime;
      const at: number[] = [];
      for (const intentId of list) {
        at.push(Date.now());
        await rt.sendMessage({ type: 'track', intentId });
      }
      return at;
    }, ids);
    const sentAt = new Map(ids.map((id, i) => [id, trackedAt[i]!]));
    await popup.close();
    const deadline = from + SPREAD_MS + 5_000 + TAIL_MS;
    // The popup's History look-up (the message its History tab sends), timed from an extension page that does not
    // re-read the store on every change, every 1.5 s while the intents are tracked.
    const looker = n >= 100 ? await ext.openPage('options.html') : undefined;
    const lookups: number[] = [];
    let looking = looker !== undefined;
    const lookupLoop = (async () => {
      while (looking && looker) {
        const ms = await looker.evaluate(async () => {
          const rt = (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<{ ok: boolean }> } } }).chrome
            .runtime;
          const t0 = performance.now();
          const reply = await rt.sendMessage({ type: 'lookup', operation: 'getIntentHistory', request: { page: { pageSize: 20 } } });
          return reply?.ok ? performance.now() - t0 : -1;
        });
        if (ms >= 0) lookups.push(Math.round(ms));
        await sleep(1_500);
      }
    })();
    let shown: Array<[string, number]> = [];
    while (Date.now() < deadline) {
      shown = await createdNotificationTimes(ext);
      if (shown.flatMap(([id]) => intentsOfNotificationId(id)).length >= n) break;
      await sleep(500);
    }
    looking = false;
    await lookupLoop;
    await looker?.close();
    const to = Date.now();
    const latencies: number[] = [];
    let finishedBeforeTracked = 0;
    const traced: Array<{ intentId: string; notification: string; finishedAt: number; shownAt: number }> = [];
    // A summary notification stands for several intents: each one's latency is the summary's time.
    for (const [nid, at] of shown) {
      for (const intentId of intentsOfNotificationId(nid)) {
        const { intentReceipt } = await sim.client.getIntentReceipt({ intentId });
        const sent = sentAt.get(intentId) ?? 0;
        if (finishedAt(intentReceipt) < sent) finishedBeforeTracked++;
        latencies.push(at - Math.max(finishedAt(intentReceipt), sent));
        traced.push({ intentId, notification: nid, finishedAt: finishedAt(intentReceipt), shownAt: at });
      }
    }
    const log = await sim.requestsBetween(from, to);
    // BENCH_TRACE=1: every intent's finish and notification times and the simulator's request log, for finding the tail.
    if (process.env.BENCH_TRACE === '1') {
      mkdirSync('bench', { recursive: true });
      writeFileSync(`bench/trace-browser-${n}.json`, JSON.stringify({ from, to, ids, trackedAt, intents: traced, log }));
    }
    return {
      row: `tracker (browser) ${n}`,
      kind: 'tracker (browser)',
      intents: n,
      notified: latencies.length,
      latencyMs: percentiles(latencies),
      requestsPerMinute: Math.round((log.length / (to - from)) * 60_000),
      idleRequestsPerMinute: null,
      idleRequestsPerMinutePerIntent: null,
      peakConcurrentRequests: peakConcurrency(log),
      cpuMs: null,
      historyLookupMs: lookups.length > 0 ? { ...percentiles(lookups)!, count: lookups.length } : null,
      finishedBeforeTracked,
    };
  } finally {
    await ext.close();
    removeProfile(ext.userDataDir);
  }
}

/**
 * One scale row: a fresh simulator with `flags`, intents made by `create`, the tracker over them until all are
 * notified or `runFor` ms passed (`untilAllNotified: false`: the whole time), then the figures.
 */
async function runScale(options: {
  row: string;
  scenario: NonNullable<Figures['scale']>['scenario'];
  flags: string[];
  serverWaitMs: number;
  create: (sim: Sim) => Promise<string[]>;
  runFor: number;
  untilAllNotified: boolean;
  warmUpMs?: number;
  extra?: (log: RequestLogEntry[]) => Partial<NonNullable<Figures['scale']>>;
}): Promise<Figures> {
  const sim = await startSim(['--wait-timeout-ms', String(options.serverWaitMs), ...options.flags]);
  try {
    const ids = await options.create(sim);
    const start = Date.now();
    const cpu = process.cpuUsage();
    const run = await runTracker(sim, 'tracker', ids, options.untilAllNotified ? start + options.runFor : start);
    if (!options.untilAllNotified) await sleep(Math.max(0, start + options.runFor - Date.now()));
    const cpuUsed = process.cpuUsage(cpu);
    const end = Date.now();
    run.stop();
    // Requests are counted after the warm-up (idle rows: the first check of every intent is not idling).
    const from = start + (options.warmUpMs ?? 0);
    const log = await sim.requestsBetween(start, end);
    const counted = log.filter((e) => e.start >= from);
    return {
      row: options.row,
      kind: 'tracker',
      intents: ids.length,
      notified: run.latencies.length,
      latencyMs: percentiles(run.latencies),
      requestsPerMinute: perMinute(counted.length, end - from),
      idleRequestsPerMinute: options.scenario === 'idle' ? perMinute(counted.length, end - from) : null,
      idleRequestsPerMinutePerIntent:
        options.scenario === 'idle' ? Math.round((perMinute(counted.length, end - from) / ids.length) * 100) / 100 : null,
      peakConcurrentRequests: peakConcurrency(log),
      cpuMs: Math.round((cpuUsed.user + cpuUsed.system) / 1000),
      scale: {
        scenario: options.scenario,
        largestStalenessMs: largestStaleness(log, run, end),
        serverWaitMs: options.serverWaitMs,
        runMs: end - start,
        ...options.extra?.(log),
      },
    };
  } finally {
    sim.stop();
  }
}

/** The most entries of `log` that started within any 60 s. */
function maxInAMinute(log: readonly RequestLogEntry[]): number {
  const starts = log.map((e) => e.start).sort((a, b) => a - b);
  let best = 0;
  let j = 0;
  for (let i = 0; i < starts.length; i++) {
    while (starts[i]! - starts[j]! >= 60_000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/**
 * The whole worker idle, as `lib/background.ts` composes it: the tracker, the watched-address check (every 30 s, as
 * the watchdog alarm runs it) and the ETA baselines, each client in its lane of one RequestBudget, over real HTTP.
 */
async function runWatched(addresses: number, serverWaitMs: number): Promise<Figures> {
  const { intents, warmUpMs, windowMs } = SCALE.watched;
  const sim = await startSim(['--wait-timeout-ms', String(serverWaitMs)]);
  const budget = new RequestBudget();
  const client = (lane: Lane) => new SvcClient({ baseUrl: sim.url, accessKey: sim.accessKey, budget, lane, timeoutMs: 20_000 });
  const trackerClient = client('tracker');
  // The background lane's calls, counted as they are made (each then waits for its place in the budget).
  const backgroundCalls: number[] = [];
  const background = new Proxy(client('background'), {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        backgroundCalls.push(Date.now());
        return value.apply(target, args);
      };
    },
  });
  let tracker: Tracker | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  try {
    const ids = await createIdle(sim, intents);
    await sleep(1000);
    const owners = Array.from({ length: addresses }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const settings: Settings = { baseUrl: sim.url, accessKey: sim.accessKey, watchedAddresses: owners, autoTrackAddresses: owners };
    let checkpoints: Record<string, WatchedCheckpoint> = {};
    const t = new Tracker({
      store: new MemoryStore(),
      stateStore: new MemoryStateStore(),
      clock: realClock,
      transport: async () => trackerClient,
      notifier: { show: async () => undefined, exists: async () => false },
      onChange: (id) => {
        if (id) void findBaseline(id);
      },
    });
    tracker = t;
    const findBaseline = createBaselineFinder({ client: async () => background, tracker: t });
    const check = createWatchedCheck({
      settings: { get: async () => settings, set: async () => {} },
      client: async () => background,
      checkpoints: {
        get: async () => ({ ...checkpoints }),
        set: async (c) => {
          checkpoints = c;
        },
      },
      track: async (intentId) => ({ ok: true, added: (await t.track(intentId)).added, intentId }),
    });
    const start = Date.now();
    for (const id of ids) await t.track(id);
    void check();
    timer = setInterval(() => {
      void t.resume();
      void check();
    }, 30_000);
    await sleep(warmUpMs + windowMs);
    const end = Date.now();
    const from = start + warmUpMs;
    const log = await sim.requestsBetween(start, end);
    const counted = log.filter((e) => e.start >= from);
    return {
      row: `idle worker: ${intents} intents + ${addresses} watched addresses, server wait ${serverWaitMs / 1000} s`,
      kind: 'tracker',
      intents,
      notified: 0,
      latencyMs: null,
      requestsPerMinute: perMinute(counted.length, end - from),
      idleRequestsPerMinute: perMinute(counted.length, end - from),
      idleRequestsPerMinutePerIntent: null,
      peakConcurrentRequests: peakConcurrency(log),
      cpuMs: null,
      scale: {
        scenario: 'watched',
        largestStalenessMs: null,
        serverWaitMs,
        runMs: end - start,
        watchedAddresses: addresses,
        maxRequestsInAMinute: maxInAMinute(counted),
        backgroundPerMinute: perMinute(backgroundCalls.filter((at) => at >= from && at <= end).length, end - from),
      },
    };
  } finally {
    if (timer) clearInterval(timer);
    tracker?.stop();
    sim.stop();
  }
}

/** The scale rows selected by BENCH_PARTS, in order. */
function scaleRows(): Array<{ label: string; run: () => Promise<Figures> }> {
  const rows: Array<{ label: string; run: () => Promise<Figures> }> = [];
  const { busy, notInHistory, idle, notFound } = SCALE;
  if (PARTS.has('busy'))
    rows.push({
      label: `${busy.tracked} tracked among ${busy.othersPerHour} others an hour`,
      run: () =>
        runScale({
          row: `busy: ${busy.tracked} tracked among ${busy.othersPerHour}/h others`,
          scenario: 'busy',
          // One hour of the stream is there from the start: the tracked intents were created over that hour.
          flags: ['--busy-per-hour', String(busy.othersPerHour), '--busy-backfill-ms', '3600000'],
          serverWaitMs: 20_000,
          create: (sim) =>
            createFinishing(sim, busy.tracked, busy.spreadMs, () => ({ createdAgoMs: Math.round(60_000 + Math.random() * 54 * 60_000) })),
          runFor: busy.spreadMs + 5_000 + busy.tailMs,
          untilAllNotified: true,
          extra: (log) => {
            const history = log.filter((e) => e.operation === 'GetIntentHistory' && e.end !== undefined).map((e) => e.end! - e.start);
            const p = percentiles(history);
            return { othersPerHour: busy.othersPerHour, simulatorHistoryMs: p ? { p50: p.p50, max: p.max, calls: history.length } : null };
          },
        }),
    });
  if (PARTS.has('not-in-history'))
    rows.push({
      label: `${notInHistory.tracked} tracked that history never lists`,
      run: () =>
        runScale({
          row: `not in history: ${notInHistory.tracked} tracked`,
          scenario: 'not-in-history',
          flags: ['--not-in-history'],
          serverWaitMs: 20_000,
          create: (sim) => createFinishing(sim, notInHistory.tracked, notInHistory.spreadMs),
          runFor: notInHistory.spreadMs + 5_000 + notInHistory.tailMs,
          untilAllNotified: true,
        }),
    });
  if (PARTS.has('idle'))
    for (const wait of idle.serverWaitsMs)
      for (const n of idle.sizes)
        rows.push({
          label: `idle, ${n} intents, server wait ${wait / 1000} s`,
          run: () =>
            runScale({
              row: `idle: ${n} intents, server wait ${wait / 1000} s`,
              scenario: 'idle',
              flags: [],
              serverWaitMs: wait,
              create: async (sim) => {
                const ids = await createIdle(sim, n);
                await sleep(1000);
                return ids;
              },
              runFor: idle.warmUpMs + idle.windowMs,
              untilAllNotified: false,
              warmUpMs: idle.warmUpMs,
            }),
        });
  if (PARTS.has('watched'))
    for (const wait of SCALE.watched.serverWaitsMs)
      for (const n of SCALE.watched.addresses)
        rows.push({ label: `idle worker, ${n} watched addresses, server wait ${wait / 1000} s`, run: () => runWatched(n, wait) });
  if (PARTS.has('not-found'))
    rows.push({
      label: `${notFound.intents} intents NotFound before they appear`,
      run: () =>
        runScale({
          row: `not found, then appears: ${notFound.intents} intents`,
          scenario: 'not-found',
          flags: [],
          serverWaitMs: 20_000,
          create: async (sim) => {
            const ids: string[] = [];
            const [lo, hi] = notFound.stepMs;
            for (let i = 0; i < notFound.intents; i++) {
              // NotFound for two steps, then the success script's third step; SUCCEEDED two steps later.
              const stepMs = Math.round(lo + Math.random() * (hi - lo));
              ids.push(
                (await sim.control<{ intentId: string }>('/control/intents', { scenario: 'not-found-until-later', stepMs })).intentId,
              );
            }
            return ids;
          },
          runFor: scriptLength(SCRIPTS.success) * notFound.stepMs[1] + notFound.tailMs,
          untilAllNotified: true,
        }),
    });
  return rows;
}

/** The desk rows: each size in Node, then in Chromium (a fresh profile and simulator each). */
function deskRows(): Array<{ label: string; run: () => Promise<Figures> }> {
  const row = (name: string, kind: Figures['kind'], n: number, d: DeskFigures): Figures => ({
    row: name,
    kind,
    intents: n,
    notified: d.latencyMs?.count ?? 0,
    latencyMs: null,
    requestsPerMinute: 0,
    idleRequestsPerMinute: d.idleRequestsPerMinute ?? null,
    idleRequestsPerMinutePerIntent: null,
    peakConcurrentRequests: d.peakInFlight ?? 0,
    cpuMs: null,
    desk: d,
  });
  const rows: Array<{ label: string; run: () => Promise<Figures> }> = [];
  for (const n of DESK_SIZES)
    rows.push({ label: `desk in Node, ${n} intents`, run: async () => row(`desk node ${n}`, 'tracker', n, await deskNode(n)) });
  for (const n of DESK_SIZES)
    rows.push({
      label: `desk in Chromium, ${n} intents`,
      run: async () => {
        const sim = await startSim();
        // Recording notification calls: the desk's notification latency is read from them.
        const ext = await launchExtension(undefined, true, undefined, { record: true });
        try {
          await configure(ext, sim.url, sim.accessKey);
          const desk = {
            control: sim.control,
            requestsBetween: sim.requestsBetween,
            finishedAt: async (intentId: string) => finishedAt((await sim.client.getIntentReceipt({ intentId })).intentReceipt),
          };
          const cpuProfilePath = process.env.BENCH_CPU_PROFILE === '1' ? `bench/cpu-desk-${n}.cpuprofile` : undefined;
          const samples = { ...DESK_SAMPLES, ...(cpuProfilePath ? { cpuProfilePath } : {}) };
          return row(`desk browser ${n}`, 'tracker (browser)', n, await deskBrowser(ext, desk, n, samples));
        } finally {
          await ext.close();
          removeProfile(ext.userDataDir);
          sim.stop();
        }
      },
    });
  return rows;
}

/** A memory row: a fresh simulator and profile, the build itself (no recorder). */
async function runMemory(n: number): Promise<Figures> {
  const sim = await startSim();
  const ext = await launchExtension(undefined, true, undefined, {
    record: false,
    inspectWorkerNetwork: process.env.BENCH_INSPECT_NETWORK === '1',
  });
  try {
    const stages: Record<string, number | null> = { launched: (await extensionMemory(ext)).privateMB };
    const launched = (await extensionFootprint(ext)).footprintMB;
    await configure(ext, sim.url, sim.accessKey);
    stages.configured = (await extensionMemory(ext)).privateMB;
    const configured = (await extensionFootprint(ext)).footprintMB;
    const snapshotPath = process.env.BENCH_HEAP_SNAPSHOT === '1' ? `bench/heap-${n}.heapsnapshot` : undefined;
    const allocationPath = process.env.BENCH_ALLOC_PROFILE === '1' ? `bench/alloc-${n}.heapprofile` : undefined;
    const m = await memoryRow(
      ext,
      sim,
      n,
      { ...MEMORY_SAMPLES, ...(snapshotPath ? { snapshotPath } : {}), ...(allocationPath ? { allocationPath } : {}) },
      stages,
    );
    m.footprint.stagesMB = { launched, configured, ...m.footprint.stagesMB };
    return {
      row: `memory browser ${n}`,
      kind: 'tracker (browser)',
      intents: n,
      notified: 0,
      latencyMs: null,
      requestsPerMinute: 0,
      idleRequestsPerMinute: null,
      idleRequestsPerMinutePerIntent: null,
      peakConcurrentRequests: 0,
      cpuMs: null,
      memory: m,
    };
  } finally {
    await ext.close();
    removeProfile(ext.userDataDir);
    sim.stop();
  }
}

// Results are written after every row: the rows this run measured, each with its date and machine, beside every
// earlier row of the file that it did not measure (`./bench-results.ts`).
const earlier = existsSync(OUT) ? earlierRows<Figures>(JSON.parse(readFileSync(OUT, 'utf8')) as ResultsFile<Figures>) : [];
const results: Figures[] = [];
const save = () => {
  const merged = mergeResults(earlier, results);
  mkdirSync('bench', { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ machine, results: merged }, null, 2)}\n`);
  return merged;
};
const record = async (label: string, run: () => Promise<Figures>) => {
  const started = Date.now();
  console.error(`bench: ${label}…`);
  const { date: _date, settings: _settings, ...on } = machine;
  results.push({ ...(await run()), measuredAt: new Date().toISOString(), machine: on });
  console.error(`${JSON.stringify(results[results.length - 1])} (${Math.round((Date.now() - started) / 1000)} s)`);
  save();
};

const benchStart = Date.now();
try {
  if (SIZES.length > 0 || BROWSER_SIZES.length > 0) {
    const sim = await startSim();
    for (const n of SIZES)
      for (const kind of ['tracker', 'baseline'] as const) await record(`${kind}, ${n} intents`, () => runNode(sim, kind, n));
    for (const n of BROWSER_SIZES) await record(`tracker in Chromium, ${n} intents`, () => runBrowser(sim, n));
    sim.stop();
  }
  for (const { label, run } of scaleRows()) await record(label, run);
  for (const { label, run } of deskRows()) await record(label, run);
  for (const n of MEMORY_SIZES) await record(`worker memory, ${n} intents`, () => runMemory(n));
  for (const n of CHAIN_SIZES)
    await record(`on-chain verifier, ${n} intents`, async () => ({
      row: `chain ${n}`,
      kind: 'tracker',
      intents: n,
      notified: 0,
      latencyMs: null,
      requestsPerMinute: 0,
      idleRequestsPerMinute: null,
      idleRequestsPerMinutePerIntent: null,
      peakConcurrentRequests: 0,
      cpuMs: null,
      chain: await chainRow(n),
    }));
} finally {
  for (const child of children) child.kill('SIGTERM');
}

const all = save();
const f = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(v));
console.log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, node ${machine.node}, ${chromium}`);
console.log(`Ran for ${Math.round((Date.now() - benchStart) / 1000)} s${QUICK ? ' (BENCH_QUICK)' : ''}.`);
console.log(
  '| tracker | intents | notified | p50 ms | p95 ms | p99 ms | max ms | req/min running | req/min idle | idle req/min per intent | peak concurrent | CPU ms | History look-up p50/p99/max ms (n) | ended before tracked |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of all.filter((r) => !r.scale && !r.desk && !r.memory && !r.chain)) {
  console.log(
    `| ${r.kind} | ${r.intents} | ${r.notified} | ${f(r.latencyMs?.p50)} | ${f(r.latencyMs?.p95)} | ${f(r.latencyMs?.p99)} | ${f(r.latencyMs?.max)} | ${r.requestsPerMinute} | ${f(r.idleRequestsPerMinute)} | ${f(r.idleRequestsPerMinutePerIntent)} | ${r.peakConcurrentRequests} | ${f(r.cpuMs)} | ${r.historyLookupMs ? `${r.historyLookupMs.p50}/${r.historyLookupMs.p99}/${r.historyLookupMs.max} (${r.historyLookupMs.count})` : '—'} | ${f(r.finishedBeforeTracked)} |`,
  );
}
const scale = all.filter((r) => r.scale);
if (scale.length > 0) {
  console.log('');
  console.log(
    '| scale row (tracker) | intents | notified | p50 ms | p99 ms | max ms | largest staleness s | req/min | most in any minute | background req/min | peak concurrent | run s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of scale) {
    const s = r.scale!;
    const stale = s.largestStalenessMs === null ? null : Math.round(s.largestStalenessMs / 100) / 10;
    console.log(
      `| ${r.row} | ${r.intents} | ${r.notified} | ${f(r.latencyMs?.p50)} | ${f(r.latencyMs?.p99)} | ${f(r.latencyMs?.max)} | ${f(stale)} | ${r.requestsPerMinute} | ${f(s.maxRequestsInAMinute)} | ${f(s.backgroundPerMinute)} | ${r.peakConcurrentRequests} | ${Math.round(s.runMs / 1000)} |`,
    );
  }
}
const desk = all.filter((r) => r.desk);
if (desk.length > 0) {
  const p = (s: { p50: number; p99: number; max: number; count: number } | null | undefined) =>
    s ? `${s.p50}/${s.p99}/${s.max} (${s.count})` : '—';
  console.log('');
  console.log(
    '| desk row | intents | track all ms | one by one ms | popup open → list p50/p99/max ms (n) | first paint → list | open → whole list | search p50/p99/max ms (n) | latency p50/p99/max ms (n) | notifications | ended before tracked | idle req/min | peak in flight | memory private/RSS/JS heap MB |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of desk) {
    const d = r.desk!;
    console.log(
      `| ${r.row} | ${r.intents} | ${d.trackAllMs} | ${f(d.oneByOneMs)} | ${p(d.popupOpenMs)} | ${p(d.listAfterFirstPaintMs)} | ${p(d.fullListMs)} | ${p(d.searchMs)} | ${p(d.latencyMs)} | ${f(d.notificationsCreated)} | ${f(d.endedBeforeTracked)} | ${f(d.idleRequestsPerMinute)} | ${f(d.peakInFlight)} | ${d.memory ? `${f(d.memory.privateMB)}/${f(d.memory.rssMB)}/${f(d.memory.jsHeapMB)}` : '—'} |`,
    );
  }
}
const memory = all.filter((r) => r.memory);
if (memory.length > 0) {
  console.log('');
  console.log(
    '| memory row | intents | final held / finishing | process private / RSS MB | worker JS heap used / total MB | private MB by step | run s |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of memory) {
    const m = r.memory!;
    console.log(
      `| ${r.row} | ${r.intents} | ${m.finalHeld} / ${m.finishing} | ${f(m.processMB.privateMB)} / ${f(m.processMB.rssMB)} | ${m.heap.usedMB} / ${m.heap.totalMB} | ${Object.entries(
        m.stagesMB ?? {},
      )
        .map(([k, v]) => `${k} ${f(v)}`)
        .join(', ')} | ${Math.round(m.runMs / 1000)} |`,
    );
  }
}
const chains = all.filter((r) => r.chain);
if (chains.length > 0) {
  const p = (s: { p50: number; p99: number; max: number; count: number } | null | undefined) =>
    s ? `${s.p50}/${s.p99}/${s.max} (${s.count})` : '—';
  console.log('');
  console.log(
    '| chain row | intents | verified | block → verified p50/p99/max ms (n) | arrived | block → arrived p50/p99/max ms (n) | RPC req/min Arbitrum One / Base | most in a minute | run s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of chains) {
    const c = r.chain!;
    console.log(
      `| ${r.row} | ${r.intents} | ${c.verified} | ${p(c.blockToVerifiedMs)} | ${c.arrived} | ${p(c.blockToArrivedMs)} | ${c.requestsPerMinute[42161]} / ${c.requestsPerMinute[8453]} | ${c.maxRequestsInAMinute[42161]} / ${c.maxRequestsInAMinute[8453]} | ${Math.round(c.runMs / 1000)} |`,
    );
  }
}
process.exit(0);
