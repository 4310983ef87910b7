/**
 * In a Firefox started as a user starts it (no remote agent, nothing attached), a 40 s WaitIntentReceipt completes and
 * the loop goes on — proved from the simulator's side. Its own file and profile so that its real-time wait runs beside
 * the other files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killBrowser, removeProfile } from '../../../drivers/fixtures/launch';
import { firefoxProfile, launchFirefox, spawnPlainFirefox } from '../../../drivers/fixtures/launch-firefox';
import { expectHeldWaitAnswered, HELD_WAIT_MS } from '../../../drivers/fixtures/long-poll';
import { reportFailures } from '../../../drivers/fixtures/report';
import { configure } from '../../../drivers/pages/options';
import { PopupPage } from '../../../drivers/pages/popup';
import { type Simulator, startSimulator } from '../../../simulator/server';

let sim: Simulator;
const profile = firefoxProfile();

beforeAll(async () => {
  sim = await startSimulator({ stepMs: 1000, dataset: false });
});
reportFailures(() => sim);
afterAll(async () => {
  await sim?.close();
  removeProfile(profile);
});

describe('the event page in Firefox with nothing attached', () => {
  it('holds a 40 s WaitIntentReceipt to its answer and the loop goes on', async () => {
    const intentId = sim.createIntent('success', 10 * 60_000); // no state change for 10 minutes
    const ext = await launchFirefox(profile);
    try {
      await configure(ext, sim.url, sim.accessKey);
      const popup = await PopupPage.open(ext);
      await popup.track(intentId);
      await expect.poll(() => popup.statusChip(intentId).textContent(), { timeout: 15_000 }).toMatch(/Committed/);
      await popup.close();
    } finally {
      await ext.close();
    }
    sim.setWaitTimeout(HELD_WAIT_MS);
    const startedAt = Date.now();
    const firefox = spawnPlainFirefox(profile);
    try {
      // The event page starts with Firefox (runtime.onStartup), resumes the loop and holds a 40 s wait.
      await expectHeldWaitAnswered(sim, intentId, startedAt, HELD_WAIT_MS);
    } finally {
      sim.setWaitTimeout(20_000);
      await killBrowser(firefox);
    }
  });
});
