import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createSettingsStore, type Settings } from '@/lib/store';
import {
  createSyncedSettingsStore,
  pickSynced,
  SYNCED_SETTING_KEYS,
  type SyncArea,
  SyncFailedError,
  syncFailureMessage,
  syncItems,
} from '@/lib/store/sync';

const KEY = 'sk_live_do-not-sync_8f3a1c';
const URL = 'https://svc.example.test';
const ME = `0x${'a1'.repeat(20)}`;
const OTHER_ME = `0x${'a2'.repeat(20)}`;

const full: Settings = {
  baseUrl: URL,
  accessKey: KEY,
  watchedAddresses: [ME],
  autoTrackAddresses: [ME],
  notify: { succeeded: true, failed: true, refunded: false, stuck: true, sound: false },
};

/** A device: its own IndexedDB, sharing the user's sync area. */
const device = (name: string, area: SyncArea | undefined = fakeBrowser.storage.sync) =>
  createSyncedSettingsStore(createSettingsStore(createStore(`settings-${name}`, 'settings')), area);

/** Everything in the sync area, as the browser would upload it. */
const syncedText = async () => JSON.stringify(await fakeBrowser.storage.sync.get(null));

describe('settings synced through storage.sync', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    globalThis.indexedDB = new IDBFactory();
  });

  it('never writes the access key or the service URL to sync storage', async () => {
    const laptop = device('laptop');
    await laptop.set(full);
    await laptop.set({ ...full, accessKey: `${KEY}-2`, notify: { ...full.notify!, sound: true } });
    const text = await syncedText();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('sk_live');
    expect(text).not.toContain(URL);
    expect(text).not.toContain('svc.example');
    expect(Object.keys(await fakeBrowser.storage.sync.get(null)).sort()).toEqual([
      'settings.$revision',
      'settings.$version',
      'settings.autoTrackAddresses',
      'settings.autoTrackTicks',
      'settings.notify',
      'settings.watchedAddresses',
    ]);
    // This device keeps everything.
    expect(await laptop.get()).toMatchObject({ accessKey: `${KEY}-2`, baseUrl: URL });
  });

  it('keeps the key out of sync even when the object handed over carries extra fields', async () => {
    const sneaky = { ...full, 'settings.accessKey': KEY, token: KEY } as unknown as Settings;
    expect(JSON.stringify(pickSynced(sneaky))).not.toContain(KEY);
    await device('laptop').set(sneaky);
    expect(await syncedText()).not.toContain(KEY);
  });

  it('gives another browser of the user the notification choices and the watched addresses, not the key', async () => {
    await device('laptop').set(full);
    const desktop = device('desktop');
    const seen = await desktop.get();
    expect(seen).toMatchObject({ notify: full.notify, watchedAddresses: [ME], autoTrackAddresses: [ME] });
    expect(seen?.accessKey).toBe('');
    expect(seen?.baseUrl).toBe('');
    // Once the desktop has its own connection, synced changes from the laptop still arrive.
    await desktop.set({ ...seen!, baseUrl: 'https://other.example', accessKey: 'desk-key' });
    await device('laptop').set({ ...full, watchedAddresses: [], autoTrackAddresses: [] });
    expect(await desktop.get()).toMatchObject({ baseUrl: 'https://other.example', accessKey: 'desk-key', watchedAddresses: [] });
  });

  it('syncs nothing, and reads nothing synced, on a device that turned syncing off', async () => {
    await device('laptop').set(full);
    const privateOne = device('private');
    await privateOne.set({ baseUrl: URL, accessKey: KEY, notify: { ...full.notify!, failed: false }, syncSettings: false });
    expect(await privateOne.get()).toMatchObject({ notify: { failed: false }, syncSettings: false });
    expect(await privateOne.get()).not.toHaveProperty('watchedAddresses');
    expect(((await fakeBrowser.storage.sync.get('settings.notify')) as Record<string, Settings['notify']>)['settings.notify']?.failed).toBe(
      true,
    );
  });

  it('saves on the device and says so when only the sync fails', async () => {
    const broken: SyncArea = {
      get: async () => ({}),
      set: async () => {
        throw new Error('QUOTA_BYTES_PER_ITEM quota exceeded');
      },
      remove: async () => {},
    };
    const store = device('laptop', broken);
    const error = await store.set(full).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncFailedError);
    expect((error as Error).message).toContain('QUOTA_BYTES_PER_ITEM');
    expect((error as SyncFailedError).reason).toBe('too-large');
    expect(await createSettingsStore(createStore('settings-laptop', 'settings')).get()).toMatchObject(full);
    expect(await store.get()).toEqual({ ...full, autoTrackTicks: [expect.stringMatching(new RegExp(`^${ME}:[0-9a-z]{8}$`))] });
  });

  it('reads this device’s copy when the sync area cannot be read', async () => {
    const unreadable: SyncArea = {
      get: async () => {
        throw new Error('sync is disabled by policy');
      },
      set: async () => {},
      remove: async () => {},
    };
    const store = device('laptop', unreadable);
    await store.set(full);
    expect(await store.get()).toEqual({ ...full, autoTrackTicks: [expect.stringMatching(new RegExp(`^${ME}:[0-9a-z]{8}$`))] });
  });

  it('lists only preferences in the synced set', () => {
    // The type already refuses the key and the URL; this guards a cast.
    expect(SYNCED_SETTING_KEYS).not.toContain('accessKey');
    expect(SYNCED_SETTING_KEYS).not.toContain('baseUrl');
    expect(SYNCED_SETTING_KEYS).not.toContain('syncSettings');
  });
});

