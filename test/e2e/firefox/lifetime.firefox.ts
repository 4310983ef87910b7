/**
 * The add-on's lifetime in Firefox ESR, whose MV3 background is an event page (suspended when idle), one profile
 * throughout, in order:
 * 1. the event page is ended after Firefox showed a notification and before the add-on recorded it: the intent is
 *    not notified again (exactly once without `notifications.getAll()`);
 * 2. a browser restart with the same profile: an intent that finished while Firefox was closed is notified once, a
 *    finished one not again — read from Firefox's own alert windows, which hold everything displayed since the browser
 *    started (the add-on starts before any test can attach);
 * The time an intent needs to finish while Firefox is closed is the simulator's, moved forward, not waited for. (The
 * 45 s WaitIntentReceipt in a Firefox with nothing attached is in `long-poll.firefox.ts`, so that its wait runs
 * beside this file's.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirefoxExtension } from '../../../drivers/fixtures/firefox-extension';
import { removeProfile } from '../../../drivers/fixtures/launch';
import { firefoxProfile, launchFirefox } from '../../../drivers/fixtures/launch-firefox';
import {
  ALERT_WINDOW_PREFS,
  alertsFor,
  alertWindows,
  holdNotification,
  notificationHeld,
  releaseNotification,
  terminateEventPage,
} from '../../../drivers/fixtures/notifications-firefox';
import { reportFailures } from '../../../drivers/fixtures/report';
import { readTrackedFirefox } from '../../../drivers/fixtures/storage';
import { configure } from '../../../drivers/pages/options';
import { PopupPage } from '../../../drivers/pages/popup';
import { type Simulator, startSimulator } from '../../../simulator/server';

let sim: Simulator;
const profile = firefoxProfile(ALERT_WINDOW_PREFS);
let ext: FirefoxExtension | undefined;

beforeAll(async () => {
  sim = await startSimulator({ stepMs: 1000, dataset: false });
});
reportFailures(() => sim);
afterAll(async () => {
  await ext?.close().catch(() => {});
  await sim?.close();
  removeProfile(profile);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const short = (id: string) => `${id.slice(0, 6)}…${id.slice(-4)}`;
const requestsFor = (intentId: string) => sim.requests().filter((r) => r.intentId === intentId);
const record = (intentId: string) => readTrackedFirefox(ext!, intentId);

/** Tracks from the popup and waits until the row shows one of `statuses`. */
async function track(intentId: string, statuses: RegExp): Promise<void> {
  const popup = await PopupPage.open(ext!);
  await popup.track(intentId);
  await expect.poll(() => popup.statusChip(intentId).textContent(), { timeout: 15_000 }).toMatch(statuses);
  await popup.close();
}

/** The intent whose event page was ended between "shown" and "recorded" in the first test, finished and notified once. */
let killed: string;
let killedNotifiedAt: unknown;

describe('the event page in Firefox', () => {
  it('ended between "shown" and "recorded", the intent is not notified again', async () => {
    ext = await launchFirefox(profile, { prefs: ALERT_WINDOW_PREFS });
    await configure(ext, sim.url, sim.accessKey);
    killed = sim.createIntent('success', 800);
    await holdNotification(ext, killed);
    await track(killed, /Committed|Executing|Succeeded/);

    // Firefox is inside notifications.create: the desktop has the notification, the add-on has no answer yet.
    await expect.poll(() => notificationHeld(ext!), { timeout: 20_000 }).toBe(true);
    await expect.poll(async () => (await alertsFor(ext!, killed)).length, { timeout: 5_000 }).toBe(1);
    expect(await record(killed)).toMatchObject({ status: 'SUCCEEDED', notification: 'pending' });

    // End the event page as Firefox ends an idle one, then let Firefox's call return (to nobody).
    await terminateEventPage(ext);
    ext.log.push(`${Date.now()} event page terminated`);
    await releaseNotification(ext);

    // The event page starts again on its next event: the popup's messages (else the 30 s watchdog alarm).
    const popup = await PopupPage.open(ext);
    await expect.poll(async () => (await record(killed))?.notification, { timeout: 40_000, interval: 500 }).toBe('shown');
    await sleep(2000);
    expect(await alertsFor(ext, killed)).toHaveLength(1);
    await popup.close();
    killedNotifiedAt = (await record(killed))?.notifiedAt;
    expect(killedNotifiedAt).toBeTypeOf('number');
  });

  it('across a browser restart: one that finished while closed is notified once, a finished one not again', async () => {
    // FAILED 4 steps (40 s) after it is made: long after Firefox is closed below, however slow the machine (at 3 s a
    // step, a loaded machine could take longer than that to track it and close the browser).
    const later = sim.createIntent('failure', 10_000);
    await track(later, /Committed|Executing/);
    await ext!.close();
    ext = undefined;
    const closedAt = Date.now();
    sim.advanceClock(40_000); // `later` fails while Firefox is closed.
    await sleep(1500);
    expect(requestsFor(later).filter((r) => r.start > closedAt + 1000)).toHaveLength(0);

    // The add-on starts with Firefox, before the test can attach: what Firefox displays is read from Firefox's own
    // alert windows, opened from the browser's first instant (no stand-in installed after the fact, nothing held).
    ext = await launchFirefox(profile, { prefs: ALERT_WINDOW_PREFS, desktopStandIn: false });
    const about = async (intentId: string) => (await alertWindows(ext!)).filter((w) => w.title.includes(short(intentId)));
    await expect.poll(async () => (await about(later)).length, { timeout: 45_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(async () => (await record(later))?.notification, { timeout: 10_000 }).toBe('shown');
    await sleep(1500);
    expect(await about(later)).toEqual([
      {
        title: `Intent failed · ${short(later)}`,
        text: 'Arbitrum One → Optimism: 1.50 ETH → 1.49625 WETH\nReason: execution reverted: insufficient output amount (slippage 0.50% exceeded)',
      },
    ]);
    // Nothing else displayed since the browser started: `killed` (told in the first run) not again, no summary.
    expect(await alertWindows(ext)).toHaveLength(1);
    expect((await record(killed))?.notifiedAt).toBe(killedNotifiedAt);
  });
});
