import { readFileSync } from 'node:fs';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { ISOLATED_UNIT_FILES, KEPT_FILES } from './test/isolated-files';

/**
 * Five projects:
 * - `unit`: plain modules and components, with WXT's fakeBrowser and fake-indexeddb (no browser);
 * - `kept`: the schedules the world campaign found failing, replayed as `unit` (`npm run test:kept`, and first in
 *   `npm run campaign`; not in `npm test`);
 * - `built`: the built manifests (`npm run build:all` first): permissions, install warnings, commands;
 * - `e2e`: the built extension in Debian's Chromium (playwright-core) against the simulator over real HTTP;
 * - `e2e-firefox`: the Firefox package in Debian's Firefox ESR (puppeteer-core over WebDriver BiDi), likewise.
 * `built` and both e2e projects need `npm run build:all` first (`npm test` does it).
 *
 * The e2e files run side by side (`npm run test:e2e` runs both browsers' files in one pool of
 * `E2E_WORKERS`, default 4): each file starts its own simulator on a free port and its own browser with a fresh
 * profile. A file alone mostly waits on the browsers' real clocks (Chrome's 30 s worker limit, alarms, quiet hours);
 * four at a time keep both cores busy (docs/testing.md, "Time").
 */
/**
 * The slowest files first (the unit project's campaigns; the e2e files whose waits are on the browsers' and the chains'
 * real clocks), so that a pool of workers does not end with one long file alone; a clean clone has no timing cache to
 * order them by.
 */
const SLOW_FIRST = [
  // The unit and kept projects' longest files, by their time alone (vitest orders each project's files by this list
  // too).
  'world/kept-a.test.ts',
  'world/kept-b.test.ts',
  'background.test.ts',
  'world/campaign.test.ts',
  'scripts/lanes.test.ts',
  'tracker/campaign.test.ts',
  'worker/compose-tracking-hostile.test.ts',
  'simulator/chains.test.ts',
  'notify/desktop-campaign.test.ts',
  // The e2e files, longest first by their time in a pool of four (measured alone, each browser's start included):
  // calm waits 25-85 s for the end of its quiet hours, the long-poll files hold 40 s waits.
  'calm.e2e.ts',
  'firefox/main.firefox.ts',
  'firefox/calm.firefox.ts',
  'firefox/long-poll.firefox.ts',
  'firefox/chain.firefox.ts',
  'long-poll.e2e.ts',
  'chain.e2e.ts',
  'scale.e2e.ts',
  'a11y.e2e.ts',
  'firefox/lifetime.firefox.ts',
  'lifetime.e2e.ts',
  'eta.e2e.ts',
  'desk.e2e.ts',
  'firefox/desk.firefox.ts',
  'keyboard.e2e.ts',
  'panel.e2e.ts',
  'track.e2e.ts',
  'oneclick.e2e.ts',
];