/**
 * `storage.sync` with Chrome's quotas and errors (developer.chrome.com/docs/extensions/reference/api/storage#property-sync):
 * an item is its key plus its JSON value, at most 8,192 bytes; 102,400 bytes in all; 120 set/remove calls a minute. A
 * call that would break a quota changes nothing and rejects with Chrome's message. Shared by the user's devices.
 */
class ChromeSyncArea implements SyncArea {
  readonly items = new Map<string, unknown>();
  readonly writes: number[] = [];
  constructor(readonly now: () => number) {}
  async get(keys: string[] | null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of this.items) if (!keys || keys.includes(k)) out[k] = structuredClone(v);
    return out;
  }
  #write() {
    const t = this.now();
    while (this.writes.length > 0 && this.writes[0]! <= t - 60_000) this.writes.shift();
    if (this.writes.length >= 120) throw new Error('MAX_WRITE_OPERATIONS_PER_MINUTE quota exceeded');
    this.writes.push(t);
  }
  async set(items: Record<string, unknown>) {
    const bytes = (k: string, v: unknown) => new TextEncoder().encode(k + JSON.stringify(v)).length;
    for (const [k, v] of Object.entries(items)) if (bytes(k, v) > 8_192) throw new Error('QUOTA_BYTES_PER_ITEM quota exceeded');
    const next = new Map(this.items);
    for (const [k, v] of Object.entries(items)) next.set(k, structuredClone(v));
    if ([...next].reduce((sum, [k, v]) => sum + bytes(k, v), 0) > 102_400) throw new Error('QUOTA_BYTES quota exceeded');
    this.#write();
    for (const [k, v] of next) this.items.set(k, v);
  }
  async remove(keys: string[]) {
    this.#write();
    for (const k of keys) this.items.delete(k);
  }
}

/** `n` distinct owner addresses. */
const addresses = (n: number, salt = 1) => Array.from({ length: n }, (_, i) => `0x${(i * 7919 + salt).toString(16).padStart(40, '0')}`);

