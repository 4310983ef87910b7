/**
 * "Open in explorer" on the notification of an intent removed since (Chrome): the link the notification was shown
 * with is opened (a known explorer only), and the notification is cleared only once something was opened.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { NotifySettings } from '@/lib/store';
import { createNotificationRouting } from '@/lib/worker/notification-routing';
import type { VirtualClock } from '../tracker/fakes';
import { freshStart, id, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});
/** The destination leg's transaction in the harness's receipts (Base), on Base's explorer. */
const BASESCAN_TX = `https://basescan.org/tx/0x${'ab'.repeat(32)}`;

describe('Open in explorer after the intent was removed', () => {
  it('opens the link the notification was shown with, then clears it', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings);
    await w.finish(1, 'SUCCEEDED');
    const shown = desktop.log[0]!;
    expect(shown.buttons).toEqual(['View receipt', 'Open in explorer']);
    // The user removes the intent (the popup's remove: the record goes, the pipeline forgets it).
    await shared.intents.remove(id(1));
    await w.calm.forget!(id(1));
    const routing = createNotificationRouting(w.browser as never, shared.intents, (nid) => w.calm.explorerLinkOf(nid));
    await routing.notificationButton(shown.id, 1);
    expect(desktop.tabs).toEqual([BASESCAN_TX]);
    expect(desktop.screen.has(shown.id)).toBe(false);
    // Tracked again, it may be told again: forgetting it still frees its final job.
    expect(await w.calm.exists(id(1))).toBe(false);
  });

  it('with no link known any more, opens its receipt page rather than nothing', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings);
    await w.finish(2, 'SUCCEEDED');
    const shown = desktop.log[0]!;
    await shared.intents.remove(id(2));
    const routing = createNotificationRouting(w.browser as never, shared.intents, async () => undefined);
    await routing.notificationButton(shown.id, 1);
    expect(desktop.tabs).toHaveLength(1);
    expect(desktop.tabs[0]).toMatch(new RegExp(`/popup\\.html#intent=${id(2)}$`));
  });

  it('never opens a stored link that is not a known explorer’s transaction page', async () => {
    const desktop = new FakeDesktop('chrome', () => clock.now());
    const w = worker(shared, desktop, clock, () => settings);
    await w.finish(3, 'SUCCEEDED');
    const shown = desktop.log[0]!;
    await shared.intents.remove(id(3));
    const routing = createNotificationRouting(w.browser as never, shared.intents, async () => 'https://evil.example/tx/0x1');
    await routing.notificationButton(shown.id, 1);
    expect(desktop.tabs[0]).toMatch(/popup\.html#intent=/);
  });
});
