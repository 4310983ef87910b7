/**
 * In a Chromium with no DevTools attached (a plain process, as a user runs it), a 40 s WaitIntentReceipt completes
 * instead of Chrome stopping the worker 30 s into the fetch — proved from the simulator's side, since Playwright's
 * DevTools connection keeps a worker alive. Its own file so that its real-time wait runs beside the others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  killBrowser,
  launchExtension,
  removeProfile,
  reportFailures,
  spawnPlainChromium,
  tempProfile,
} from '../../drivers/fixtures/launch';
import { expectHeldWaitAnswered, HELD_WAIT_MS } from '../../drivers/fixtures/long-poll';
import { configure } from '../../drivers/pages/options';
import { PopupPage } from '../../drivers/pages/popup';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
const profile = tempProfile();

beforeAll(async () => {
  sim = await startSimulator({ stepMs: 1500, dataset: false });
});
reportFailures(() => sim);
afterAll(async () => {
  await sim?.close();
  removeProfile(profile);
});

describe('worker lifetime with nothing attached', () => {
  it('without DevTools attached, a 40 s WaitIntentReceipt completes rather than being cut at 30 s', async () => {
    // Configure and start tracking through Playwright, then hand the profile to a plain Chromium.
    const setup = await launchExtension(profile);
    const intentId = sim.createIntent('success', 10 * 60_000); // no state change for 10 minutes
    try {
      await configure(setup, sim.url, sim.accessKey);
      const popup = await PopupPage.open(setup);
      await popup.track(intentId);
      await expect.poll(() => popup.statusChip(intentId).textContent()).toBe('Committed');
    } finally {
      await setup.close();
    }
    sim.setWaitTimeout(HELD_WAIT_MS);
    const startedAt = Date.now();
    const chromium = spawnPlainChromium(profile);
    try {
      // The worker starts with the browser (runtime.onStartup), resumes the loop and holds a 40 s wait.
      await expectHeldWaitAnswered(sim, intentId, startedAt, HELD_WAIT_MS);
    } finally {
      sim.setWaitTimeout(20_000);
      await killBrowser(chromium);
    }
  });
});