describe('settings synced within Chrome’s storage.sync quotas', () => {
  let t = 1_800_000_000_000;
  const clock = () => t;
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
    t += 3_600_000;
  });
  const on = (name: string, area: SyncArea) =>
    createSyncedSettingsStore(createSettingsStore(createStore(`q-${name}`, 'settings')), area, clock);

  it('syncs 200 watched addresses (more than one 8 KB item) and the quiet hours saved with them, on this device and the next', async () => {
    const area = new ChromeSyncArea(clock);
    const laptop = on('laptop', area);
    await laptop.set(full);
    t += 1_000;
    const many = addresses(200);
    const quiet = { ...full.notify!, quietHours: { start: '22:00', end: '07:00' } };
    await laptop.set({ ...full, watchedAddresses: many, autoTrackAddresses: many, notify: quiet });
    expect(await laptop.get()).toMatchObject({ watchedAddresses: many, autoTrackAddresses: many, notify: quiet });
    expect(await on('desktop', area).get()).toMatchObject({ watchedAddresses: many, notify: quiet });
    // Split over items of at most 8 KB; and when the list shrinks again, the parts go.
    expect([...area.items.keys()].filter((k) => k.includes('#')).length).toBeGreaterThanOrEqual(4);
    t += 1_000;
    await laptop.set({ ...full, watchedAddresses: [ME], autoTrackAddresses: [] });
    expect([...area.items.keys()].filter((k) => k.includes('#'))).toEqual([]);
    expect(await on('desktop', area).get()).toMatchObject({ watchedAddresses: [ME], autoTrackAddresses: [] });
  });

  it('beyond 100 KB in all: says so, syncs nothing, and this device keeps what was saved (never the older synced values)', async () => {
    const area = new ChromeSyncArea(clock);
    const laptop = on('laptop', area);
    await laptop.set(full);
    t += 1_000;
    const tooMany = addresses(1_500);
    const quiet = { ...full.notify!, quietHours: { start: '23:00', end: '06:00' } };
    const error = await laptop
      .set({ ...full, watchedAddresses: tooMany, autoTrackAddresses: tooMany, notify: quiet })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncFailedError);
    expect((error as SyncFailedError).reason).toBe('too-large');
    expect(syncFailureMessage(error as SyncFailedError)).toContain('100 KB');
    expect(await laptop.get()).toMatchObject({ watchedAddresses: tooMany, notify: quiet });
    // The other browser keeps the last values that did sync.
    expect(await on('desktop', area).get()).toMatchObject({ watchedAddresses: [ME], notify: full.notify });
    // A later save from the other browser that does sync reaches this one.
    t += 1_000;
    await on('desktop', area).set({ baseUrl: URL, accessKey: 'desk', watchedAddresses: [], autoTrackAddresses: [] });
    expect(await laptop.get()).toMatchObject({ watchedAddresses: [], accessKey: KEY });
  });

  it('a sync refused by the browser (a quota error) never undoes this device’s save', async () => {
    const area = new ChromeSyncArea(clock);
    const laptop = on('laptop', area);
    await laptop.set(full);
    t += 1_000;
    area.set = async () => {
      throw new Error('QUOTA_BYTES quota exceeded');
    };
    const quiet = { ...full.notify!, quietHours: { start: '21:00', end: '08:00' } };
    const error = await laptop.set({ ...full, notify: quiet }).catch((e: unknown) => e);
    expect((error as SyncFailedError).reason).toBe('too-large');
    expect((await laptop.get())?.notify).toEqual(quiet);
  });

  it('stays within 120 writes a minute: a save beyond it is kept on this device and said so', async () => {
    const area = new ChromeSyncArea(clock);
    const laptop = on('laptop', area);
    const failures: string[] = [];
    for (let i = 0; i < 100; i++) {
      t += 100;
      const list = i % 2 === 0 ? addresses(200, i) : [ME];
      await laptop.set({ ...full, watchedAddresses: list, autoTrackAddresses: [] }).catch((e: SyncFailedError) => failures.push(e.reason));
      expect((await laptop.get())?.watchedAddresses).toEqual(list);
    }
    expect(failures.length).toBeGreaterThan(0);
    expect(new Set(failures)).toEqual(new Set(['too-often']));
    expect(area.writes.length).toBeLessThanOrEqual(120);
    // A minute later it syncs again.
    t += 60_000;
    await laptop.set({ ...full, watchedAddresses: [ME, OTHER_ME], autoTrackAddresses: [] });
    expect(await on('desktop', area).get()).toMatchObject({ watchedAddresses: [ME, OTHER_ME] });
  });

  it('times the 120 writes a minute on the monotonic clock: a wall clock jumping forward frees nothing, one jumping back blocks nothing', async () => {
    // Each save of a shrinking list is two writes (set, then remove the parts no longer there): 60 saves fill the minute.
    let mono = 0;
    let wall = 1_800_000_000_000;
    const chrome = new ChromeSyncArea(() => mono);
    let calls = 0;
    const area: SyncArea = {
      get: (keys) => chrome.get(keys),
      set: (items) => {
        calls++;
        return chrome.set(items);
      },
      remove: (keys) => chrome.remove(keys),
    };
    const laptop = createSyncedSettingsStore(createSettingsStore(createStore('q-mono', 'settings')), area, {
      now: () => wall,
      monotonic: () => mono,
    });
    const save = (i: number) =>
      laptop.set({ ...full, watchedAddresses: i % 2 === 0 ? addresses(200, i) : [ME], autoTrackAddresses: [] }).then(
        () => 'ok',
        (e: SyncFailedError) => e.reason,
      );
    let i = 0;
    while ((await save(i++)) === 'ok') mono += 10;
    // The user's clock jumps an hour ahead: the minute is still spent.
    wall += 3_600_000;
    const before = calls;
    expect(await save(i++)).toBe('too-often');
    expect(calls).toBe(before);
    // It jumps two hours back, and a minute passes: the window has slid.
    wall -= 7_200_000;
    mono += 60_000;
    expect(await save(i++)).toBe('ok');
  });
});

