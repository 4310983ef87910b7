/**
 * `npm run bench`: this tracker against the spec's client example (GetIntentReceipt every 2 s per intent,
 * unbounded), side by side on one simulator (a child process, so the figures of this process are the trackers'):
 * for 1, 100 and 500 intents finishing at random times over SPREAD_MS, notification latency after the terminal
 * transition (p50/p95/p99/max), requests per minute (total while running, and per idle intent when nothing
 * changes), peak concurrent requests at the simulator, CPU time of the tracker process. The real-browser path is
 * measured for 1 and 100 intents. Figures go to bench/results.json and are printed as a table.
 *
 * Not part of `npm test`. Takes about 15 minutes. `BENCH_QUICK=1` runs a short version (for trying it out).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { SvcClient } from '../lib/api/client';
import { realClock } from '../lib/background';
import { MemoryStateStore, MemoryStore } from '../lib/store/memory';
import { Tracker } from '../lib/tracker/engine';
import { launchExtension, removeProfile } from '../test/e2e/fixtures/launch';
import { countNotificationCreates, createdNotificationTimes, intentsOfNotificationId } from '../test/e2e/fixtures/notifications';
import { configure } from '../test/e2e/pages/options';
import { PopupPage } from '../test/e2e/pages/popup';
import { peakConcurrency, type RequestLogEntry } from '../test/simulator/server';

const QUICK = process.env.BENCH_QUICK === '1';
// The browser runs use a copy of the build, so that rebuilding while the benchmark runs changes nothing.
rmSync('.output/bench-chrome-mv3', { recursive: true, force: true });
cpSync('.output/chrome-mv3', '.output/bench-chrome-mv3', { recursive: true });
process.env.SVC_EXTENSION_DIR = '.output/bench-chrome-mv3';
const SPREAD_MS = QUICK ? 20_000 : 60_000;
const TAIL_MS = QUICK ? 15_000 : 30_000;
const IDLE_MS = QUICK ? 15_000 : 40_000;
const PARTS = (process.env.BENCH_PARTS ?? 'node,browser').split(',');
const SIZES = PARTS.includes('node') ? (QUICK ? [1, 20] : [1, 100, 500]) : [];
const BROWSER_SIZES = PARTS.includes('browser') ? (QUICK ? [1] : [1, 100]) : [];
const OUT = QUICK ? 'bench/results.quick.json' : 'bench/results.json';

type Kind = 'tracker' | 'baseline';
interface Figures {
  kind: Kind | 'tracker (browser)';
  intents: number;
  notified: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number } | null;
  requestsPerMinute: number;
  idleRequestsPerMinute: number | null;
  idleRequestsPerMinutePerIntent: number | null;
  peakConcurrentRequests: number;
  cpuMs: number | null;
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
  settings: { spreadMs: SPREAD_MS, tailMs: TAIL_MS, idleMs: IDLE_MS, serverWaitMs: 20_000, quick: QUICK },
};
// ---- simulator (child process) ----
const child = spawn('node', ['--import', 'tsx', 'test/simulator/cli.ts', '--port', '0', '--wait-timeout-ms', '20000'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const ready = await new Promise<{ url: string; accessKey: string }>((resolve) => {
  createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
});
const { url, accessKey } = ready;
const client = new SvcClient({ baseUrl: url, accessKey });

async function control<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    `${url}${path}`,
    body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
  );
  return (await res.json()) as T;
}

/** Creates `n` intents finishing at uniform random times in [5 s, 5 s + SPREAD_MS]. */
async function createFinishing(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const failure = i % 5 === 4;
    const finishIn = 5_000 + Math.random() * SPREAD_MS;
    const stepMs = Math.round(finishIn / (failure ? 3 : 4));
    ids.push((await control<{ intentId: string }>('/control/intents', { scenario: failure ? 'failure' : 'success', stepMs })).intentId);
  }
  return ids;
}

async function createIdle(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await control<{ intentId: string }>('/control/intents', { scenario: 'stuck', stepMs: 200 })).intentId);
  return ids;
}

const requestsBetween = async (from: number, to: number) =>
  (await control<RequestLogEntry[]>('/control/requests')).filter((e) => e.start >= from && e.start < to);

function percentiles(values: number[]) {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  return { p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1]! };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const finishedAt = (r: { summary?: { finishedAt?: string | null } | null; updatedAt?: string | null }) =>
  Date.parse(r.summary?.finishedAt ?? r.updatedAt ?? '');

