/**
 * `npm run campaign`: the world campaign at length — `CAMPAIGN_RUNS` schedules (default 50,000) of the production
 * wiring on the simulated platform, from run `CAMPAIGN_FROM` (default 0) of seed `CAMPAIGN_SEED` (or `WORLD_SEED`;
 * default: the time in seconds), with the fault families of `WORLD_FAULTS` (default `all`: every family of
 * docs/simulation.md's table), sharded over `CAMPAIGN_JOBS` child processes (default: the machine's cores), each
 * running test/world/campaign-shard.ts. A run's verdict does not depend on the shard that ran it nor on the runs
 * before it there, so any failure replays alone from the line printed with it. Prints progress, every failing run
 * with its replay line and violations at once, and at the end how often each invariant was checked and excused,
 * summed over every run, and the failing runs by invariant. Exits 1 when a run failed (or a shard died).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { familiesFrom } from './campaign';
import type { FromShard, ShardVerdict, ToShard } from './campaign-shard';
import { addTally, emptyTally, INVARIANTS, type Tally } from './oracle';

const env = process.env;
const runs = Number(env.CAMPAIGN_RUNS ?? 50_000);
const from = Number(env.CAMPAIGN_FROM ?? 0);
const seed = Number(env.CAMPAIGN_SEED ?? env.WORLD_SEED ?? Math.floor(Date.now() / 1000));
const faults = env.WORLD_FAULTS ?? 'all';
const jobs = Math.max(1, Math.min(Number(env.CAMPAIGN_JOBS ?? availableParallelism()), runs));
const families = familiesFrom(faults);
for (const [name, v] of Object.entries({ CAMPAIGN_RUNS: runs, CAMPAIGN_FROM: from, CAMPAIGN_SEED: seed, CAMPAIGN_JOBS: jobs }))
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${name}: not a whole number (${v})`);

/** Run indices handed out in chunks this long: small enough that the shards end together. */
const CHUNK = 20;
const n = (x: number) => x.toLocaleString('en-US');
const replay = (index: number) => `WORLD_SEED=${seed} WORLD_FROM=${index} WORLD_RUNS=1 WORLD_FAULTS=${faults} npm run campaign:world`;
/** The invariants a run's violations name (`S1: …`), else `other` (the run threw, an error nobody caught). */
const brokenIn = (v: ShardVerdict) =>
  [...new Set(v.violations.map((x) => /^([A-Z]\d)\b/.exec(x)?.[1]).filter(Boolean))].join(',') || 'other';

const total: Tally = emptyTally();
const failures: ShardVerdict[] = [];
let next = from;
let done = 0;
let lastPrint = 0;
let printedAt = -1;
let nextMark = 0.05;
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;

function progress(): void {
  const s = elapsed();
  const rate = done / s;
  console.log(
    `campaign: ${n(done)} / ${n(runs)} runs, ${failures.length} failing, ${rate.toFixed(1)} runs/s, ${Math.round(s)} s${done < runs ? `, ~${Math.round((runs - done) / rate)} s left` : ''}`,
  );
  lastPrint = s;
  printedAt = done;
}

function take(): number[] {
  const end = Math.min(from + runs, next + CHUNK);
  const chunk: number[] = [];
  for (; next < end; next++) chunk.push(next);
  return chunk;
}

function verdict(v: ShardVerdict): void {
  done++;
  addTally(total, v.tally);
  if (v.violations.length > 0) {
    failures.push(v);
    console.log(`FAIL run ${v.index} (${brokenIn(v)}) — replay: ${replay(v.index)}\n  ${v.violations.join('\n  ')}`);
  }
  // Every 5 % (at most one line in 10 s), and at least every minute.
  const since = elapsed() - lastPrint;
  if ((done / runs >= nextMark && since >= 10) || since >= 60) {
    while (done / runs >= nextMark) nextMark += 0.05;
    progress();
  }
}

const shardPath = fileURLToPath(new URL('./campaign-shard.ts', import.meta.url));
const setup = pathToFileURL(fileURLToPath(new URL('./node-setup.ts', import.meta.url))).href;

/** Starts one shard; resolves with the runs it was given and never answered (a shard that died). */
function shard(): Promise<number[]> {
  return new Promise((resolve) => {
    // A larger young generation: a run allocates much and keeps little (about a tenth less time in the collector).
    // `CAMPAIGN_MEM=1`: each shard prints its memory every `CAMPAIGN_MEM_EVERY` runs, after a full collection.
    const gc = env.CAMPAIGN_MEM === '1' ? ['--expose-gc'] : [];
    const child: ChildProcess = fork(shardPath, [], {
      execArgv: ['--max-semi-space-size=64', ...gc, '--import', 'tsx', '--import', setup],
    });
    const owed = new Set<number>();
    child.on('message', (m: FromShard) => {
      if ('verdict' in m) {
        owed.delete(m.verdict.index);
        verdict(m.verdict);
        return;
      }
      const chunk = take();
      if (chunk.length === 0) return void child.send({ stop: true } satisfies ToShard);
      for (const i of chunk) owed.add(i);
      child.send({ indices: chunk } satisfies ToShard);
    });
    child.on('exit', (code, signal) => {
      if (owed.size > 0) console.log(`campaign: a shard died (${signal ?? `exit ${code}`}) owing runs ${[...owed].join(', ')}`);
      resolve([...owed]);
    });
    child.send({ seed, families: faults } satisfies ToShard);
  });
}

console.log(
  `world campaign: ${n(runs)} schedules of seed ${seed} from run ${from}, faults ${faults === 'all' ? `all (${families.size} families)` : [...families].join(',')}, ${jobs} job${jobs === 1 ? '' : 's'}`,
);
const lost = (await Promise.all(Array.from({ length: jobs }, shard))).flat();
if (printedAt !== done) progress();

console.log(`\nper invariant, summed over ${n(done)} runs: checked (excused: why)`);
for (const i of INVARIANTS) {
  const ex = Object.entries(total[i].excused).sort((a, b) => b[1] - a[1]);
  const sum = ex.reduce((s, [, k]) => s + k, 0);
  console.log(
    `  ${i.padEnd(3)} ${n(total[i].checked).padStart(11)}${sum ? `  (+${n(sum)} excused: ${ex.map(([w, k]) => `${w} ${n(k)}`).join(', ')})` : ''}`,
  );
}
failures.sort((a, b) => a.index - b.index);
const byInvariant = new Map<string, number[]>();
for (const f of failures) for (const i of brokenIn(f).split(',')) byInvariant.set(i, [...(byInvariant.get(i) ?? []), f.index]);
console.log(
  `\nworld campaign: ${n(done)} runs of seed ${seed} (runs ${from}–${from + runs - 1}), faults ${faults}, in ${elapsed().toFixed(1)} s (${(done / elapsed()).toFixed(1)} runs/s, ${jobs} job${jobs === 1 ? '' : 's'}): ${failures.length} failing${[...byInvariant].map(([i, xs]) => `\n  ${i} ${xs.length}: runs ${xs.join(', ')}`).join('')}`,
);
if (failures.length > 0) console.log(`replay one: ${replay(failures[0]!.index)}`);
if (lost.length > 0) console.log(`not run (a shard died): ${lost.length} runs`);
process.exitCode = failures.length > 0 || lost.length > 0 || done < runs ? 1 : 0;
