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
import { readSettings, readTrackedIntent, STORE_VERSION } from '@/lib/store/records';
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

describe('readTrackedIntent: the migrations, field by field', () => {
  const ID = `0x${'d'.repeat(64)}`;
  const ok = (raw: unknown, key?: unknown) => {
    const read = readTrackedIntent(raw, key);
    if (!read.ok) throw new Error(`not read: ${read.reason}`);
    return read;
  };

  it('a record that is not an object (or is a list) is not read, and not taken for a later version’s', () => {
    for (const raw of [null, 'x', 5, [ID]])
      expect(readTrackedIntent(raw, ID)).toEqual({ ok: false, reason: 'not an object', later: false });
  });

  it('takes the intentId from the key only when the record has none and the key is a string', () => {
    expect(ok({ addedAt: 1 }, ID).record.intentId).toBe(ID);
    expect(ok({ intentId: 'own', addedAt: 1 }, ID).record.intentId).toBe('own');
    expect(readTrackedIntent({ addedAt: 1 }, 7)).toMatchObject({ ok: false, later: false });
  });

  it('takes the status from the receipt only when there is none; the phase and notification follow from it', () => {
    expect(ok({ intentId: ID, addedAt: 1, receipt: { intentId: ID, status: 'FAILED' } }).record).toMatchObject({
      status: 'FAILED',
      phase: 'final',
      notification: 'pending',
    });
    expect(ok({ intentId: ID, addedAt: 1, status: 'EXECUTING', receipt: { intentId: ID, status: 'FAILED' } }).record).toMatchObject({
      status: 'EXECUTING',
      phase: 'tracking',
      notification: 'none',
    });
    expect(ok({ intentId: ID, addedAt: 1, notifiedAt: 9, status: 'SUCCEEDED' }).record.notification).toBe('shown');
    expect(ok({ intentId: ID, addedAt: 1, status: 'REFUNDED' }).record.phase).toBe('final');
    expect(ok({ intentId: ID, addedAt: 1, status: 'COMMITTED' }).record.phase).toBe('tracking');
  });

  it('a record already in this version’s shape is read unchanged and not migrated', () => {
    const rec = { intentId: ID, addedAt: 1, lastStates: ['PENDING'], phase: 'tracking', notification: 'none' };
    expect(ok(rec)).toEqual({ ok: true, record: rec, migrated: false });
    expect(ok({ ...rec, lastStates: undefined }).record.lastStates).toEqual([]);
  });

  it('fills a missing addedAt from the last check, else 0', () => {
    expect(ok({ intentId: ID, lastCheckedAt: 55 }).record.addedAt).toBe(55);
    expect(ok({ intentId: ID }).record.addedAt).toBe(0);
  });

  it('a paused record keeps an error other than a rejected key or origin', () => {
    const lastError = { kind: 'network', message: 'down', at: 3 };
    expect(ok({ intentId: ID, addedAt: 1, phase: 'paused', lastError }).record.lastError).toEqual(lastError);
    for (const kind of ['key-rejected', 'origin-rejected'])
      expect(ok({ intentId: ID, addedAt: 1, phase: 'paused', lastError: { kind, message: 'm', at: 3 } }).record.lastError).toBeUndefined();
  });

  it('says where it failed, and marks it a later version’s only when every issue is an unknown enumeration value', () => {
    const rec = { intentId: ID, addedAt: 1, lastStates: [], phase: 'tracking', notification: 'none' };
    expect(readTrackedIntent({ ...rec, phase: 'archived' })).toMatchObject({
      ok: false,
      later: true,
      reason: expect.stringMatching(/^phase: /),
    });
    expect(readTrackedIntent({ ...rec, phase: 'archived', addedAt: 'x' })).toMatchObject({ ok: false, later: false });
    expect(readTrackedIntent({ ...rec, notified: { title: 1 } })).toMatchObject({
      ok: false,
      later: false,
      reason: expect.stringMatching(/^notified\.title: /),
    });
    expect(readTrackedIntent({ ...rec, retry: { attempt: 'one' } })).toMatchObject({ ok: false, later: false });
    expect(readTrackedIntent({ ...rec, lastError: { kind: 'x' } })).toMatchObject({ ok: false, later: false });
    expect(readTrackedIntent({ ...rec, receipt: { status: 'SUCCEEDED' } })).toMatchObject({ ok: false, later: false });
  });
});

describe('readSettings: a field of the wrong type is left out', () => {
  it('reads nothing for a non-object, empty strings for a missing or damaged URL and key', () => {
    expect(readSettings(undefined)).toBeUndefined();
    expect(readSettings('settings')).toBeUndefined();
    expect(readSettings({})).toEqual({ settings: { baseUrl: '', accessKey: '' }, dropped: [] });
    expect(readSettings({ baseUrl: 5, accessKey: null })).toEqual({
      settings: { baseUrl: '', accessKey: '' },
      dropped: ['baseUrl', 'accessKey'],
    });
  });

  it('drops each damaged list or switch by name and keeps the others', () => {
    const read = readSettings({
      baseUrl: 'https://svc.example',
      accessKey: 'k',
      watchedAddresses: ['0xa'],
      autoTrackAddresses: [1],
      autoTrackTicks: 'x',
      syncSettings: 'yes',
    });
    expect(read?.dropped).toEqual(['autoTrackAddresses', 'autoTrackTicks', 'syncSettings']);
    expect(read?.settings).toEqual({ baseUrl: 'https://svc.example', accessKey: 'k', watchedAddresses: ['0xa'] });
    expect(readSettings({ syncSettings: false })?.settings.syncSettings).toBe(false);
  });

  it('hands version 1’s checkpoints back apart, only the numeric ones', () => {
    const read = readSettings({ watchedCheckedAt: { '0xa': 100, '0xb': 'soon' } });
    expect(read?.watchedCheckedAt).toEqual({ '0xa': 100 });
    expect(read?.settings).not.toHaveProperty('watchedCheckedAt');
    expect(readSettings({ watchedCheckedAt: 5 })).not.toHaveProperty('watchedCheckedAt');
  });
});
