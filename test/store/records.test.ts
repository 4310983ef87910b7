/**
 * Stored shapes, versioned (lib/store/records.ts, lib/store/checked.ts): records and settings that earlier versions
 * wrote are migrated on load and tracked as they should be; a record that cannot be read is set aside, kept as it
 * was, never handed to the tracker and never dropped. The tracker runs on these stores (fake-indexeddb) against the
 * fake service on virtual time, and what is checked is what the service receives and what the user is told.
 */
import { IDBFactory } from 'fake-indexeddb';
import { createStore, get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAsideRecords, createIntentStore, createSettingsStore, createWatchedCheckpoints } from '@/lib/store';
import { createCheckedIntentStore, createCheckedSettingsStore, STORE_VERSION_KEY } from '@/lib/store/checked';
import { readTrackedIntent, STORE_VERSION } from '@/lib/store/records';
import { Tracker } from '@/lib/tracker/engine';
import { HONEST, PENDING, sid } from '../tracker/engine-harness';
import { FakeService } from '../tracker/fake-service';
import { EventClock, RecordingNotifier } from '../tracker/fakes';

let intentsDb: ReturnType<typeof createStore>;
let settingsDb: ReturnType<typeof createStore>;
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  intentsDb = createStore('svc-intents', 'intents');
  settingsDb = createStore('svc-settings', 'settings');
});

/** What the first version wrote for an intent whose key the service rejected (phase `paused`). */
const firstVersionPaused = (intentId: string) => ({
  intentId,
  addedAt: 1_799_999_000_000,
  lastStates: [],
  phase: 'paused',
  notification: 'none',
  lastError: { kind: 'key-rejected', message: 'The service rejected the access key.', at: 1_799_999_100_000 },
});

/** The worker's tracker over the checked store, and an intent `sid(n)` that succeeds 2 s from now on the fake service. */
function worker(ns: number[]) {
  const clock = new EventClock();
  const service = new FakeService(clock, 20_000, HONEST);
  for (const n of ns) {
    const t0 = clock.now();
    service.add({
      intentId: sid(n),
      ownerAddress: '0xa1',
      createdAt: t0 - 60_000,
      inHistory: true,
      steps: [
        { at: t0 - 60_000, status: 'EXECUTING', states: PENDING },
        { at: t0 + 2_000, status: 'SUCCEEDED', states: ['SUCCEEDED', 'SUCCEEDED', 'SUCCEEDED'] },
      ],
    });
  }
  const aside = createAsideRecords(settingsDb);
  const notifier = new RecordingNotifier();
  const tracker = new Tracker({
    store: createCheckedIntentStore(aside, intentsDb, settingsDb, () => clock.now()),
    clock,
    notifier,
    transport: async () => service.transport(),
    random: () => 1,
  });
  return { clock, service, notifier, tracker, aside };
}

describe('records from earlier versions', () => {
  it('tracks a record the first version left `paused`, and tells the user when it succeeds', async () => {
    await set(sid(1), firstVersionPaused(sid(1)), intentsDb);
    const { clock, service, notifier, tracker } = worker([1]);
    await tracker.resume();
    await clock.advance(30_000);
    tracker.stop();
    expect(service.log.filter((e) => e.intentId === sid(1)).length).toBeGreaterThan(0);
    expect(notifier.shown.map((s) => s.intentId)).toEqual([sid(1)]);
    // Written back in today's shape.
    expect(await get(sid(1), intentsDb)).toMatchObject({ phase: 'final', status: 'SUCCEEDED', notification: 'shown' });
    expect(await get(STORE_VERSION_KEY, settingsDb)).toBe(STORE_VERSION);
  });

  it('records answers for a record missing fields a later version added (lastStates, notification)', async () => {
    const { lastStates: _, notification: __, ...old } = { ...firstVersionPaused(sid(2)), phase: 'tracking', lastError: undefined };
    await set(sid(2), old, intentsDb);
    const { clock, notifier, tracker } = worker([2]);
    await tracker.resume();
    await clock.advance(30_000);
    tracker.stop();
    expect(notifier.shown.map((s) => s.intentId)).toEqual([sid(2)]);
    expect((await tracker.list())[0]).toMatchObject({ status: 'SUCCEEDED', phase: 'final' });
  });

  it('sets aside a record it cannot read — kept as it was, reported, not tracked — and tracks the others', async () => {
    const broken = { intentId: sid(3), addedAt: 'yesterday', phase: 'tracking', lastStates: 'none', notification: 'none' };
    await set(sid(3), broken, intentsDb);
    await set(sid(4), { ...firstVersionPaused(sid(4)), phase: 'tracking', lastError: undefined }, intentsDb);
    await set('garbage', 42, intentsDb);
    const { clock, service, notifier, tracker, aside } = worker([3, 4]);
    await tracker.resume();
    await clock.advance(30_000);
    tracker.stop();
    expect(notifier.shown.map((s) => s.intentId)).toEqual([sid(4)]);
    expect(service.log.some((e) => e.intentId === sid(3))).toBe(false);
    const kept = await aside.list();
    expect(kept.map((k) => [k.key, k.raw])).toEqual(
      expect.arrayContaining([
        [sid(3), broken],
        ['garbage', 42],
      ]),
    );
    expect(kept.find((k) => k.key === sid(3))?.reason).toMatch(/addedAt/);
    // The popup's own read (no zod) leaves such records out rather than break.
    await set(sid(5), broken, intentsDb);
    expect((await createIntentStore(intentsDb).list()).map((t) => t.intentId)).toEqual([sid(4)]);
  });

  it('reads every shape this version writes unchanged', () => {
    const now = { intentId: sid(6), addedAt: 1, lastStates: ['PENDING'], phase: 'not-found', notification: 'none', source: 'watched' };
    expect(readTrackedIntent(now)).toEqual({ ok: true, record: now, migrated: false });
  });
});

describe('settings from earlier versions', () => {
  it('moves the first versions’ watchedCheckedAt to the checkpoints and sets a malformed field aside', async () => {
    const raw = {
      baseUrl: 'https://svc.example',
      accessKey: 'k',
      watchedCheckedAt: { '0xabc': 1_800_000_000 },
      notify: { succeeded: 'yes' },
      watchedAddresses: ['0xabc'],
    };
    await set('settings', raw, settingsDb);
    const settings = createCheckedSettingsStore(createSettingsStore(settingsDb), settingsDb);
    const read = await settings.get();
    expect(read).toEqual({ baseUrl: 'https://svc.example', accessKey: 'k', watchedAddresses: ['0xabc'] });
    expect(await createWatchedCheckpoints(settingsDb).get()).toEqual({ '0xabc': { fromTime: 1_800_000_000 - 60 } });
    expect(await get('settings-unreadable', settingsDb)).toEqual({ raw, dropped: ['notify'] });
  });
});
