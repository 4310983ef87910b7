import { beforeEach, describe, expect, it, vi } from 'vitest';
import { intentIdsOfNotification } from '@/lib/notify/browser';
import { type CalmState, DEFAULT_NOTIFY, type NotifySettings } from '@/lib/store';
import { CALM_ALARM } from '@/lib/worker/calm-alarm';
import { settle, type VirtualClock } from '../tracker/fakes';
import { at, finalTitle, freshStart, groupOnClock, id, legacyCalm, type Shared, worker } from './desktop-harness';
import { FakeDesktop } from './fake-desktop';

let clock: VirtualClock;
let settings: NotifySettings;
let shared: Shared;
let desktop: FakeDesktop;
beforeEach(() => {
  ({ clock, settings, shared } = freshStart());
  desktop = new FakeDesktop('chrome', () => clock.now());
});
const start = (options?: Parameters<typeof worker>[4]) => worker(shared, desktop, clock, () => settings, options);
/** The notifications on screen that name intent `n`. */
const onScreenFor = (n: number) => [...desktop.screen.keys()].filter((k) => intentIdsOfNotification(k).includes(id(n)));
const creates = (w: ReturnType<typeof start>) => w.browser.calls.filter((c) => c.startsWith('create ')).length;

describe('removing an intent', () => {
  it('takes its progress notification off the screen, and leaves the others', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.record(2, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(1));
    await w.calm.progress(id(2));
    expect(onScreenFor(1)).toHaveLength(1);
    await w.calm.forget!(id(1));
    expect(onScreenFor(1)).toEqual([]);
    expect(onScreenFor(2)).toHaveLength(1);
  });

  it('forgets that it was muted: tracked again later, it is told when it ends', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.mute(id(1), true);
    await w.calm.forget!(id(1));
    await shared.intents.remove(id(1));
    await w.load();
    // The user tracks it again; it succeeds.
    await w.finish(1, 'SUCCEEDED');
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });

  it('a final notification not yet shown (its create rejected, waiting for the retry) never appears after the removal', async () => {
    const w = start();
    w.browser.fail('create');
    await w.finish(1, 'SUCCEEDED');
    expect(desktop.log).toEqual([]);
    await w.calm.forget!(id(1));
    await clock.advance(120_000);
    await w.calm.resume();
    expect(desktop.log).toEqual([]);
  });
});

describe('muting and unmuting', () => {
  it('unmuting an intent that was not muted leaves its progress notification on screen', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(1));
    const [pid] = onScreenFor(1);
    await w.calm.mute(id(1), false);
    expect(onScreenFor(1)).toEqual([pid]);
    expect(w.browser.calls.filter((c) => c.startsWith('clear '))).toEqual([]);
  });

  it('muted, then unmuted before it ends: told once, as if never muted', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.mute(id(1), true);
    await w.calm.mute(id(1), false);
    await w.finish(1, 'FAILED');
    expect(desktop.seen(finalTitle(1, 'failed'))).toHaveLength(1);
    expect(desktop.log).toHaveLength(1);
  });

  it('muting one intent leaves another muted one muted, and the others told', async () => {
    const w = start();
    await w.calm.mute(id(1), true);
    await w.calm.mute(id(2), true);
    await w.calm.mute(id(2), true);
    await w.calm.mute(id(2), false);
    await w.finish(1, 'SUCCEEDED');
    await w.finish(2, 'SUCCEEDED');
    await w.finish(3, 'SUCCEEDED');
    expect(desktop.log.map((a) => intentIdsOfNotification(a.id))).toEqual([[id(2)], [id(3)]]);
  });

  it('muted while its final notification waits for a retry: it never appears', async () => {
    const w = start();
    w.browser.fail('create');
    await w.finish(1, 'SUCCEEDED');
    await w.calm.mute(id(1), true);
    await clock.advance(120_000);
    await w.calm.resume();
    expect(desktop.log).toEqual([]);
    // Another intent still is told.
    await w.finish(2, 'SUCCEEDED');
    expect(desktop.seen(finalTitle(2))).toHaveLength(1);
  });
});

