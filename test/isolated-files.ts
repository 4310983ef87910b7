/**
 * The unit files that need a module graph of their own: they mock modules (`vi.mock`, `vi.doMock`) or stub globals
 * (`vi.stubGlobal`), which would leak into the files a worker runs after them. They run in the `unit-isolated`
 * project; the rest of the unit project shares its modules (`isolate: false`, vitest.config.ts).
 * `test/isolated-files.test.ts` fails when a unit file that does so is missing here.
 */
export const ISOLATED_UNIT_FILES = [
  'test/world/v1-oracle-hostile.test.ts',
  'test/worker/compose-tracking-hostile.test.ts',
  'test/worker/kept-hold-unreadable.test.ts',
  'test/background-time.test.ts',
  'test/simulator/chains-start.test.ts',
  'test/notify/forget-mute-hostile.test.ts',
];

/**
 * The schedules the world campaign found failing, replayed (`test/world/kept-*.test.ts`): the `kept` project
 * (vitest.config.ts), run by `npm run test:kept` and first in `npm run campaign`, not in `npm test` (their 70 core-s
 * put it over its 8 minutes; docs/testing.md, "Time"). Virtual time only.
 */
export const KEPT_FILES = ['test/world/kept-a.test.ts', 'test/world/kept-b.test.ts'];