describe('the items that hold the synced settings (syncItems)', () => {
  const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
  const bytes = (name: string, value: unknown) => new TextEncoder().encode(name + JSON.stringify(value)).length;

  it('puts each key in one item when it fits, with the revision, and leaves out what is not set', () => {
    const items = syncItems({ watchedAddresses: [ME], notify: full.notify }, 1234);
    expect(items).toEqual({ 'settings.$revision': 1234, 'settings.watchedAddresses': [ME], 'settings.notify': full.notify });
  });

  it('splits a list too big for one item over parts of at most 8,192 bytes each, in order, none empty', () => {
    const list = Array.from({ length: 400 }, (_, i) => address(i));
    const items = syncItems({ watchedAddresses: list }, 1);
    const header = items['settings.watchedAddresses'] as { parts: number };
    // 400 addresses of 45 bytes (quoted, with a comma) are about 18,000 bytes: three parts.
    expect(header.parts).toBe(3);
    const parts = Array.from({ length: header.parts }, (_, i) => items[`settings.watchedAddresses#${i}`] as string[]);
    expect(parts.flat()).toEqual(list);
    for (const [i, part] of parts.entries()) {
      expect(part.length).toBeGreaterThan(0);
      expect(bytes(`settings.watchedAddresses#${i}`, part)).toBeLessThanOrEqual(8_192);
    }
    // Each part but the last is full: one more address would not have fitted.
    for (let i = 0; i < parts.length - 1; i++)
      expect(bytes(`settings.watchedAddresses#${i}`, [...parts[i]!, parts[i + 1]![0]])).toBeGreaterThan(8_192);
    expect(Object.keys(items).filter((k) => k.includes('#'))).toHaveLength(3);
  });

  it('keeps a value of exactly 8,192 bytes in one item', () => {
    const name = 'settings.watchedAddresses';
    // ["…"] around one string: 4 bytes of JSON, plus the item's name.
    const one = 'x'.repeat(8_192 - name.length - 4);
    expect(bytes(name, [one])).toBe(8_192);
    expect(syncItems({ watchedAddresses: [one] }, 1)[name]).toEqual([one]);
    // One byte more, over two elements: split in two.
    const a = 'x'.repeat(4_000);
    const b = 'y'.repeat(8_193 - bytes(name, [a, '']));
    expect(bytes(name, [a, b])).toBe(8_193);
    const two = syncItems({ watchedAddresses: [a, b] }, 1);
    expect(two[name]).toEqual({ parts: 2 });
    expect([two[`${name}#0`], two[`${name}#1`]]).toEqual([[a], [b]]);
  });

  it('refuses as too large a value that is no list, one element beyond an item, and more than 100 KB in all', () => {
    const notify = { ...full.notify!, later: 'x'.repeat(9_000) };
    expect(() => syncItems({ notify } as never, 1)).toThrow(expect.objectContaining({ reason: 'too-large' }));
    expect(() => syncItems({ watchedAddresses: ['x'.repeat(9_000)] }, 1)).toThrow(expect.objectContaining({ reason: 'too-large' }));
    const list = Array.from({ length: 2_400 }, (_, i) => address(i));
    expect(() => syncItems({ watchedAddresses: list }, 1)).toThrow(expect.objectContaining({ reason: 'too-large' }));
    // About 90 KB passes.
    expect(() => syncItems({ watchedAddresses: list.slice(0, 2_000) }, 1)).not.toThrow();
  });
});

