/**
 * Worker and browser lifetime: tracking survives a stopped worker and a browser restart with exactly one
 * notification per intent. The time an intent needs to finish while the worker or the browser is down is the
 * simulator's, moved forward, not waited for. (The 45 s WaitIntentReceipt with no DevTools attached is in
 * `long-poll.e2e.ts`, so that its wait runs beside this file's.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ExtensionBrowser,
  launchExtension,
  removeProfile,
  reportFailures,
  stopWorker,
  tempProfile,
} from '../../drivers/fixtures/launch';
import { createsFor, waitForNotification } from '../../drivers/fixtures/notifications';
import { readTracked } from '../../drivers/fixtures/storage';
import { configure } from '../../drivers/pages/options';
import { PopupPage } from '../../drivers/pages/popup';
import { type Simulator, startSimulator } from '../../simulator/server';

let sim: Simulator;
const profiles: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ stepMs: 1500 });
});
reportFailures(() => sim);
afterAll(async () => {
  await sim?.close();
  for (const p of profiles) removeProfile(p);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;

/** The simulator's log of calls about one intent. */
const requestsFor = (intentId: string) => sim.requests().filter((r) => r.intentId === intentId);

describe('worker and browser lifetime', () => {
  it('an intent that finishes while the worker is stopped is notified once when the worker starts again', async () => {
    const ext = await launchExtension();
    profiles.push(ext.userDataDir);
    try {
      await configure(ext, sim.url, sim.accessKey);
      // SUCCEEDED 5 steps (30 s) after creation: long after the worker is stopped below, however slow the machine.
      const intentId = sim.createIntent('success', 6000);
      const popup = await PopupPage.open(ext);
      await popup.track(intentId);
      await expect.poll(() => popup.statusChip(intentId).textContent()).toMatch(/Committed|Executing/);
      await popup.close();

      // A global that only this instance of the worker has: gone after a real restart.
      await (await ext.worker()).evaluate(() => {
        (globalThis as Record<string, unknown>).__e2eMarker = true;
      });
      await stopWorker(ext);
      const stoppedAt = Date.now();
      // The service's clock moves past SUCCEEDED with the worker stopped, and nothing asks about the intent meanwhile
      // (no worker, no loop).
      sim.advanceClock(30_000);
      await sleep(1500);
      expect(requestsFor(intentId).filter((r) => r.start > stoppedAt)).toHaveLength(0);

      // Opening the popup wakes the worker, which resumes the loop and learns the intent is done.
      const again = await PopupPage.open(ext);
      const [shown] = await waitForNotification(ext, intentId, { timeoutMs: 20_000 });
      expect(shown).toMatchObject({ title: `Intent succeeded · ${short(intentId)}`, outcome: expect.stringMatching(/ok|pending/) });
      await expect.poll(() => again.statusChip(intentId).textContent()).toBe('Succeeded');
      expect(await (await ext.worker()).evaluate(() => (globalThis as Record<string, unknown>).__e2eMarker)).toBeUndefined();
      await again.close();

      // Another restart does not notify again.
      await stopWorker(ext);
      const third = await PopupPage.open(ext);
      await sleep(2000);
      // One `create` for the intent over all three worker lives, the one above.
      expect((await createsFor(ext, intentId)).map((c) => c.seq)).toEqual([shown!.seq]);
      expect((await readTracked(ext, intentId))?.notification).toBe('shown');
      await third.close();
    } finally {
      await ext.close();
    }
  });

  it('across a browser restart: a finished intent is not notified again, one that finished while closed is notified once', async () => {
    const profile = tempProfile();
    profiles.push(profile);
    let ext: ExtensionBrowser = await launchExtension(profile);
    let firstRun = '';
    const done = sim.createIntent('success', 500);
    let later = '';
    try {
      await configure(ext, sim.url, sim.accessKey);
      const popup = await PopupPage.open(ext);
      await popup.track(done);
      await waitForNotification(ext, done, { timeoutMs: 20_000 });
      firstRun = (await createsFor(ext, done))[0]!.life;
      // Made only now, and FAILED 4 steps (40 s) after it is made: long after the browser is closed below, however
      // slow the machine. Made with `done`, the launch, the configuration and the first notification all counted
      // against its time, and on a loaded machine it had failed before it was tracked.
      later = sim.createIntent('failure', 10_000);
      await popup.track(later);
      await expect.poll(() => popup.statusChip(later).textContent()).toMatch(/Committed|Executing/);
    } finally {
      await ext.close();
    }
    const closedAt = Date.now();
    sim.advanceClock(40_000); // `later` fails while the browser is closed.
    await sleep(1500);
    expect(requestsFor(later).filter((r) => r.start > closedAt + 1000)).toHaveLength(0);

    ext = await launchExtension(profile);
    try {
      await waitForNotification(ext, later, { timeoutMs: 45_000, intervalMs: 500 });
      expect((await readTracked(ext, later))?.status).toBe('FAILED');
      await sleep(1500);
      // Over both runs of the browser, every worker life from its first instruction: `done` created once, in the first
      // run; `later` once, after the restart, with its words.
      const doneCreates = await createsFor(ext, done);
      expect(doneCreates.map((c) => c.life)).toEqual([firstRun]);
      const laterCreates = await createsFor(ext, later);
      expect(laterCreates).toHaveLength(1);
      expect(laterCreates[0]!.life).not.toBe(firstRun);
      expect(laterCreates[0]).toMatchObject({ title: `Intent failed · ${short(later)}`, outcome: 'ok' });
    } finally {
      await ext.close();
    }
  });
});
