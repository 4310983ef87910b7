/**
 * One shard of `npm run campaign` (test/world/campaign-main.ts starts one per job, as a child process with
 * test/world/node-setup.ts loaded first): asks the parent for runs, runs each with {@link runOne} and sends back its
 * verdict (an error nobody caught during a run is one of its violations). Messages from the parent: `{ seed, families }` once, then `{ indices }` (a chunk of run indices) until
 * `{ stop: true }`; to the parent: `{ ready: true }` when it wants a chunk, and one {@link ShardVerdict} per run.
 * With `CAMPAIGN_MEM=1` it prints its memory every `CAMPAIGN_MEM_EVERY` runs (default 250; see {@link memoryLine}).
 */
import { writeHeapSnapshot } from 'node:v8';
import { familiesFrom, type RunVerdict, runOne } from './campaign';
import type { Family } from './schedule';
import { worldsAlive } from './world';

/** A run's verdict as a shard sends it (the schedule only when the run failed). */
export type ShardVerdict = Omit<RunVerdict, 'schedule'> & { schedule?: RunVerdict['schedule'] };

/** What the parent sends a shard. */
export type ToShard = { seed: number; families: string } | { indices: number[] } | { stop: true };

/** What a shard sends the parent. */
export type FromShard = { ready: true } | { verdict: ShardVerdict };

const send = (m: FromShard) =>
  new Promise<void>((resolve, reject) => process.send!(m, undefined, undefined, (err) => (err ? reject(err) : resolve())));

// The worker's own warnings (answers about another intent, refused writes) are what the faults provoke: kept quiet.
console.warn = () => {};
console.error = () => {};

// An error nobody caught fails the run in progress, as vitest fails its test (`npm run campaign:world`), instead of
// ending the shard.
const uncaught: string[] = [];
const record = (what: string) => (err: unknown) =>
  uncaught.push(`${what}: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
process.on('unhandledRejection', record('an unhandled rejection'));
process.on('uncaughtException', record('an uncaught exception'));

const MB = 1024 * 1024;
const memEvery = process.env.CAMPAIGN_MEM === '1' ? Number(process.env.CAMPAIGN_MEM_EVERY ?? 250) : 0;
/** Runs after which a heap snapshot is written to the working directory (`CAMPAIGN_HEAP_AT=300,600`). */
const heapAt = new Set((process.env.CAMPAIGN_HEAP_AT ?? '').split(',').filter(Boolean).map(Number));
let ran = 0;
let lastAt = performance.now();

/**
 * One line of this shard's memory after `ran` runs (MB; after a full collection when the parent gave `--expose-gc`)
 * and its pace over the runs since the last line.
 */
function memoryLine(): string {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const now = performance.now();
  const rate = (memEvery * 1000) / (now - lastAt);
  lastAt = now;
  const f = (x: number) => (x / MB).toFixed(0);
  return `shard ${process.pid}: ${ran} runs, rss ${f(m.rss)} MB, heap ${f(m.heapUsed)} / ${f(m.heapTotal)} MB, external ${f(m.external)} MB, array buffers ${f(m.arrayBuffers)} MB, ${rate.toFixed(1)} runs/s, ${worldsAlive()} worlds not collected`;
}

function afterRun(): void {
  ran++;
  if (memEvery > 0 && ran % memEvery === 0) console.log(memoryLine());
  if (heapAt.has(ran)) console.log(`shard ${process.pid}: heap snapshot ${writeHeapSnapshot()}`);
}

let seed = 0;
let families: Set<Family> = new Set();
process.on('message', (m: ToShard) => {
  if ('seed' in m) {
    seed = m.seed;
    families = familiesFrom(m.families);
    void send({ ready: true });
  } else if ('indices' in m) {
    void (async () => {
      for (const index of m.indices) {
        const { schedule, ...verdict } = await runOne(seed, index, families);
        verdict.violations.unshift(...uncaught.splice(0));
        await send({ verdict: verdict.violations.length > 0 ? { ...verdict, schedule } : verdict });
        afterRun();
      }
      await send({ ready: true });
    })();
  } else process.disconnect();
});
