/**
 * The on-chain verifier's world runs (./chain-campaign.ts) in `npm test`: `CHAIN_WORLD_RUNS` schedules (default 60)
 * from `CHAIN_WORLD_SEED` (default 20261126); a failure prints the seed and the shrunk schedule, which replays it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainScheduleArb, runChainWorld } from './chain-campaign';

const SEED = Number(process.env.CHAIN_WORLD_SEED ?? 20261126);
const RUNS = Number(process.env.CHAIN_WORLD_RUNS ?? 60);

describe('the on-chain verifier in a world of RPC faults and re-orgs', () => {
  it('never says "verified" falsely, tells each true disagreement once, and verifies a good story by the end', async () => {
    await fc.assert(
      fc.asyncProperty(chainScheduleArb, fc.integer({ min: 1, max: 2 ** 30 }), async (schedule, seed) => {
        const result = await runChainWorld(schedule, seed);
        expect(result.violations).toEqual([]);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: false },
    );
  }, 120_000);
});
