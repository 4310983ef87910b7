/**
 * Rules of the notification pipeline that a user meets only in particular orders of events, on a fake desktop
 * (`./fake-desktop`): the release alarm is only set while something waits for it, a summary is shown once and never
 * empty, an outcome turned final in place stays on screen, the grouping window is not cut short by a wake-up, several
 * notifications left unfinished by a dead worker stay apart, and the calm state the popup reads is kept right.
 */
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { intentIdsOfNotification } from '@/lib/notify/browser';
import { type CalmState, createCalmStateStore, DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { CALM_ALARM } from '@/lib/worker/calm-alarm';
import { settle, type VirtualClock } from '../tracker/fakes';
import { at, finalTitle, freshStart, id, legacyCalm, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
let desktop: FakeDesktop;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
  desktop = new FakeDesktop('chrome', () => clock.now());
});
const start = (options: Parameters<typeof worker>[4] = {}) => worker(shared, desktop, clock, () => settings, options);
const calmStore = () => createCalmStateStore(createStore(shared.calmDb, 'settings'));
const alarmCalls = (w: ReturnType<typeof start>) => w.browser.calls.filter((c) => c.startsWith('alarms.'));
const onScreenFor = (n: number) => [...desktop.screen.keys()].filter((k) => intentIdsOfNotification(k).includes(id(n)));
/**
 * Worker `w` dies, the user closes every notification, and the next worker wakes three times on its watchdog: intent
 * 1's outcome must still have been shown exactly once.
 */
async function diesThenAllClosed(w: ReturnType<typeof start>) {
  w.browser.dead = true;
  desktop.dismissAll();
  await watchdogWakes(start());
  expect(desktop.seen(finalTitle(1))).toHaveLength(1);
}
const QUIET = { start: '22:00', end: '07:00' };
/** Three wake-ups of the worker's 30 s watchdog alarm. */
const watchdogWakes = async (w: ReturnType<typeof start>) => {
  for (let i = 0; i < 3; i++) {
    clock.t += 30_000;
    await w.wake();
  }
};

describe('the release alarm is only set while something waits for it', () => {
  it('a notification shown at once, and wake-ups with nothing held, touch no alarm', async () => {
    const w = start();
    await w.finish(1, 'SUCCEEDED');
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    await watchdogWakes(w);
    expect(alarmCalls(w)).toEqual([]);
  });

  it('in quiet hours with nothing held, a wake-up touches no alarm', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: QUIET };
    clock.t = at(22, 23);
    const w = start();
    await w.wake();
    clock.t = at(23, 1);
    await w.wake();
    expect(alarmCalls(w)).toEqual([]);
  });

  it('ending a snooze with nothing held leaves no alarm, whether or not notifications were shown before', async () => {
    const w = start();
    await w.calm.snooze();
    expect(desktop.alarms.get(CALM_ALARM)).toBeDefined();
    await w.calm.endSnooze();
    expect(desktop.alarms.get(CALM_ALARM)).toBeUndefined();
    await w.finish(1, 'SUCCEEDED');
    await w.calm.snooze();
    await w.calm.endSnooze();
    expect(desktop.alarms.get(CALM_ALARM)).toBeUndefined();
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
  });

  it('a snooze that ends inside quiet hours with nothing held: ended at the next wake-up, no alarm left, the popup no longer reads a snooze', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: QUIET };
    clock.t = at(22, 21, 30);
    const w = start();
    await w.calm.snooze();
    // The snooze runs into the quiet hours: what it would hold goes when they end.
    expect(desktop.alarms.get(CALM_ALARM)?.scheduledTime).toBe(at(23, 7));
    // A wake-up (the watchdog) at the snooze's end, inside the quiet hours: nothing is held, nothing to wait for.
    clock.t = at(22, 22, 30);
    await w.wake();
    expect(desktop.alarms.get(CALM_ALARM)).toBeUndefined();
    expect((await calmStore().get()).snoozeUntil).toBeUndefined();
    expect(desktop.log).toEqual([]);
  });
});

