/**
 * The world campaign in `npm test` (WORLD_RUNS schedules, default 150, seed WORLD_SEED, default 20261126) and at
 * length in `npm run campaign:world` (its runs and seed from the same variables, default 2,000 and the time; one line
 * per run with what each invariant was checked and excused). `WORLD_FAULTS=all` turns every fault family on. A failure names
 * the seed and the run's index: `WORLD_SEED=<seed> WORLD_FROM=<index> WORLD_RUNS=1` replays it.
 */
/// <reference types="vite/client" />
import { expect, it, vi } from 'vitest';
import { familiesFrom, runCampaign } from './campaign';
import { type Example, FIXED as FIXED_HERE, KNOWN_FAILING as KNOWN_HERE } from './examples';
import { check, formatTally } from './oracle';
import { runWorld } from './run';

/** Kept schedules in test/world/kept/*.ts (one file per area: each exports FIXED and/or KNOWN_FAILING) join examples.ts's. */
const kept = Object.values(import.meta.glob<{ FIXED?: Example[]; KNOWN_FAILING?: Example[] }>('./kept/*.ts', { eager: true }));
const FIXED = [...FIXED_HERE, ...kept.flatMap((m) => m.FIXED ?? [])];
const KNOWN_FAILING = [...KNOWN_HERE, ...kept.flatMap((m) => m.KNOWN_FAILING ?? [])];

const runs = Number(process.env.WORLD_RUNS ?? 150);
const seed = Number(process.env.WORLD_SEED ?? 20261126);
const from = Number(process.env.WORLD_FROM ?? 0);
const families = familiesFrom(process.env.WORLD_FAULTS);
const verbose = process.env.WORLD_VERBOSE === '1';

it(
  `the production wiring on the simulated platform: ${runs} schedules, seed ${seed}, faults ${[...families].join(',')}`,
  async () => {
    // The worker's own warnings (answers about another intent, refused writes) are what the faults provoke: kept quiet.
    const quiet = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
    const started = Date.now();
    const result = await runCampaign({ seed, runs, families, from, ...(verbose ? { log: (l: string) => console.log(l) } : {}) });
    for (const q of quiet) q.mockRestore();
    console.log(
      `world campaign: ${result.runs} runs in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed}, faults ${[...families].join(',')}\n${formatTally(result.tally)}`,
    );
    if (result.failure) {
      const { index, violations, schedule } = result.failure;
      expect.fail(
        `run ${index} of seed ${seed} failed (replay: WORLD_SEED=${seed} WORLD_FROM=${index} WORLD_RUNS=1 WORLD_FAULTS=${[...families].join(',')}):\n${violations.join('\n')}\nschedule: ${JSON.stringify(schedule)}`,
      );
    }
  },
  Math.max(600_000, runs * 10_000),
);

it('the schedules kept as found and fixed pass', async () => {
  const quiet = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
  const failed: string[] = [];
  for (const example of FIXED) {
    const { violations } = await check(await runWorld(example.schedule, example.seed));
    if (violations.length > 0) failed.push(`${example.found}\n  ${violations.join('\n  ')}`);
  }
  for (const q of quiet) q.mockRestore();
  expect(failed).toEqual([]);
  // About 0.7 s a schedule alone; several times that on a loaded two-core machine.
}, 300_000);

it.skipIf(process.env.WORLD_EXAMPLES !== '1')(
  'the schedules kept as known failures still fail (WORLD_EXAMPLES=1)',
  async () => {
    const quiet = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
    for (const example of KNOWN_FAILING) {
      const { violations } = await check(await runWorld(example.schedule, example.seed));
      console.log(`${example.found}\n  today: ${violations.join('; ') || 'passes'}`);
    }
    for (const q of quiet) q.mockRestore();
  },
  120_000,
);