/** `list` in an order drawn from `seed` (Fisher–Yates over a Park–Miller generator). */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let state = seed % 2_147_483_647 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 48_271) % 2_147_483_647;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * `expect.poll` waits up to 10 s unless told (Vitest's default is 1 s). Every poll names what it waits for, so the
 * limit only bounds a failure, and a loaded machine must not make a passing wait fail: with the e2e suites beside the
 * unit project on two cores, an options page took over a second to show its saved service URL (chain.e2e.ts).
 */
const POLL = { poll: { timeout: 10_000 } };

/** A file's own environment, named in a comment at its top (`// @vitest-environment happy-dom`). */
const ENVIRONMENT_COMMENT = /@vitest-environment\s+\S/;

/**
 * The settings of the `unit` and `kept` projects: modules shared within a worker, with the unit setup before each
 * file.
 */
const SHARED_MODULES_UNIT = {
  expect: POLL,
  isolate: false,
  setupFiles: ['fake-indexeddb/auto', './test/fresh-globals.ts', './test/i18n/fake-i18n.ts', './test/wait-setup.ts'],
  environment: 'node',
  // Vitest's default is one worker less than the cores: one worker on this 2-core machine, where the main process
  // mostly waits and so do files on real timers and HTTP. Two alone; `npm test` runs three beside its builds and
  // checks (scripts/test.sh: 105-111 s against 122 s with two).
  maxWorkers: Number(process.env.UNIT_WORKERS ?? 2),
};

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // `UNIT_SHUFFLE_SEED=<n>`: the files in an order drawn from n instead, to find a file that depends on what an earlier
    // one left behind (the unit project's files share their modules, `isolate: false`).
    const seed = Number(process.env.UNIT_SHUFFLE_SEED);
    if (Number.isInteger(seed) && seed > 0) return shuffled(sorted, seed);
    // Vitest hands a worker on to the next file in the queue only when that file is of the same project, shares its
    // modules (`isolate: false`) and has the same environment; any other next file ends the worker, and the file
    // after it imports every module again. So the files with a module graph each go first, then those of the
    // project's environment, then those that name another one (`@vitest-environment happy-dom`: the components),
    // each part slowest first.
    const key = (f: TestSpecification) => {
      const sharesModules = f.project.config.isolate === false ? 1 : 0;
      const otherEnvironment = ENVIRONMENT_COMMENT.test(readFileSync(f.moduleId, 'utf8').slice(0, 1000)) ? 1 : 0;
      const i = SLOW_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return [sharesModules, otherEnvironment, i < 0 ? SLOW_FIRST.length : i];
    };
    const keys = new Map(sorted.map((f) => [f, key(f)]));
    const compare = (a: number[], b: number[]) => a.reduce((d, x, i) => d || x - b[i]!, 0);
    return [...sorted].sort((a, b) => compare(keys.get(a)!, keys.get(b)!));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        plugins: [WxtVitest(), preact()],
        test: {
          name: 'unit',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**', 'test/built/**', ...ISOLATED_UNIT_FILES, ...KEPT_FILES],
          ...SHARED_MODULES_UNIT,
          // A test's and a hook's limits only bound a failure: on a loaded machine (this project once ran beside both
          // browsers' e2e) a beforeAll reading 50 history pages over HTTP took over the default 10 s, and an
          // options-page test of three saves (fake-indexeddb, Testing Library's waits) over 20 s.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [WxtVitest(), preact()],
        test: {
          name: 'kept',
          include: KEPT_FILES,
          ...SHARED_MODULES_UNIT,
          // One test a schedule: most take 0.4 s alone, the heaviest 3 s; the limit only bounds a hang.
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        plugins: [WxtVitest(), preact()],
        test: {
          name: 'unit-isolated',
          expect: POLL,
          include: ISOLATED_UNIT_FILES,
          setupFiles: ['fake-indexeddb/auto', './test/i18n/fake-i18n.ts', './test/wait-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: Number(process.env.UNIT_WORKERS ?? 2),
        },
      },
      {
        test: {
          name: 'built',
          include: ['test/built/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'e2e',
          expect: POLL,
          // The files of a worker share their modules (playwright-core, puppeteer-core, the simulator): imported once
          // a worker, not once a file (the files' import time 158 s summed to 83 s, the pool 404 s to 367 s alone).
          // Each file starts its own simulator and browser; nothing of a file's is kept in a module. Vitest hands a
          // worker on only to a next file of the same project: in the slow-first order, which mixes the two browsers'
          // files, most files start a worker of their own. Both browsers' files in one project shared their workers
          // (5 instead of about 20, imports 22 s summed instead of 43-58 s), but the pool took 362-383 s against
          // 338-366 s (docs/testing.md, "Time"): not taken.
          isolate: false,
          include: ['test/e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e-firefox',
          expect: POLL,
          isolate: false, // as the e2e project
          include: ['test/e2e/**/*.firefox.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
