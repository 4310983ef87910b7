/**
 * The notification pipeline between the tracker's exactly-once delivery (the real `Delivery` over a fake-indexeddb
 * intent store) and a fake desktop with Chrome's or Firefox's semantics (`./fake-desktop`), on a virtual clock: mute,
 * snooze, quiet hours across midnight, the summary, progress notifications, and a worker restart in the middle.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { intentIdsOfNotification } from '@/lib/notify/browser';
import { DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { CALM_ALARM } from '@/lib/worker/calm-alarm';
import { settle, type VirtualClock } from '../tracker/fakes';
import { at, worker as desktopWorker, finishTogether, freshStart, groupOnClock, id, type Shared } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

type Op = [string, string];
type Shown = Record<string, { title: string; message: string }>;

/** One worker life on `desktop`, with what these tests read: what is on screen, and the create/update/clear calls. */
function worker(
  shared: Shared,
  desktop: FakeDesktop,
  clock: VirtualClock,
  settings: () => NotifySettings,
  options: Parameters<typeof desktopWorker>[4] = {},
) {
  const w = desktopWorker(shared, desktop, clock, settings, options);
  const ops = () => w.browser.calls.map((c) => c.split(' ') as Op).filter(([m]) => m === 'create' || m === 'update' || m === 'clear');
  const shown = (): Shown =>
    Object.fromEntries([...desktop.screen].map(([k, o]) => [k, { title: String(o.title), message: String(o.message) }]));
  return { ...w, ops, shown };
}

