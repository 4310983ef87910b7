/**
 * A simulated browser profile and the browser API one worker life sees. What outlives a worker is in the
 * {@link Profile}: the desktop (notifications with Chrome's or Firefox's semantics, from test/notify/fake-desktop.ts,
 * recording every create with its words across restarts), alarms (Chrome's 30 s minimum), tabs, `storage.local` and
 * `storage.sync` (with Chrome's sync quotas, and items arriving from another device). Each life gets its own
 * listeners (dropped when it dies) and its own facade, whose every call is one of the worker's awaits (where the
 * schedule may kill it); a dead life's calls never settle.
 */
import { FakeDesktop, type Fault, type WorkerBrowser } from '../notify/fake-desktop';
import { plainClone } from './clone';
import type { Touch } from './idb';
import type { Life } from './time';

/** An event of the WebExtension API, per worker life. */
export class WorldEvent<A extends unknown[]> {
  readonly listeners: Array<(...a: A) => unknown> = [];
  addListener = (fn: (...a: A) => unknown) => void this.listeners.push(fn);
  removeListener = (fn: (...a: A) => unknown) => {
    const i = this.listeners.indexOf(fn);
    if (i >= 0) this.listeners.splice(i, 1);
  };
  hasListener = (fn: (...a: A) => unknown) => this.listeners.includes(fn);
  hasListeners = () => this.listeners.length > 0;
  /** Calls every listener; returns what they returned. */
  fire(...a: A): unknown[] {
    return this.listeners.map((fn) => fn(...a));
  }
}

/** Chrome's `storage.sync` quotas. */
export const SYNC_LIMITS = { bytesPerItem: 8_192, bytes: 102_400, items: 512 } as const;

/** An alarm as the browser keeps it (`scheduledTime` on the user's wall clock). */
export interface WorldAlarm {
  name: string;
  scheduledTime: number;
  periodInMinutes?: number;
}

/** The profile's record of an alarm: the browser runs it on a timer (true time), not on the wall clock. */
interface KeptAlarm extends WorldAlarm {
  /** True time at which it fires next. */
  dueAt: number;
}

const publicAlarm = ({ dueAt: _d, ...a }: KeptAlarm): WorldAlarm => plainClone(a);

/** What one browser profile keeps across worker lives and browser restarts. */
export class Profile {
  readonly desktop: FakeDesktop;
  readonly local = new Map<string, unknown>();
  readonly sync = new Map<string, unknown>();
  readonly alarms = new Map<string, KeptAlarm>();
  /** Host permissions the user granted (origin patterns, as `permissions.contains` asks them). */
  readonly granted = new Set<string>();
  /** Every `sendMessage` and badge text, for debugging. */
  badge = '';

  constructor(
    readonly kind: 'chrome' | 'firefox',
    /** The true time (the desktop logs what appeared when). */
    readonly trueNow: () => number,
    /** The user's wall clock (alarms). */
    readonly wall: () => number,
    /** True time since the world's start (when an alarm is due). */
    readonly t: () => number,
  ) {
    this.desktop = new FakeDesktop(kind, trueNow);
  }

  /** Alarms due at true time `t` (each moved to its next period, or removed). */
  dueAlarms(): WorldAlarm[] {
    const due: WorldAlarm[] = [];
    for (const a of [...this.alarms.values()]) {
      if (a.dueAt > this.t()) continue;
      due.push(publicAlarm(a));
      if (a.periodInMinutes === undefined) this.alarms.delete(a.name);
      else {
        a.dueAt = this.t() + a.periodInMinutes * 60_000;
        a.scheduledTime = this.wall() + a.periodInMinutes * 60_000;
      }
    }
    return due;
  }

  /** Items written to `storage.sync` by another device (no quota check: that device's browser accepted them). */
  syncFromAnotherDevice(items: Record<string, unknown>, fire?: (changes: Record<string, { newValue?: unknown }>) => void): void {
    const changes: Record<string, { newValue?: unknown }> = {};
    for (const [k, v] of Object.entries(items)) {
      this.sync.set(k, plainClone(v));
      changes[k] = { newValue: plainClone(v) };
    }
    fire?.(changes);
  }
}

