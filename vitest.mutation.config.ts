import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

/**
 * The tracker's unit tests alone, for `npm run mutation` (Stryker); the campaigns run fewer schedules there.
 * `STRYKER_TESTS=test/notify/**\/*.test.ts` runs the notification pipeline's tests instead (with `STRYKER_MUTATE`).
 */
// The desktop campaign's quiet hours cross DST changes in Europe/Madrid (Stryker's runner ignores a later change).
process.env.TZ = 'Europe/Madrid';

export default defineConfig({
  plugins: [WxtVitest(), preact()],
  test: {
    include: (process.env.STRYKER_TESTS ?? 'test/tracker/**/*.test.ts').split(','),
    setupFiles: ['fake-indexeddb/auto', './test/i18n/fake-i18n.ts'],
    environment: 'node',
    testTimeout: 60_000,
    env: {
      TRACKER_CAMPAIGN_RUNS: process.env.TRACKER_CAMPAIGN_RUNS ?? '20',
      DESKTOP_CAMPAIGN_RUNS: process.env.DESKTOP_CAMPAIGN_RUNS ?? '100',
    },
  },
});
