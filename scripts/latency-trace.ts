/**
 * Diagnostic (not part of the bench): one tracker run over `n` intents finishing at random over 60 s, with every
 * request the tracker sends logged (operation, start, end, rows, final rows of still-tracked intents, rows of
 * intents already told) and, per intent, which answer first showed it final. Prints a summary.
 * `node --import tsx scripts/latency-trace.ts N [budget]` (`budget`: the tracker's client in the tracker lane of a
 * RequestBudget, as in the worker).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import './bench-i18n';
import { RequestBudget } from '../lib/api/budget';
import { SvcClient } from '../lib/api/client';
import { MemoryStateStore, MemoryStore } from '../lib/store/memory';
import { realClock } from '../lib/time/clock';
import { Tracker } from '../lib/tracker/engine';
import { SCRIPTS, scriptLength } from '../simulator/lifecycle';

const n = Number(process.argv[2] ?? 1000);
const withBudget = process.argv[3] === 'budget';
const child = spawn('node', ['--import', 'tsx', 'simulator/cli.ts', '--port', '0', '--wait-timeout-ms', '20000'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const { url, accessKey } = await new Promise<{ url: string; accessKey: string }>((r) =>
  createInterface({ input: child.stdout! }).once('line', (l) => r(JSON.parse(l))),
);
const control = async <T>(path: string, body: unknown): Promise<T> =>
  (await (
    await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })
  ).json()) as T;
const ids: string[] = [];
const t0 = Date.now();
for (let i = 0; i < n; i++) {
  const failure = i % 5 === 4;
  const finishIn = 5_000 + Math.random() * 60_000;
  const stepMs = Math.round(finishIn / scriptLength(failure ? SCRIPTS.failure : SCRIPTS.success));
  ids.push((await control<{ intentId: string }>('/control/intents', { scenario: failure ? 'failure' : 'success', stepMs })).intentId);
}
console.error(`created ${n} in ${Date.now() - t0} ms`);
const base = new SvcClient({ baseUrl: url, accessKey, ...(withBudget ? { budget: new RequestBudget(), lane: 'tracker' as const } : {}) });
const told = new Set<string>();
const tracked = new Set(ids);
const firstFinal = new Map<string, { at: number; via: string }>();
const log: Array<Record<string, unknown>> = [];
let inFlight = 0;
let peak = 0;
const finishedAtOf = (r: { summary?: { finishedAt?: string | null } | null; updatedAt?: string | null }) =>
  Date.parse(r.summary?.finishedAt ?? r.updatedAt ?? '');
const finished = new Map<string, number>();
const FINAL = new Set(['SUCCEEDED', 'FAILED', 'REFUNDED', 'ABORTED', 'INVALID']);
const client = new Proxy(base, {
  get(target, prop, receiver) {
    const value = Reflect.get(target, prop, receiver);
    if (typeof value !== 'function' || !['getIntentReceipt', 'waitIntentReceipt', 'getIntentHistoryLite'].includes(String(prop)))
      return value;
    return async (req: Record<string, unknown>, opts: unknown) => {
      const start = Date.now();
      inFlight++;
      peak = Math.max(peak, inFlight);
      const entry: Record<string, unknown> = { op: prop, start, id: req.intentId, page: (req.page as { after?: number })?.after ?? null };
      log.push(entry);
      try {
        const res = await value.call(target, req, opts);
        entry.end = Date.now();
        if (prop === 'getIntentHistoryLite') {
          const rows = (res as { intents: Array<{ intentId: string; receipt?: { status: string } }> }).intents;
          entry.rows = rows.length;
          entry.toldRows = rows.filter((r) => told.has(r.intentId)).length;
          entry.newFinal = 0;
          for (const r of rows)
            if (tracked.has(r.intentId) && r.receipt && FINAL.has(r.receipt.status) && !firstFinal.has(r.intentId)) {
              firstFinal.set(r.intentId, { at: Date.now(), via: 'history' });
              entry.newFinal = (entry.newFinal as number) + 1;
            }
          entry.more = !!(res as { nextPage?: unknown }).nextPage;
        } else {
          const rc = (res as { intentReceipt: { status: string; intentId: string } }).intentReceipt;
          entry.status = rc.status;
          if (FINAL.has(rc.status) && !firstFinal.has(rc.intentId)) firstFinal.set(rc.intentId, { at: Date.now(), via: String(prop) });
        }
        return res;
      } catch (e) {
        entry.end = Date.now();
        entry.error = String(e);
        throw e;
      } finally {
        inFlight--;
      }
    };
  },
});
const latencies: number[] = [];
const notified = new Map<string, number>();
const tracker = new Tracker({
  store: new MemoryStore(),
  stateStore: new MemoryStateStore(),
  clock: realClock,
  transport: async () => client,
  notifier: {
    async show(intent) {
      told.add(intent.intentId);
      notified.set(intent.intentId, Date.now());
      if (intent.receipt) {
        finished.set(intent.intentId, finishedAtOf(intent.receipt));
        latencies.push(Date.now() - finishedAtOf(intent.receipt));
      }
      return undefined;
    },
    exists: async () => false,
  },
});
const from = Date.now();
const mode = process.env.TRACE_TRACK ?? 'many';
if (mode === 'many') await tracker.trackMany(ids.map((intentId) => ({ intentId, extra: {} })));
else for (const id of ids) await tracker.track(id);
console.error(`tracked in ${Date.now() - from} ms`);
const deadline = from + 95_000;
while (latencies.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
tracker.stop();
const simLog = (await (await fetch(`${url}/control/requests`)).json()) as Array<{ operation: string; start: number; end?: number }>;
writeFileSync(`/tmp/lat/sim-${n}${withBudget ? '-budget' : ''}.json`, JSON.stringify(simLog));
const simOps = new Map<string, number>();
for (const e of simLog) if (e.start >= from) simOps.set(e.operation, (simOps.get(e.operation) ?? 0) + 1);
console.error('at the simulator:', JSON.stringify(Object.fromEntries(simOps)));
child.kill();
const pct = (v: number[], p: number) => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const byOp = new Map<string, number>();
for (const e of log) byOp.set(String(e.op), (byOp.get(String(e.op)) ?? 0) + 1);
const pages = log.filter((e) => e.op === 'getIntentHistoryLite');
const dur = (Date.now() - from) / 60_000;
console.log(
  JSON.stringify(
    {
      n,
      withBudget,
      told: latencies.length,
      p50: pct(latencies, 50),
      p99: pct(latencies, 99),
      max: pct(latencies, 100),
      peak,
      reqPerMin: Math.round(log.length / dur),
      byOp: Object.fromEntries(byOp),
      pages: pages.length,
      pageRows: pages.reduce((s, e) => s + ((e.rows as number) ?? 0), 0),
      pageToldRows: pages.reduce((s, e) => s + ((e.toldRows as number) ?? 0), 0),
      pageNewFinal: pages.reduce((s, e) => s + ((e.newFinal as number) ?? 0), 0),
      firstPages: pages.filter((e) => e.page === null).length,
      via: Object.fromEntries(
        ['history', 'getIntentReceipt', 'waitIntentReceipt'].map((v) => [v, [...firstFinal.values()].filter((f) => f.via === v).length]),
      ),
      // Seen final (by the first answer that showed it) minus finished: how long the answer came after the finish.
      seenLagP99: pct(
        [...firstFinal].filter(([id]) => finished.has(id)).map(([id, f]) => f.at - finished.get(id)!),
        99,
      ),
      notifyAfterSeenP99: pct(
        [...firstFinal].filter(([id]) => notified.has(id)).map(([id, f]) => notified.get(id)! - f.at),
        99,
      ),
    },
    null,
    1,
  ),
);
writeFileSync(`/tmp/lat/trace-${n}${withBudget ? '-budget' : ''}.json`, JSON.stringify(log));
process.exit(0);