const itemBytes = (key: string, value: unknown) => key.length + JSON.stringify(value ?? null).length;

/** The `browser` of one worker life. */
export function lifeBrowser(
  profile: Profile,
  life: Life,
  touch: (what: string) => Touch,
  /** The worker dies (in a call of this facade). */
  kill: () => void,
  /** Decides a fault of a notifications call beside a kill (the schedule's rejections). */
  notificationFault: (method: string, detail: string) => 'reject' | undefined,
) {
  const never = <T>() => new Promise<T>(() => {});
  /** One call of the facade: an await of the worker, where it may die before or after the effect. */
  const call = <T>(what: string, effect: () => T | Promise<T>): Promise<T> => {
    if (life.dead) return never<T>();
    const decision = touch(what);
    if (decision === 'kill') {
      kill();
      return never<T>();
    }
    let result: T | Promise<T>;
    try {
      result = effect();
    } catch (err) {
      if (decision === 'kill-after') kill();
      return decision === 'kill-after' ? never<T>() : Promise.reject(err);
    }
    if (decision === 'kill-after') {
      kill();
      // The effect happened (a rejection too); the dead worker never learns it.
      if (result instanceof Promise) result.catch(() => {});
      return never<T>();
    }
    return Promise.resolve(result);
  };
  const desktop: WorkerBrowser = profile.desktop.worker();
  desktop.hook = (method, detail): Fault | undefined => {
    const decision = touch(`notifications.${method} ${detail}`);
    if (decision) {
      // The desktop facade dies with the worker; the world drops the rest of it.
      queueMicrotask(kill);
      return decision;
    }
    return notificationFault(method, detail);
  };
  const events = {
    onInstalled: new WorldEvent<[{ reason: string }]>(),
    onStartup: new WorldEvent<[]>(),
    onMessage: new WorldEvent<[unknown, { id?: string }]>(),
    onAlarm: new WorldEvent<[WorldAlarm]>(),
    onClicked: new WorldEvent<[string]>(),
    onButtonClicked: new WorldEvent<[string, number]>(),
    onClosed: new WorldEvent<[string, boolean]>(),
    menuClicked: new WorldEvent<[{ menuItemId: string; selectionText?: string }]>(),
    onCommand: new WorldEvent<[string]>(),
    onInputEntered: new WorldEvent<[string]>(),
    storageChanged: new WorldEvent<[Record<string, { newValue?: unknown; oldValue?: unknown }>, string]>(),
  };
  const area = (name: 'local' | 'sync', map: Map<string, unknown>) => ({
    get: (keys: string | string[] | null | undefined) =>
      call(`storage.${name}.get`, () => {
        const wanted = keys === null || keys === undefined ? [...map.keys()] : typeof keys === 'string' ? [keys] : keys;
        const out: Record<string, unknown> = {};
        for (const k of wanted) if (map.has(k)) out[k] = plainClone(map.get(k));
        return out;
      }),
    set: (items: Record<string, unknown>) =>
      call(`storage.${name}.set`, () => {
        if (name === 'sync') {
          for (const [k, v] of Object.entries(items))
            if (itemBytes(k, v) > SYNC_LIMITS.bytesPerItem) throw new Error('QUOTA_BYTES_PER_ITEM quota exceeded');
          const next = new Map(map);
          for (const [k, v] of Object.entries(items)) next.set(k, v);
          let total = 0;
          for (const [k, v] of next) total += itemBytes(k, v);
          if (total > SYNC_LIMITS.bytes) throw new Error('QUOTA_BYTES quota exceeded');
          if (next.size > SYNC_LIMITS.items) throw new Error('MAX_ITEMS quota exceeded');
        }
        const changes: Record<string, { newValue?: unknown; oldValue?: unknown }> = {};
        for (const [k, v] of Object.entries(items)) {
          changes[k] = { oldValue: map.get(k), newValue: plainClone(v) };
          map.set(k, plainClone(v));
        }
        queueMicrotask(() => events.storageChanged.fire(changes, name));
      }),
    remove: (keys: string | string[]) =>
      call(`storage.${name}.remove`, () => {
        for (const k of typeof keys === 'string' ? [keys] : keys) map.delete(k);
      }),
    clear: () => call(`storage.${name}.clear`, () => map.clear()),
  });
  const alarms = {
    create: (name: string, o: { when?: number; delayInMinutes?: number; periodInMinutes?: number }) =>
      call(`alarms.create ${name}`, () => {
        const now = profile.wall();
        let when = o.when ?? now + (o.delayInMinutes ?? o.periodInMinutes ?? 0) * 60_000;
        // Chrome (120+): an alarm fires no sooner than 30 s from now, and repeats no more than every 30 s.
        if (profile.kind === 'chrome') when = Math.max(when, now + 30_000);
        const period =
          o.periodInMinutes === undefined ? undefined : profile.kind === 'chrome' ? Math.max(0.5, o.periodInMinutes) : o.periodInMinutes;
        profile.alarms.set(name, {
          name,
          scheduledTime: when,
          dueAt: profile.t() + (when - now),
          ...(period === undefined ? {} : { periodInMinutes: period }),
        });
      }),
    get: (name: string) =>
      call(`alarms.get ${name}`, () => {
        const a = profile.alarms.get(name);
        return a && publicAlarm(a);
      }),
    getAll: () => call('alarms.getAll', () => [...profile.alarms.values()].map(publicAlarm)),
    clear: (name: string) => call(`alarms.clear ${name}`, () => profile.alarms.delete(name)),
    onAlarm: events.onAlarm,
  };
  const browser = {
    runtime: {
      id: 'svc',
      getURL: (path: string) => `chrome-extension://svc${path}`,
      // No extension page is open in the world: nothing receives a message.
      sendMessage: (_m: unknown) =>
        call('runtime.sendMessage', () => Promise.reject(new Error('Could not establish connection. Receiving end does not exist.'))),
      getPlatformInfo: () => call('runtime.getPlatformInfo', () => ({ os: 'linux', arch: 'x86-64' })),
      onInstalled: events.onInstalled,
      onStartup: events.onStartup,
      onMessage: events.onMessage,
    },
    storage: { local: area('local', profile.local), sync: area('sync', profile.sync), onChanged: events.storageChanged },
    alarms,
    notifications: {
      ...desktop.notifications,
      onClicked: events.onClicked,
      ...(profile.kind === 'chrome' ? { onButtonClicked: events.onButtonClicked } : {}),
      onClosed: events.onClosed,
    },
    tabs: {
      create: (o: { url: string }) => call(`tabs.create ${o.url}`, () => void profile.desktop.tabs.push(o.url)),
      query: () => call('tabs.query', () => profile.desktop.tabs.map((url, id) => ({ id, url }))),
    },
    permissions: {
      contains: (p?: { origins?: string[] }) =>
        call('permissions.contains', () => (p?.origins ?? []).length > 0 && p!.origins!.every((o) => profile.granted.has(o))),
    },
    contextMenus: {
      create: () => undefined,
      removeAll: () => call('contextMenus.removeAll', () => undefined),
      onClicked: events.menuClicked,
    },
    commands: { onCommand: events.onCommand },
    omnibox: { onInputEntered: events.onInputEntered },
    action: {
      setBadgeText: (o: { text: string }) =>
        call('action.setBadgeText', () => {
          profile.badge = o.text;
        }),
      setBadgeBackgroundColor: () => call('action.setBadgeBackgroundColor', () => undefined),
      setTitle: () => call('action.setTitle', () => undefined),
    },
  };
  return { browser, events, desktop };
}

/** The browser API of one life. */
export type LifeBrowser = ReturnType<typeof lifeBrowser>;
