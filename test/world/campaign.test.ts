/**
 * The world campaign in `npm test` (WORLD_RUNS schedules, default 20, seed WORLD_SEED, default 20261126) and at
 * length in `npm run campaign:world` (its runs and seed from the same variables, default 2,000 and the time; one line
 * per run with what each invariant was checked and excused); `npm run campaign` runs 50,000 in parallel shards.
 * `WORLD_FAULTS=all` turns every fault family on. A failure names the seed and the run's index:
 * `WORLD_SEED=<seed> WORLD_FROM=<index> WORLD_RUNS=1` replays it. The schedules kept as found are in `./kept-*.test.ts`.
 */
import { expect, it, vi } from 'vitest';
import { familiesFrom, runCampaign } from './campaign';
import { formatTally } from './oracle';

// 20 in `npm test` (about 0.5 s a schedule alone on the 2-core machine of 2026-11-27, more beside the e2e): `npm test`
// keeps within its 8 minutes; the proof is `npm run campaign`'s 50,000.
const runs = Number(process.env.WORLD_RUNS ?? 20);
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
