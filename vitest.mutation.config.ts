import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

/** The tracker's unit tests alone, for `npm run mutation` (Stryker); the campaign runs fewer schedules there. */
export default defineConfig({
  plugins: [WxtVitest(), preact()],
  test: {
    include: ['test/tracker/**/*.test.ts'],
    setupFiles: ['fake-indexeddb/auto'],
    environment: 'node',
    testTimeout: 60_000,
    env: { CAMPAIGN_RUNS: process.env.CAMPAIGN_RUNS ?? '20' },
  },
});
