/**
 * The five ways issue 19 found the desktop to break the promise, each on a fake desktop with the browser's real
 * semantics (`./fake-desktop`): what is checked is what the user saw appear, not a record.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { settle, type VirtualClock } from '../tracker/fakes';
import {
  at,
  finalTitle,
  finishTogether,
  freshStart,
  groupOnClock,
  id,
  type Shared,
  watchdog as wakeEvery30s,
  worker,
} from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

/** Each failed on the code before the pipeline (commit "Tests: a fake desktop …", where they were `it.fails`). */
const repro = it;

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
});
const start = (desktop: FakeDesktop) => worker(shared, desktop, clock, () => settings);
const desktopOf = (kind: 'chrome' | 'firefox') => new FakeDesktop(kind, () => clock.now());
const watchdog = (w: ReturnType<typeof start>, times: number) => wakeEvery30s(clock, w, times);

describe('1. progress notifications on: the final one is never lost', () => {
  const inFlight = async (desktop: FakeDesktop) => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const w = start(desktop);
    await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
    await w.calm.progress(id(1));
    expect(desktop.log.map((a) => a.title)).toEqual(['Intent executing · 0x0000…0001']);
    return w;
  };

  repro('Chrome: notifications.update rejects once', async () => {
    const desktop = desktopOf('chrome');
    const w = await inFlight(desktop);
    w.browser.fail('update');
    await w.finish(1);
    await watchdog(w, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    expect([...desktop.screen.values()].map((o) => o.title)).toEqual([finalTitle(1)]);
  });

  repro('Chrome: the worker dies inside notifications.update', async () => {
    const desktop = desktopOf('chrome');
    const w = await inFlight(desktop);
    w.browser.fail('update', 'kill');
    void w.finish(1);
    await settle();
    const again = start(desktop);
    await watchdog(again, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    expect([...desktop.screen.values()].map((o) => o.title)).toEqual([finalTitle(1)]);
  });

  repro('Chrome: the progress notification was dismissed, and the worker dies in the fallback clear()', async () => {
    const desktop = desktopOf('chrome');
    const w = await inFlight(desktop);
    desktop.dismissAll();
    w.browser.fail('clear', 'kill');
    void w.finish(1);
    await settle();
    const again = start(desktop);
    await watchdog(again, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  repro('Firefox: the event page is suspended in clear() (Firefox always clears and creates)', async () => {
    const desktop = desktopOf('firefox');
    desktop.firefoxForgets = false;
    const w = await inFlight(desktop);
    w.browser.fail('clear', 'kill');
    void w.finish(1);
    await settle();
    const again = start(desktop);
    await watchdog(again, 3);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('2. quiet hours, then a restart: told once', () => {
  for (const kind of ['chrome', 'firefox'] as const) {
    repro(`${kind}: held at night, the worker dies before the record says shown; the morning start shows only the summary`, async () => {
      settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '07:00' } };
      const desktop = desktopOf(kind);
      clock.t = at(22, 23);
      const w = start(desktop);
      await w.record(1, 'SUCCEEDED');
      // The worker dies right after the notification was held, before the delivery wrote `shown`.
      await w.calm.show(w.mirror.get(id(1))!);
      w.browser.dead = true;
      expect((await shared.intents.get(id(1)))?.notification).toBe('pending');

      clock.t = at(23, 7);
      const morning = start(desktop);
      await morning.wake();
      await watchdog(morning, 2);
      expect(desktop.seen(finalTitle(1))).toHaveLength(0);
      expect(desktop.log.map((a) => `${a.title} — ${a.message}`)).toEqual(['While you were away: 1 intent finished — 1 succeeded']);
    });
  }
});

describe('3. the away summary is never lost', () => {
  const overnight = async (desktop: FakeDesktop) => {
    const w = start(desktop);
    await w.calm.snooze();
    await w.finish(1, 'SUCCEEDED');
    await w.finish(2, 'FAILED');
    expect(desktop.log).toEqual([]);
    clock.t += 60 * 60_000;
    return w;
  };

  for (const kind of ['chrome', 'firefox'] as const) {
    repro(`${kind}: notifications.create rejects once`, async () => {
      const desktop = desktopOf(kind);
      const w = await overnight(desktop);
      w.browser.fail('create');
      await w.wake();
      await watchdog(w, 2);
      expect(desktop.log.map((a) => `${a.title} — ${a.message}`)).toEqual([
        'While you were away: 2 intents finished — 1 succeeded, 1 failed',
      ]);
    });

    repro(`${kind}: the worker dies in alarms.clear`, async () => {
      const desktop = desktopOf(kind);
      const w = await overnight(desktop);
      w.browser.fail('alarms.clear', 'kill');
      void w.calm.release();
      await settle();
      const again = start(desktop);
      await watchdog(again, 2);
      expect(desktop.log.map((a) => `${a.title} — ${a.message}`)).toEqual([
        'While you were away: 2 intents finished — 1 succeeded, 1 failed',
      ]);
    });
  }
});

describe('4. IndexedDB refuses writes: told once, not every 30 s', () => {
  repro('Chrome: the `shown` write fails, the user closes the notification, the watchdog wakes the worker for 3 minutes', async () => {
    const desktop = desktopOf('chrome');
    const w = start(desktop);
    await w.record(1, 'SUCCEEDED');
    shared.diskFull = true;
    await w.delivery.deliver(id(1));
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    desktop.dismissAll();
    await watchdog(w, 6);
    shared.diskFull = false;
    await watchdog(w, 2);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
    // A restarted worker does not show it again either.
    desktop.dismissAll();
    await watchdog(start(desktop), 2);
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('5. every button of every notification does what it says', () => {
  repro('Chrome: the grouped notification has no button that does nothing', async () => {
    const desktop = desktopOf('chrome');
    const w = worker(shared, desktop, clock, () => settings, { groupTimer: groupOnClock(clock) });
    await w.finish(1);
    await finishTogether(w, clock, [2, 3]);
    const group = desktop.log.find((a) => a.id.startsWith('svc-group:'));
    expect(group).toBeDefined();
    for (const a of desktop.log) {
      for (let b = 0; b < a.buttons.length; b++) {
        const before = desktop.tabs.length;
        await w.routing.notificationButton(a.id, b);
        expect(desktop.tabs.length, `${a.id} button ${b} (${a.buttons[b]})`).toBe(before + 1);
      }
    }
  });
});