describe('the back-off of a rejected call', () => {
  it('tries again 1, 2, 4 then 8 s after each rejection, never before', async () => {
    const w = start();
    for (let i = 0; i < 4; i++) w.browser.fail('create');
    await w.finish(1, 'SUCCEEDED');
    expect(creates(w)).toBe(1);
    for (const [delay, expected] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
      [8000, 5],
    ] as const) {
      await clock.advance(delay - 1);
      expect(creates(w)).toBe(expected - 1);
      await clock.advance(1);
      expect(creates(w)).toBe(expected);
    }
    expect(desktop.seen(finalTitle(1))).toHaveLength(1);
  });
});

describe('notifications held by the version before the outbox', () => {
  /** A calm state as the version before the outbox wrote it: notifications held in it, and a progress mark. */
  const legacy = (state: Partial<CalmState>) => legacyCalm(shared, state);

  it('are announced in one summary once the quiet hours end, each once, and the old state is emptied', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '07:00' } };
    clock.t = at(23, 6);
    await legacy({
      held: [
        { intentId: id(1), status: 'SUCCEEDED', heldAt: at(23, 1) },
        { intentId: id(2), status: 'FAILED', heldAt: at(23, 2) },
      ],
      progress: { [id(3)]: { notificationId: `svc-progress:${id(3)}:1` } } as CalmState['progress'],
    });
    const w = start();
    await w.calm.resume();
    expect([...desktop.screen.keys()]).toEqual([]);
    expect(desktop.alarms.get(CALM_ALARM)?.scheduledTime).toBe(at(23, 7));
    clock.t = at(23, 7);
    await w.calm.resume();
    expect(desktop.log.map((a) => `${a.title} — ${a.message}`)).toEqual([
      'While you were away: 2 intents finished — 1 succeeded, 1 failed',
    ]);
    // Nothing left to end: the release alarm is gone (it would only wake the worker for nothing).
    expect(desktop.alarms.get(CALM_ALARM)).toBeUndefined();
    // A restart reads the old state again: nothing more.
    const again = start();
    await again.calm.resume();
    clock.t = at(23, 8);
    await again.calm.resume();
    expect(desktop.log).toHaveLength(1);
  });

  it('an intent both held by the old version and already in the outbox is announced once', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '07:00' } };
    clock.t = at(23, 1);
    const first = start();
    await first.finish(1, 'SUCCEEDED');
    await legacy({ held: [{ intentId: id(1), status: 'SUCCEEDED', heldAt: at(23, 1) }] });
    clock.t = at(23, 7);
    const second = start();
    await second.calm.resume();
    expect(desktop.log.map((a) => a.title)).toEqual(['While you were away: 1 intent finished']);
  });

  it('an intent the old version held that has since had its own notification is not in the summary (N2)', async () => {
    clock.t = at(23, 8);
    await legacy({
      held: [
        { intentId: id(1), status: 'SUCCEEDED', heldAt: at(23, 1) },
        { intentId: id(2), status: 'FAILED', heldAt: at(23, 2) },
      ],
    });
    const w = start();
    // The start-up replays the pending delivery of intent 1 before the release runs.
    await w.finish(1, 'SUCCEEDED');
    await w.calm.resume();
    expect(desktop.log.map((a) => `${a.title} — ${a.message}`)).toEqual([
      `${finalTitle(1)} — Arbitrum One → Base: 1.00 USDC`,
      'While you were away: 1 intent finished — 1 failed',
    ]);
  });
});