describe('the "while you were away" summary', () => {
  it('is shown once, however many wake-ups follow', async () => {
    const w = start();
    await w.calm.snooze();
    await w.finish(1, 'SUCCEEDED');
    await w.finish(2, 'FAILED');
    clock.t += 60 * 60_000;
    await w.wake();
    for (let i = 0; i < 4; i++) {
      clock.t += 30_000;
      await w.wake();
    }
    expect(desktop.log.map((a) => a.title)).toEqual(['While you were away: 2 intents finished']);
  });

  it('is not shown when every held intent was muted meanwhile', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: QUIET };
    clock.t = at(22, 23);
    const w = start();
    await w.finish(1, 'SUCCEEDED');
    await w.finish(2, 'FAILED');
    await w.calm.mute(id(1), true);
    await w.calm.mute(id(2), true);
    clock.t = at(23, 7);
    await w.wake();
    expect(desktop.log).toEqual([]);
  });
});

describe('held by the version before the outbox', () => {
  const legacy = (state: Partial<CalmState>) => legacyCalm(shared, state);

  it('an intent muted since is left out of the summary', async () => {
    clock.t = at(23, 8);
    await legacy({
      muted: [id(2)],
      held: [
        { intentId: id(1), status: 'SUCCEEDED', heldAt: at(23, 1) },
        { intentId: id(2), status: 'FAILED', heldAt: at(23, 2) },
      ],
    });
    const w = start();
    await w.wake();
    expect(desktop.log.map((a) => `${a.title} — ${a.message}`)).toEqual(['While you were away: 1 intent finished — 1 succeeded']);
  });

  it('its progress marks alone are dropped from the calm state (those notifications stay as they are)', async () => {
    await legacy({ progress: { [id(3)]: { notificationId: `svc-progress:${id(3)}:1` } } as CalmState['progress'] });
    const w = start();
    await w.wake();
    expect((await calmStore().get()).progress ?? {}).toEqual({});
    expect(desktop.log).toEqual([]);
  });
});

describe('an outcome turned final in place (Chrome, progress notifications on)', () => {
  beforeEach(() => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
  });
  for (const action of ['muted', 'removed'] as const) {
    it(`stays on screen when the intent is ${action} afterwards`, async () => {
      const w = start();
      await w.record(1, 'EXECUTING', ['PENDING']);
      await w.calm.progress(id(1));
      await w.finish(1, 'SUCCEEDED');
      const [nid] = onScreenFor(1);
      expect(desktop.screen.get(nid!)?.title).toBe(finalTitle(1));
      if (action === 'muted') await w.calm.mute(id(1), true);
      else await w.calm.forget!(id(1));
      await w.wake();
      expect(onScreenFor(1)).toEqual([nid]);
      expect(desktop.screen.get(nid!)?.title).toBe(finalTitle(1));
    });
  }

  it('turned off while a progress notification is on screen: the final one is shown once, the progress one is gone', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(1));
    const [pid] = onScreenFor(1);
    settings = { ...DEFAULT_NOTIFY, progress: false };
    await w.finish(1, 'SUCCEEDED');
    await w.wake();
    expect(desktop.screen.has(pid!)).toBe(false);
    const shown = onScreenFor(1);
    expect(shown).toHaveLength(1);
    expect(desktop.screen.get(shown[0]!)?.title).toBe(finalTitle(1));
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  it('a change of status alone (same legs) is brought to the progress notification', async () => {
    const w = start();
    await w.record(1, 'PENDING', ['PENDING']);
    await w.calm.progress(id(1));
    const [pid] = onScreenFor(1);
    const before = desktop.screen.get(pid!)?.title;
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(1));
    expect(desktop.screen.get(pid!)?.title).not.toBe(before);
    expect(String(desktop.screen.get(pid!)?.title)).toMatch(/executing/i);
  });
});

describe('removing and muting keep the other intents as they were', () => {
  it('removing a muted intent leaves another muted intent muted', async () => {
    const w = start();
    await w.calm.mute(id(1), true);
    await w.calm.mute(id(2), true);
    await w.calm.forget!(id(1));
    expect((await calmStore().get()).muted).toEqual([id(2)]);
    await w.finish(2, 'SUCCEEDED');
    expect(desktop.log).toEqual([]);
  });
});

