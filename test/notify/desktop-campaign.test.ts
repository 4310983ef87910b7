/**
 * N1–N5 (README, "Notifications on the desktop") on random schedules of the notification path: see
 * `./desktop-campaign.ts`. Europe/Madrid, so that quiet hours cross a DST change. The five reproductions of issue 19
 * run first (`./desktop-campaign-examples.ts`). `DESKTOP_CAMPAIGN_RUNS` / `DESKTOP_CAMPAIGN_SEED` set the length and
 * the seed (`npm run campaign:desktop` runs 50,000 with a new seed).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// 100 in `npm test` (76 s for 2,000 alone on the 2-core machine of 2026-11-27): within `npm test`'s 8 minutes.
const RUNS = Number(process.env.DESKTOP_CAMPAIGN_RUNS ?? 100);
const SEED = Number(process.env.DESKTOP_CAMPAIGN_SEED ?? 20261123);

describe('desktop campaign (fast-check)', () => {
  const tz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Europe/Madrid';
  });
  afterAll(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it(`keeps N1–N5 on ${RUNS} random schedules (seed ${SEED})`, async () => {
    const { desktopScheduleArb, runDesktopSchedule } = await import('./desktop-campaign');
    const { DESKTOP_EXAMPLES } = await import('./desktop-campaign-examples');
    expect(new Date(2026, 2, 29, 3, 0).getTime() - new Date(2026, 2, 29, 1, 0).getTime()).toBe(3_600_000);
    console.log(`desktop campaign: ${RUNS} schedules, seed ${SEED}`);
    const started = Date.now();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(desktopScheduleArb, async (s) => {
        runs++;
        if (runs % 5_000 === 0) console.log(`desktop campaign: ${runs} runs after ${Math.round((Date.now() - started) / 1000)} s`);
        // The pipeline logs each rejected call it will retry: thousands here, by design.
        const log = console.error;
        console.error = () => {};
        const violations = await runDesktopSchedule(s).finally(() => {
          console.error = log;
        });
        if (violations.length > 0) {
          console.error(`desktop campaign: run ${runs} (seed ${SEED}) broke:\n${violations.join('\n')}\nschedule: ${JSON.stringify(s)}`);
        }
        expect(violations).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: DESKTOP_EXAMPLES.map((s) => [s] as [typeof s]) },
    );
    console.log(`desktop campaign: ${runs} runs in ${Math.round((Date.now() - started) / 1000)} s`);
  }, 86_400_000);
});
