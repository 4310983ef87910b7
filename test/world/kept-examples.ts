/**
 * The schedules the world campaign found failing (`./examples.ts` and `./kept/<area>.ts`, one file per area: each
 * exports FIXED and/or KNOWN_FAILING), replayed by `npm run test:kept` and first in `npm run campaign`:
 * `./kept-a.test.ts` and `./kept-b.test.ts`, half each by their place in the list, so that the two halves run side by
 * side. Each fixed one must pass; with `WORLD_EXAMPLES=1`, each known failure is replayed and its verdict printed.
 */
/// <reference types="vite/client" />
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Example, FIXED as FIXED_HERE, KNOWN_FAILING as KNOWN_HERE } from './examples';
import { check } from './oracle';
import { runWorld } from './run';

/** Kept schedules in test/world/kept/*.ts join examples.ts's. */
const kept = Object.values(import.meta.glob<{ FIXED?: Example[]; KNOWN_FAILING?: Example[] }>('./kept/*.ts', { eager: true }));
const FIXED = [...FIXED_HERE, ...kept.flatMap((m) => m.FIXED ?? [])];
const KNOWN_FAILING = [...KNOWN_HERE, ...kept.flatMap((m) => m.KNOWN_FAILING ?? [])];

/** Registers the tests of half `half` (0 or 1) of the kept schedules: those at even places, or at odd ones. */
export function keptExamples(half: 0 | 1): void {
  const mine = <T>(list: readonly T[]) => list.filter((_, i) => i % 2 === half);

  // One test a schedule, so that a failure names its schedule and each has its own limit (the `kept` project's,
  // vitest.config.ts).
  describe(`the schedules kept as found and fixed pass (${mine(FIXED).length} of ${FIXED.length})`, () => {
    const quiet: Array<{ mockRestore(): void }> = [];
    beforeAll(() => {
      quiet.push(
        vi.spyOn(console, 'warn').mockImplementation(() => {}),
        vi.spyOn(console, 'error').mockImplementation(() => {}),
      );
    });
    afterAll(() => {
      for (const q of quiet) q.mockRestore();
    });
    for (const [k, example] of mine(FIXED).entries())
      it(`${k + 1}. seed ${example.seed}: ${example.found.slice(0, 100)}`, async () => {
        const { violations } = await check(await runWorld(example.schedule, example.seed));
        expect(violations, example.found).toEqual([]);
      });
  });

  it.skipIf(process.env.WORLD_EXAMPLES !== '1')(
    'the schedules kept as known failures still fail (WORLD_EXAMPLES=1)',
    async () => {
      const quiet = [vi.spyOn(console, 'warn').mockImplementation(() => {}), vi.spyOn(console, 'error').mockImplementation(() => {})];
      for (const example of mine(KNOWN_FAILING)) {
        const { violations } = await check(await runWorld(example.schedule, example.seed));
        console.log(`${example.found}\n  today: ${violations.join('; ') || 'passes'}`);
      }
      for (const q of quiet) q.mockRestore();
    },
    120_000,
  );
}
