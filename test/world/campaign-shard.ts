/**
 * One shard of `npm run campaign` (test/world/campaign-main.ts starts one per job, as a child process with
 * test/world/node-setup.ts loaded first): asks the parent for runs, runs each with {@link runOne} and sends back its
 * verdict (an error nobody caught during a run is one of its violations). Messages from the parent: `{ seed, families }` once, then `{ indices }` (a chunk of run indices) until
 * `{ stop: true }`; to the parent: `{ ready: true }` when it wants a chunk, and one {@link ShardVerdict} per run.
 */
import { familiesFrom, type RunVerdict, runOne } from './campaign';
import type { Family } from './schedule';

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
      }
      await send({ ready: true });
    })();
  } else process.disconnect();
});
