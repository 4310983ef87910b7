import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFY } from '@/lib/store';
import { FakeService } from '../tracker/fake-service';
import { ACCESS_KEY, SERVICE_ORIGIN } from './network';
import { World } from './world';

const T0 = 1_800_000_000_000;
const ID = `0x${'1'.padStart(64, '0')}`;

/** A global that fails the test when the worker reads it. */
const poisoned = (what: string) =>
  new Proxy(() => {}, {
    get: () => {
      throw new Error(`the worker used the global ${what}`);
    },
    apply: () => {
      throw new Error(`the worker used the global ${what}`);
    },
  });

describe('the production wiring on the simulated platform', () => {
  const saved = { indexedDB: globalThis.indexedDB, fetch: globalThis.fetch, setTimeout: globalThis.setTimeout };
  beforeEach(() => {
    globalThis.indexedDB = poisoned('indexedDB') as never;
    globalThis.fetch = poisoned('fetch') as never;
  });
  afterEach(() => {
    globalThis.indexedDB = saved.indexedDB;
    globalThis.fetch = saved.fetch;
  });

  const world = () => {
    const clock = { now: () => 0, monotonic: () => 0, sleep: (_ms: number, _s?: AbortSignal) => Promise.resolve() };
    const service = new FakeService(clock, 20_000, undefined);
    const w = new World({
      seed: 1,
      kind: 'chrome',
      T0,
      service,
      net: {},
      killAt: new Map(),
      rejectNotificationAt: new Set(),
      settings: { baseUrl: SERVICE_ORIGIN, accessKey: ACCESS_KEY, notify: { ...DEFAULT_NOTIFY } },
    });
    Object.assign(clock, {
      now: () => w.time.trueNow(),
      sleep: (ms: number, s?: AbortSignal) => w.time.clockFor({ n: -1, bornAt: 0, dead: false }).sleep(ms, s),
    });
    service.add({
      intentId: ID,
      ownerAddress: `0x${'a1'.padStart(40, '0')}`,
      createdAt: T0 - 1_000,
      inHistory: false,
      steps: [
        { at: T0 - 1_000, status: 'COMMITTED', states: ['UNKNOWN', 'UNKNOWN', 'UNKNOWN'] },
        { at: T0 + 20_000, status: 'EXECUTING', states: ['PENDING', 'UNKNOWN', 'UNKNOWN'] },
        { at: T0 + 50_000, status: 'SUCCEEDED', states: ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'] },
      ],
    });
    return w;
  };

  it('registers every listener while the worker starts, before any of its awaits', async () => {
    const w = world();
    await w.configure();
    w.start('install');
    const { events } = w.current!.lb;
    for (const e of [
      events.onInstalled,
      events.onStartup,
      events.onMessage,
      events.onAlarm,
      events.onClicked,
      events.onButtonClicked,
      events.menuClicked,
      events.onCommand,
      events.onInputEntered,
    ])
      expect(e.hasListeners()).toBe(true);
    w.kill(w.current!.life, 'end');
  });

  it('tracks and notifies through the platform only, across a worker killed and started again by its alarm', async () => {
    const w = world();
    await w.configure();
    w.start('install');
    w.pumpAlarms(1_000, 5 * 60_000);
    expect(await w.send({ type: 'track', intentId: ID })).toMatchObject({ ok: true });
    await w.time.runUntil(10_000);
    w.kill(w.current!.life, 'kill');
    await w.time.runUntil(5 * 60_000);
    // The watchdog alarm started a second worker, which read the record and told the outcome once.
    expect(w.lives.length).toBe(2);
    expect(w.profile.desktop.log.map((a) => a.title)).toEqual(['Intent succeeded · 0x0000…0001']);
    expect(w.profile.desktop.log[0]!.at - T0).toBeGreaterThanOrEqual(50_000);
    expect(w.config.service.log.some((e) => e.op === 'wait' && e.status === 'SUCCEEDED')).toBe(true);
    w.kill(w.current!.life, 'end');
  });
});