describe('the progress notification', () => {
  beforeEach(() => {
    settings = { ...DEFAULT_NOTIFY, progress: true };
  });

  it('is only for an intent in flight with a receipt: not for a final one, an unknown one, or one not yet read', async () => {
    const w = start();
    await w.record(1, 'SUCCEEDED');
    await w.calm.progress(id(1));
    await w.calm.progress(id(9));
    await w.mirror.write(id(2), () => ({ intentId: id(2), addedAt: clock.now(), lastStates: [], phase: 'tracking', notification: 'none' }));
    await w.calm.progress(id(2));
    expect(desktop.log).toEqual([]);
    await w.delivery.deliver(id(1));
    expect(desktop.log.map((a) => a.title)).toEqual([finalTitle(1)]);
  });

  it('is silent and has no explorer button; turned final in place it sounds and offers the receipt and the explorer', async () => {
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(1));
    const [pid] = onScreenFor(1);
    expect(desktop.screen.get(pid!)).toMatchObject({ silent: true });
    expect(desktop.log[0]!.buttons).toEqual(['View receipt']);
    await w.finish(1, 'SUCCEEDED');
    expect(onScreenFor(1)).toEqual([pid]);
    expect(desktop.screen.get(pid!)).toMatchObject({ silent: false, title: finalTitle(1) });
    expect(desktop.log.at(-1)!.buttons).toEqual(['View receipt', 'Open in explorer']);
  });

  it('turned final without sound when the user turned sound off', async () => {
    settings = { ...DEFAULT_NOTIFY, progress: true, sound: false };
    const w = start();
    await w.record(1, 'EXECUTING', ['PENDING']);
    await w.calm.progress(id(1));
    await w.finish(1, 'SUCCEEDED');
    expect(desktop.screen.get(onScreenFor(1)[0]!)).toMatchObject({ silent: true, title: finalTitle(1) });
  });
});

describe('a worker that dies while it shows a grouped notification', () => {
  const cases = [
    ['chrome', 'kill'],
    ['chrome', 'kill-after'],
    ['firefox', 'kill-after'],
  ] as const;
  for (const [kind, fault] of cases) {
    it(`${kind}, ${fault === 'kill' ? 'dying inside create' : 'dying right after create'}: the group appears once, naming each of its intents`, async () => {
      desktop = new FakeDesktop(kind, () => clock.now());
      // The grouping window on the virtual clock, not the harness's real 100 ms: three finishes beside a busy machine
      // (npm test) took longer than that, and the third missed the group.
      const w = start({ groupTimer: groupOnClock(clock) });
      await w.finish(1, 'SUCCEEDED');
      w.browser.fail('create', fault);
      void Promise.all([2, 3, 4].map((n) => w.finish(n, 'SUCCEEDED')));
      await settle();
      // The grouping window closes, and the worker dies in the group's create.
      await clock.advance(100);
      await vi.waitFor(() => expect(desktop.kills).toEqual([expect.objectContaining({ method: 'create' })]), { timeout: 10_000 });
      await settle();
      const again = start();
      for (let i = 0; i < 3; i++) {
        clock.t += 30_000;
        await again.wake();
      }
      const groups = desktop.log.filter((a) => a.id.startsWith('svc-group:'));
      expect(groups).toHaveLength(1);
      expect(intentIdsOfNotification(groups[0]!.id)).toEqual([id(2), id(3), id(4)]);
      expect(groups[0]).toMatchObject({
        title: '3 intents finished: 3 succeeded',
        message: '0x0000…0002: Arbitrum One → Base\n0x0000…0003: Arbitrum One → Base\n0x0000…0004: Arbitrum One → Base',
      });
      expect(desktop.log).toHaveLength(2);
      for (const n of [2, 3, 4]) expect((await shared.intents.get(id(n)))?.notification).toBe('shown');
    });
  }
});

describe('the release alarm', () => {
  it('is set again by the next start when the browser lost it (Firefox keeps no alarm across a restart) while notifications are held', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '07:00' } };
    clock.t = at(22, 23);
    const first = start();
    await first.finish(1, 'SUCCEEDED');
    expect(desktop.alarms.get(CALM_ALARM)?.scheduledTime).toBe(at(23, 7));
    // The browser restarts: its alarms are gone.
    desktop.alarms.clear();
    clock.t = at(23, 2);
    const second = start();
    await second.wake();
    expect(desktop.alarms.get(CALM_ALARM)?.scheduledTime).toBe(at(23, 7));
    expect(desktop.log).toEqual([]);
  });

  it('is not set when nothing is held and no snooze runs', async () => {
    settings = { ...DEFAULT_NOTIFY, quietHours: { start: '22:00', end: '07:00' } };
    clock.t = at(22, 23);
    const w = start();
    await w.wake();
    expect(desktop.alarms.get(CALM_ALARM)).toBeUndefined();
  });
});
