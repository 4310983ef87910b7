/**
 * The tracker's invariants I1–I6 (README, "Tracking policy") on random schedules: see `./campaign.ts`. A failure
 * prints the seed and the shrunk schedule; `CAMPAIGN_SEED=N npm run campaign` replays it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runSchedule, scheduleArb } from './campaign';

const RUNS = Number(process.env.CAMPAIGN_RUNS ?? 2_000);
const SEED = Number(process.env.CAMPAIGN_SEED ?? 20261122);

describe('tracker campaign (fast-check)', () => {
  it(`keeps I1–I6 on ${RUNS} random schedules (seed ${SEED})`, async () => {
    console.log(`campaign: ${RUNS} schedules, seed ${SEED}`);
    const started = Date.now();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(scheduleArb, async (s) => {
        // A long campaign says how far it is (shrinking a failure counts too).
        if (++runs % 5_000 === 0) console.log(`campaign: ${runs} runs after ${Math.round((Date.now() - started) / 1000)} s`);
        expect(await runSchedule(s)).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 86_400_000);
});