describe('timing of what the user sees', () => {
  it('the stuck warning appears without waiting for a wake-up', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', []);
    await w.calm.showStuck(w.mirror.get(id(1))!, 17);
    await settle();
    expect(desktop.log.map((a) => a.title)).toEqual(['Taking longer than expected · 0x0000…0001']);
  });

  it('an outcome switched off does not delay the next notification (it opens no grouping window)', async () => {
    settings = { ...DEFAULT_NOTIFY, succeeded: false };
    // The grouping flush never comes: only a notification shown at once can appear.
    const w = start({ groupTimer: () => {} });
    await w.finish(1, 'SUCCEEDED');
    const second = await Promise.race([w.finish(2, 'FAILED').then(() => 'shown'), settle(200).then(() => 'waiting')]);
    expect(second).toBe('shown');
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(2, 'failed')]);
  });

  it('asked twice to show the same outcome, the pipeline shows it once', async () => {
    const w = start();
    await w.record(1, 'SUCCEEDED');
    const intent = w.mirror.get(id(1))!;
    await w.calm.show(intent);
    await w.calm.show(intent);
    clock.t += 60_000;
    await w.calm.resume();
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  it('a wake-up inside the grouping window does not show a waiting outcome alone: it goes with its group', async () => {
    let flush: (() => void) | undefined;
    const w = start({
      groupTimer: (fn) => {
        flush = fn;
      },
    });
    await w.finish(1, 'SUCCEEDED');
    const page = Promise.all([w.finish(2, 'SUCCEEDED'), w.finish(3, 'FAILED')]);
    await settle();
    await w.calm.resume();
    await settle();
    expect(desktop.log).toHaveLength(1);
    flush!();
    await page;
    expect(desktop.log.map((a) => intentIdsOfNotification(a.id))).toEqual([[id(1)], [id(2), id(3)]]);
  });

  it('a summary left by a dead worker lists the intents in the order they finished', async () => {
    const first = start({ groupTimer: () => {} });
    await first.finish(9, 'SUCCEEDED');
    for (const n of [3, 1, 2]) {
      clock.t += 10;
      void first.finish(n, 'SUCCEEDED');
      await settle();
    }
    first.browser.dead = true;
    const again = start();
    await again.wake();
    expect(desktop.log.map((a) => intentIdsOfNotification(a.id))).toEqual([[id(9)], [id(3), id(1), id(2)]]);
  });
});

describe('notifications left unfinished stay apart', () => {
  it('a stuck warning and an outcome both waiting for their retry are two notifications, not one summary', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', []);
    w.browser.fail('create').fail('create');
    await w.calm.showStuck(w.mirror.get(id(1))!, 17);
    await settle();
    await w.finish(2, 'SUCCEEDED');
    expect(desktop.log).toEqual([]);
    clock.t += 60_000;
    await w.wake();
    expect(desktop.log.map((a) => a.title).sort()).toEqual([finalTitle(2), 'Taking longer than expected · 0x0000…0001'].sort());
  });

  it('Chrome: two notifications each left half-shown by a dead worker are shown as they were, each alone', async () => {
    const first = start();
    first.browser.fail('create', 'kill');
    void first.finish(1, 'SUCCEEDED');
    await settle();
    // The next life cannot ask the screen, then dies inside the create of another outcome.
    const second = start();
    second.browser.fail('getAll');
    clock.t += 30_000;
    void second.wake();
    await settle();
    second.browser.fail('create', 'kill');
    void second.finish(2, 'FAILED');
    await settle();
    const third = start();
    clock.t += 60_000;
    await third.wake();
    expect(desktop.log.map((a) => intentIdsOfNotification(a.id))).toEqual([[id(1)], [id(2)]]);
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1), finalTitle(2, 'failed')]);
  });

  it('Chrome: shown, its record refused, then closed by the user: a restarted worker does not show it again', async () => {
    let writes = 0;
    // Outbox writes: the job, `showing`, then `shown` (refused); the back-off write records it shown.
    const first = start({ outboxWriteFails: () => ++writes === 3 });
    await first.finish(1, 'SUCCEEDED');
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    await diesThenAllClosed(first);
  });
});

