/**
 * Mutation testing (`npm run mutation`: the tracker; `npm run mutation:notify`: the notification pipeline): Stryker
 * changes lib/tracker (or lib/notify) one mutant at a time and runs its tests (vitest.mutation.config.ts); the score is
 * the share of mutants some test kills. `STRYKER_MUTATE=lib/tracker/engine.ts STRYKER_NAME=engine` runs a part alone
 * (its own sandbox and report).
 */
const name = process.env.STRYKER_NAME ?? 'tracker';
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: (process.env.STRYKER_MUTATE ?? 'lib/tracker/**/*.ts').split(','),
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // A mutant that makes a virtual-time loop spin is a timeout: find out soon.
  timeoutMS: 5_000,
  timeoutFactor: 1.25,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  thresholds: { high: 90, low: 85, break: 85 },
  tempDirName: `.stryker-tmp-${name}`,
};