describe('calm notifications', () => {
  let clock: VirtualClock;
  let settings: NotifySettings;
  let shared: Shared;
  let desktop: FakeDesktop;
  beforeEach(() => {
    ({ clock, settings, shared } = freshStart());
    desktop = new FakeDesktop('chrome', () => clock.now());
  });
  const start = (firefox = false, options: Parameters<typeof desktopWorker>[4] = {}) => {
    if (firefox && desktop.kind !== 'firefox') {
      desktop = new FakeDesktop('firefox', () => clock.now());
      // These tests read what is on screen: this Firefox has a notification server.
      desktop.firefoxForgets = false;
    }
    return worker(shared, desktop, clock, () => settings, options);
  };
  const forIntent = (shown: Shown, n: number) => Object.keys(shown).filter((k) => intentIdsOfNotification(k).includes(id(n)));

  it('a muted intent gets no notification, its status still updates, and unmuting later shows nothing', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
    await w.calm.mute(id(1), true);
    await w.finish(1, 'SUCCEEDED');
    expect(Object.keys(w.shown())).toEqual([]);
    expect(w.mirror.get(id(1))).toMatchObject({ status: 'SUCCEEDED', phase: 'final', notification: 'shown' });
    await w.calm.mute(id(1), false);
    await w.delivery.deliver(id(1));
    await w.calm.release();
    expect(Object.keys(w.shown())).toEqual([]);
    // Another intent is not affected.
    await w.finish(2, 'FAILED');
    expect(Object.values(w.shown()).map((n) => n.title)).toEqual(['Intent failed · 0x0000…0002']);
  });

  it('a snooze holds notifications for an hour and ends with one summary (at the alarm, not before)', async () => {
    const w = start();
    await w.calm.snooze();
    expect(desktop.alarms.get(CALM_ALARM)?.scheduledTime).toBe(at(22, 13));
    await w.finish(1, 'SUCCEEDED');
    await w.finish(2, 'FAILED');
    await w.finish(3, 'SUCCEEDED');
    expect(Object.keys(w.shown())).toEqual([]);
    for (const n of [1, 2, 3]) expect(w.mirror.get(id(n))?.notification).toBe('shown');
    expect(await w.calm.exists(id(2))).toBe(true);

    clock.t = at(22, 12, 59);
    await w.calm.release();
    expect(Object.keys(w.shown())).toEqual([]);

    clock.t = at(22, 13);
    await w.calm.release();
    await w.calm.release();
    const all = Object.entries(w.shown());
    expect(all).toHaveLength(1);
    expect(all[0]![0]).toMatch(new RegExp(`^svc-away:${at(22, 13)}:0x[0-9]{64}$`));
    expect(all[0]![1]).toMatchObject({ title: 'While you were away: 3 intents finished', message: '2 succeeded, 1 failed' });
    expect(desktop.alarms.get(CALM_ALARM)).toBeUndefined();
    // After the snooze, notifications show at once again.
    await w.finish(4, 'SUCCEEDED');
    expect(forIntent(w.shown(), 4)).toHaveLength(1);
  });

  it('ending the snooze early shows the summary at once; nothing held means no summary', async () => {
    const w = start();
    await w.calm.snooze();
    await w.calm.endSnooze();
    expect(Object.keys(w.shown())).toEqual([]);
    await w.calm.snooze();
    await w.finish(1, 'REFUNDED');
    clock.t += 10 * 60_000;
    await w.calm.endSnooze();
    expect(Object.values(w.shown())).toMatchObject([{ title: 'While you were away: 1 intent finished', message: '1 refunded' }]);
  });

  it('quiet hours across midnight hold until the morning; the summary counts each outcome and leaves out muted intents', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '07:00' } };
    const w = start();
    clock.t = at(22, 21, 59);
    await w.finish(1, 'SUCCEEDED');
    expect(forIntent(w.shown(), 1)).toHaveLength(1);

    clock.t = at(22, 23, 30);
    await w.finish(2, 'SUCCEEDED');
    clock.t = at(23, 1);
    await w.finish(3, 'REFUNDED');
    await w.finish(4, 'SUCCEEDED');
    await w.finish(5, 'FAILED');
    await w.calm.mute(id(5), true);
    expect(Object.keys(w.shown())).toHaveLength(1);
    expect(desktop.alarms.get(CALM_ALARM)?.scheduledTime).toBe(at(23, 7));

    clock.t = at(23, 7);
    await w.calm.release();
    const away = Object.entries(w.shown()).filter(([k]) => k.startsWith('svc-away:'));
    expect(away.map(([, n]) => `${n.title} — ${n.message}`)).toEqual(['While you were away: 3 intents finished — 2 succeeded, 1 refunded']);
    expect(Object.keys(w.shown())).toHaveLength(2);
  });

  it('a worker restarted during quiet hours neither shows a held notification nor loses it from the summary', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '07:00' } };
    clock.t = at(22, 23);
    const first = start();
    await first.record(1, 'SUCCEEDED');
    await first.finish(2, 'FAILED');
    // The worker dies after holding intent 1 but before the delivery recorded it shown: it is still `pending`.
    await first.calm.show(first.mirror.get(id(1))!);
    expect((await shared.intents.get(id(1)))?.notification).toBe('pending');

    const second = start();
    await second.load();
    await second.delivery.deliver(id(1));
    expect((await shared.intents.get(id(1)))?.notification).toBe('shown');
    await second.calm.release();
    expect(Object.keys(second.shown())).toEqual([]);

    clock.t = at(23, 7, 0);
    // The alarm was set by the first worker and survives it.
    expect(desktop.alarms.get(CALM_ALARM)?.scheduledTime).toBe(at(23, 7));
    await second.calm.release();
    expect(Object.values(second.shown())).toMatchObject([
      { title: 'While you were away: 2 intents finished', message: '1 succeeded, 1 failed' },
    ]);
  });

  it('stuck warnings are skipped (not held) for muted intents and in quiet hours', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
    await w.calm.mute(id(1), true);
    await w.calm.showStuck(w.mirror.get(id(1))!, 20);
    await w.calm.resume(); // delivery follows the queued job
    await w.calm.snooze();
    await w.record(2, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
    await w.calm.showStuck(w.mirror.get(id(2))!, 20);
    await w.calm.resume(); // delivery follows the queued job
    expect(Object.keys(w.shown())).toEqual([]);
    await w.calm.endSnooze();
    await w.calm.showStuck(w.mirror.get(id(2))!, 20);
    await w.calm.resume(); // delivery follows the queued job
    expect(Object.keys(w.shown())).toEqual([`svc-stuck:${id(2)}:${clock.now()}`]);
  });

  it('keeps the grouping window: intents finishing together make one summary after the first', async () => {
    const w = start(false, { groupTimer: groupOnClock(clock) });
    await w.finish(1, 'SUCCEEDED');
    await finishTogether(w, clock, [2, 3, 4]);
    const ids = Object.keys(w.shown());
    expect(ids).toHaveLength(2);
    expect(intentIdsOfNotification(ids.find((k) => k.startsWith('svc-group:'))!)).toEqual([id(2), id(3), id(4)]);
  });

  describe('progress notification', () => {
    it('is off by default', async () => {
      const w = start();
      await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
      await w.calm.progress(id(1));
      expect(Object.keys(w.shown())).toEqual([]);
    });

    it('on Chrome: created once, updated in place as legs complete, and turned into the one final notification', async () => {
      settings = { ...DEFAULT_NOTIFY, progress: true };
      const w = start();
      await w.record(1, 'EXECUTING', ['PENDING']);
      await w.calm.progress(id(1));
      await w.calm.progress(id(1));
      const [pid] = Object.keys(w.shown());
      expect(pid).toBe(`svc-progress:${id(1)}:${clock.now()}`);
      expect(w.shown()[pid!]!.message).toBe('Arbitrum One → Base\nDeposit pending · Origin waiting · Destination waiting');

      await w.record(1, 'EXECUTING', ['SUCCEEDED', 'PENDING']);
      await w.calm.progress(id(1));
      expect(w.shown()[pid!]!.message).toBe('Arbitrum One → Base\nDeposit done · Origin pending · Destination waiting');
      await w.finish(1, 'SUCCEEDED');
      expect(Object.keys(w.shown())).toEqual([pid]);
      expect(w.shown()[pid!]).toMatchObject({ title: 'Intent succeeded · 0x0000…0001', message: 'Arbitrum One → Base: 1.00 USDC' });
      expect(w.ops()).toEqual([
        ['create', pid],
        ['update', pid],
        ['update', pid],
      ]);
      expect(w.mirror.get(id(1))).toMatchObject({ notification: 'shown', notified: { title: 'Intent succeeded · 0x0000…0001' } });
      // Still exactly one: another delivery attempt (a restart with the record pending) finds it shown.
      expect(await w.calm.exists(id(1))).toBe(true);
      await w.calm.progress(id(1));
      expect(w.ops()).toHaveLength(3);
    });

    it('on Chrome: closed by the user before the end, the final notification is created the ordinary way', async () => {
      settings = { ...DEFAULT_NOTIFY, progress: true };
      const w = start();
      await w.record(1, 'EXECUTING', ['PENDING']);
      await w.calm.progress(id(1));
      desktop.dismiss(Object.keys(w.shown())[0]!);
      await w.finish(1, 'FAILED');
      expect(Object.keys(w.shown())).toEqual([`svc-intent:${id(1)}:${clock.now()}`]);
    });

    it('on Firefox (no update): cleared and re-created, and the final one, shown as any final, replaces it', async () => {
      settings = { ...DEFAULT_NOTIFY, progress: true };
      const w = start(true);
      await w.record(1, 'EXECUTING', ['PENDING']);
      await w.calm.progress(id(1));
      const pid = `svc-progress:${id(1)}:${clock.now()}`;
      await w.record(1, 'EXECUTING', ['SUCCEEDED']);
      await w.calm.progress(id(1));
      expect(Object.keys(w.shown())).toEqual([pid]);
      await w.finish(1, 'SUCCEEDED');
      const final = `svc-intent:${id(1)}:${clock.now()}`;
      expect(Object.keys(w.shown())).toEqual([final]);
      // The final is shown as any final (so it groups with others), then its progress notification is cleared.
      expect(w.ops()).toEqual([
        ['create', pid],
        ['clear', pid],
        ['create', pid],
        ['create', final],
        ['clear', pid],
      ]);
      expect(await w.calm.exists(id(1))).toBe(true);
    });

    it('is removed when its intent is muted or held, and never comes back as a final notification later', async () => {
      settings = { ...DEFAULT_NOTIFY, progress: true };
      const w = start();
      await w.record(1, 'EXECUTING', ['PENDING']);
      await w.record(2, 'EXECUTING', ['PENDING']);
      await w.calm.progress(id(1));
      await w.calm.progress(id(2));
      expect(Object.keys(w.shown())).toHaveLength(2);
      await w.calm.mute(id(1), true);
      expect(forIntent(w.shown(), 1)).toEqual([]);
      await w.record(1, 'EXECUTING', ['SUCCEEDED']);
      await w.calm.progress(id(1));
      expect(forIntent(w.shown(), 1)).toEqual([]);

      await w.calm.snooze();
      await w.finish(2, 'SUCCEEDED');
      await w.finish(1, 'SUCCEEDED');
      expect(Object.keys(w.shown())).toEqual([]);
      clock.t += 60 * 60_000;
      await w.calm.release();
      await settle();
      expect(Object.values(w.shown())).toMatchObject([{ title: 'While you were away: 1 intent finished', message: '1 succeeded' }]);
    });
  });
});