describe('what a restarted worker does not show again', () => {
  it('Chrome: an outcome shown just before the worker died, then closed by the user', async () => {
    const first = start();
    await first.finish(1, 'SUCCEEDED');
    await diesThenAllClosed(first);
  });

  it('Chrome: a progress notification turned final just before the worker died, then closed by the user', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const first = start();
    await first.record(1, 'EXECUTING', ['PENDING']);
    await first.calm.progress(id(1));
    await first.finish(1, 'SUCCEEDED');
    await diesThenAllClosed(first);
  });

  it('Chrome: an outcome the worker died right after showing, found on screen by the next life, then closed by the user', async () => {
    const first = start();
    first.browser.fail('create', 'kill-after');
    void first.finish(1, 'SUCCEEDED');
    await settle();
    const second = start();
    clock.t += 30_000;
    await second.wake();
    await diesThenAllClosed(second);
  });

  it('Chrome: the progress notification closed by the user, the final one created the ordinary way as the worker died', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const first = start();
    await first.record(1, 'EXECUTING', ['PENDING']);
    await first.calm.progress(id(1));
    desktop.dismissAll();
    first.browser.fail('create', 'kill-after');
    void first.finish(1, 'SUCCEEDED');
    await settle();
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    const again = start();
    await watchdogWakes(again);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('the same life, after refused writes', () => {
  it('Chrome: shown, both the record and its back-off refused, then closed by the user: not shown again', async () => {
    let writes = 0;
    // Outbox writes: the job, `showing`, `shown` (refused), the back-off (refused).
    const w = start({ outboxWriteFails: () => [3, 4].includes(++writes) });
    await w.finish(1, 'SUCCEEDED');
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    desktop.dismissAll();
    await watchdogWakes(w);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('buttons of one outcome', () => {
  it('Chrome: no "Open in explorer" when no transaction of the outcome is known (a refund not yet seen), shown alone or in place', async () => {
    const w = start();
    await w.finish(1, 'REFUNDED');
    expect(desktop.log.at(-1)!.buttons).toEqual(['View receipt']);
    settings = { ...DEFAULT_NOTIFY, progress: true };
    clock.t += 60_000;
    await w.record(2, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(2));
    await w.finish(2, 'REFUNDED');
    expect(desktop.log.at(-1)!.title).toBe(finalTitle(2, 'refunded'));
    expect(desktop.log.at(-1)!.buttons).toEqual(['View receipt']);
  });
});

describe('stuck warnings', () => {
  it('two intents stuck: each gets its warning', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', []);
    await w.record(2, 'EXECUTING', []);
    await w.calm.showStuck(w.mirror.get(id(1))!, 17);
    await w.calm.showStuck(w.mirror.get(id(2))!, 17);
    await w.calm.resume();
    expect(desktop.log.map((a) => a.title)).toEqual([
      'Taking longer than expected · 0x0000…0001',
      'Taking longer than expected · 0x0000…0002',
    ]);
  });
});

describe('retries on their own timer (no wake-up needed)', () => {
  it('Chrome: a progress notification whose removal was rejected is removed a second later', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(1));
    w.browser.fail('clear');
    await w.calm.mute(id(1), true);
    expect(onScreenFor(1)).toHaveLength(1);
    await clock.advance(1_000);
    expect(onScreenFor(1)).toEqual([]);
  });

  it('Chrome: a notification left half-shown whose screen could not be read is settled a second later', async () => {
    const first = start();
    first.browser.fail('create', 'kill');
    void first.finish(1, 'SUCCEEDED');
    await settle();
    const again = start();
    again.browser.fail('getAll');
    clock.t += 30_000;
    await again.wake();
    expect(desktop.log).toEqual([]);
    await clock.advance(1_000);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('an outcome removed while it waits for its group', () => {
  it('is never shown, and the tracker waiting for it is told', async () => {
    let flush: (() => void) | undefined;
    const w = start({
      groupTimer: (fn) => {
        flush = fn;
      },
    });
    await w.finish(1, 'SUCCEEDED');
    const waiting = w.finish(2, 'SUCCEEDED');
    await settle();
    await w.calm.forget!(id(2));
    flush!();
    const told = await Promise.race([waiting.then(() => 'told'), settle(200).then(() => 'still waiting')]);
    expect(told).toBe('told');
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
  });
});

describe('calls that come while the outbox is being delivered', () => {
  it('two messages asked for at once: each call returns with its message on screen', async () => {
    const w = start();
    const a = w.calm.inform('Tracking intent 0x1234…abcd.');
    const b = w.calm.inform('Tracking 2 intents.');
    const both = await Promise.race([Promise.all([a, b]).then(() => 'returned'), settle(200).then(() => 'still waiting')]);
    expect(both).toBe('returned');
    expect([...desktop.screen.values()].map((o) => o.message)).toEqual(['Tracking intent 0x1234…abcd.', 'Tracking 2 intents.']);
  });
});