describe('what a save removes from storage.sync', () => {
  it('removes the parts of a list that no longer needs them, and never another item of the area', async () => {
    const area = fakeBrowser.storage.sync;
    await area.set({ 'other.extension.key': 1, settingsOther: 2 });
    const laptop = device('shrink', area);
    const big = Array.from({ length: 400 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    await laptop.set({ ...full, watchedAddresses: big, autoTrackAddresses: [] });
    expect(Object.keys(await area.get(null))).toContain('settings.watchedAddresses#2');
    await laptop.set({ ...full, watchedAddresses: [ME], autoTrackAddresses: [] });
    const after = await area.get(null);
    expect(Object.keys(after).filter((k) => k.includes('#'))).toEqual([]);
    expect(after['settings.watchedAddresses']).toEqual([ME]);
    expect(after['other.extension.key']).toBe(1);
    expect(after.settingsOther).toBe(2);
    expect(await device('desktop', area).get()).toMatchObject({ watchedAddresses: [ME] });
  });
});

describe('the store’s own write budget and the older versions’ rule', () => {
  /** A sync area with no quota of its own: only the store's limit applies. */
  const plainArea = () => {
    const items = new Map<string, unknown>();
    let sets = 0;
    const area: SyncArea = {
      get: async () => Object.fromEntries(items),
      set: async (v) => {
        sets++;
        for (const [k, x] of Object.entries(v)) items.set(k, structuredClone(x));
      },
      remove: async (keys) => {
        for (const k of keys) items.delete(k);
      },
    };
    return { area, items, sets: () => sets };
  };

  it('lets 119 one-write saves through within a minute, refuses the 120th as too often, and lets it through 60 s after the first', async () => {
    globalThis.indexedDB = new IDBFactory();
    let t = 1_000_000;
    const { area, sets } = plainArea();
    const store = createSyncedSettingsStore(createSettingsStore(createStore('budget-window', 'settings')), area, () => t);
    for (let i = 0; i < 119; i++) await store.set(full);
    expect(sets()).toBe(119);
    t += 59_999;
    expect(((await store.set(full).catch((e: unknown) => e)) as SyncFailedError).reason).toBe('too-often');
    t += 1;
    await store.set(full);
    expect(sets()).toBe(120);
  });

  it('against a sync area only older versions wrote (no version item), the later save time wins; a tie goes to the synced values', async () => {
    for (const [revision, expected] of [
      [500, [ME]],
      [1_000, [OTHER_ME]],
      [2_000, [OTHER_ME]],
    ] as const) {
      globalThis.indexedDB = new IDBFactory();
      const local = createSettingsStore(createStore(`older-${revision}`, 'settings'));
      // Saved on this device alone at t = 1,000.
      await createSyncedSettingsStore(local, undefined, () => 1_000).set({ ...full, watchedAddresses: [ME] });
      const { area, items } = plainArea();
      items.set('settings.$revision', revision);
      items.set('settings.watchedAddresses', [OTHER_ME]);
      expect((await createSyncedSettingsStore(local, area, () => 3_000).get())?.watchedAddresses, String(revision)).toEqual(expected);
    }
  });

  it('says each failure in the browser’s language', () => {
    expect(syncFailureMessage(new SyncFailedError('too-large'))).toMatch(/more than the browser's sync storage holds/);
    expect(syncFailureMessage(new SyncFailedError('too-often'))).toMatch(/saved too often in the last minute/);
    expect(syncFailureMessage(new SyncFailedError('unavailable'))).toMatch(/sync storage refused the change/);
  });
});