/** Runs one tracker (in this process) over `ids` until all are notified or time runs out. */
async function runTracker(kind: Kind, ids: string[], deadline: number): Promise<{ latencies: number[]; stop: () => void }> {
  const latencies: number[] = [];
  if (kind === 'tracker') {
    const tracker = new Tracker({
      store: new MemoryStore(),
      stateStore: new MemoryStateStore(),
      clock: realClock,
      transport: async () => client,
      notifier: {
        async show(intent) {
          if (intent.receipt) latencies.push(Date.now() - finishedAt(intent.receipt));
          return undefined;
        },
        exists: async () => false,
      },
    });
    for (const id of ids) await tracker.track(id);
    while (latencies.length < ids.length && Date.now() < deadline) await sleep(200);
    return { latencies, stop: () => tracker.stop() };
  }
  let stopped = false;
  const loops = ids.map(async (intentId) => {
    while (!stopped) {
      try {
        const { intentReceipt } = await client.getIntentReceipt({ intentId });
        if (intentReceipt.status === 'SUCCEEDED' || intentReceipt.status === 'FAILED') {
          latencies.push(Date.now() - finishedAt(intentReceipt));
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
    stop: () => {
      stopped = true;
      void Promise.all(loops);
    },
  };
}

/** Idle phase: `n` intents that never change; requests per minute over IDLE_MS after a warm-up. */
async function idleRate(kind: Kind, n: number): Promise<number> {
  const ids = await createIdle(n);
  await sleep(1000);
  const { stop } = await runTracker(kind, ids, Date.now() + 5_000);
  const from = Date.now();
  await sleep(IDLE_MS);
  const count = (await requestsBetween(from, Date.now())).length;
  stop();
  await sleep(500);
  return (count / IDLE_MS) * 60_000;
}

async function runNode(kind: Kind, n: number): Promise<Figures> {
  const ids = await createFinishing(n);
  const from = Date.now();
  const cpu = process.cpuUsage();
  const { latencies, stop } = await runTracker(kind, ids, from + SPREAD_MS + 5_000 + TAIL_MS);
  const cpuUsed = process.cpuUsage(cpu);
  const to = Date.now();
  stop();
  const log = await requestsBetween(from, to);
  await sleep(2500);
  const idle = await idleRate(kind, n);
  return {
    kind,
    intents: n,
    notified: latencies.length,
    latencyMs: percentiles(latencies),
    requestsPerMinute: Math.round((log.length / (to - from)) * 60_000),
    idleRequestsPerMinute: Math.round(idle * 10) / 10,
    idleRequestsPerMinutePerIntent: Math.round((idle / n) * 100) / 100,
    peakConcurrentRequests: peakConcurrency(log),
    cpuMs: Math.round((cpuUsed.user + cpuUsed.system) / 1000),
  };
}

/** The real extension in Chromium: notification creation time minus the terminal transition. */
async function runBrowser(n: number): Promise<Figures> {
  const ext = await launchExtension();
  try {
    await configure(ext, url, accessKey);
    await countNotificationCreates(ext);
    const ids = await createFinishing(n);
    const from = Date.now();
    const popup = await PopupPage.open(ext);
    await popup.page.evaluate(async (list) => {
      const rt = (globalThis as unknown as { chrome: { runtime: { sendMessage(m: unknown): Promise<unknown> } } }).chrome.runtime;
      for (const intentId of list) await rt.sendMessage({ type: 'track', intentId });
    }, ids);
    await popup.close();
    const deadline = from + SPREAD_MS + 5_000 + TAIL_MS;
    let shown: Array<[string, number]> = [];
    while (Date.now() < deadline) {
      shown = await createdNotificationTimes(ext);
      if (shown.flatMap(([id]) => intentsOfNotificationId(id)).length >= n) break;
      await sleep(500);
    }
    const to = Date.now();
    const latencies: number[] = [];
    // A summary notification stands for several intents: each one's latency is the summary's time.
    for (const [nid, at] of shown) {
      for (const intentId of intentsOfNotificationId(nid)) {
        const { intentReceipt } = await client.getIntentReceipt({ intentId });
        latencies.push(at - finishedAt(intentReceipt));
      }
    }
    const log = await requestsBetween(from, to);
    return {
      kind: 'tracker (browser)',
      intents: n,
      notified: latencies.length,
      latencyMs: percentiles(latencies),
      requestsPerMinute: Math.round((log.length / (to - from)) * 60_000),
      idleRequestsPerMinute: null,
      idleRequestsPerMinutePerIntent: null,
      peakConcurrentRequests: peakConcurrency(log),
      cpuMs: null,
    };
  } finally {
    await ext.close();
    removeProfile(ext.userDataDir);
  }
}

// Results are written after every configuration; with BENCH_PARTS, the other parts' figures are kept.
const earlier: Figures[] =
  existsSync(OUT) && PARTS.length < 2 ? (JSON.parse(readFileSync(OUT, 'utf8')) as { results: Figures[] }).results : [];
const results: Figures[] = [];
const save = () => {
  const merged = [...earlier.filter((e) => !results.some((r) => r.kind === e.kind && r.intents === e.intents)), ...results].sort(
    (a, b) =>
      Number(a.kind.includes('browser')) - Number(b.kind.includes('browser')) || a.intents - b.intents || a.kind.localeCompare(b.kind),
  );
  mkdirSync('bench', { recursive: true });
  writeFileSync(OUT, `${JSON.stringify({ machine, results: merged }, null, 2)}\n`);
  return merged;
};
try {
  for (const n of SIZES) {
    for (const kind of ['tracker', 'baseline'] as const) {
      console.error(`bench: ${kind}, ${n} intents…`);
      results.push(await runNode(kind, n));
      console.error(JSON.stringify(results[results.length - 1]));
      save();
    }
  }
  for (const n of BROWSER_SIZES) {
    console.error(`bench: tracker in Chromium, ${n} intents…`);
    results.push(await runBrowser(n));
    console.error(JSON.stringify(results[results.length - 1]));
    save();
  }
} finally {
  child.kill('SIGTERM');
}

const all = save();

const f = (v: number | null | undefined) => (v === null || v === undefined ? '—' : String(v));
console.log(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, node ${machine.node}, ${chromium}`);
console.log(
  '| tracker | intents | notified | p50 ms | p95 ms | p99 ms | max ms | req/min running | req/min idle | idle req/min per intent | peak concurrent | CPU ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of all) {
  console.log(
    `| ${r.kind} | ${r.intents} | ${r.notified} | ${f(r.latencyMs?.p50)} | ${f(r.latencyMs?.p95)} | ${f(r.latencyMs?.p99)} | ${f(r.latencyMs?.max)} | ${r.requestsPerMinute} | ${f(r.idleRequestsPerMinute)} | ${f(r.idleRequestsPerMinutePerIntent)} | ${r.peakConcurrentRequests} | ${f(r.cpuMs)} |`,
  );
}
process.exit(0);
