/**
 * A fake desktop: `browser.notifications` and `browser.alarms` with each browser's real semantics, shared by the
 * worker lives that use it, and a log of everything the user saw appear.
 *
 * - Chrome: `getAll()` lists what is on screen or in the notification centre (until the user dismisses it or the
 *   extension clears it); `update()` changes a notification in place and answers false when it is no longer shown;
 *   `create()` with the id of a notification still shown clears it and shows the new one: a new toast, as Chrome
 *   documents; buttons are kept.
 * - Firefox: no `update`, no buttons (they are dropped), and `getAll()` forgets a notification once it left the
 *   screen — on a system without a notification server at once (`firefoxForgets`, the default).
 *
 * Each worker life gets its own facade ({@link FakeDesktop.worker}). Faults are armed per facade and per method:
 * `reject` (the call rejects, nothing happens), `kill` (the worker dies inside the call: the call never settles,
 * nothing happens, and every later call of that facade never settles either), `kill-after` (the call takes effect,
 * then the worker dies before it learns so).
 */

/** What appeared on the desktop: a new toast (`create` of an id not shown) or a change in place (`update`). */
export interface Appearance {
  how: 'create' | 'update';
  id: string;
  title: string;
  message: string;
  buttons: string[];
  at: number;
}

type Options = { title?: string; message?: string; buttons?: Array<{ title: string }>; [k: string]: unknown };
export type Fault = 'reject' | 'kill' | 'kill-after';
export type Method = 'create' | 'update' | 'clear' | 'getAll' | 'alarms.create' | 'alarms.clear' | 'tabs.create';

/** One browser's desktop, shared by the worker lives that run on it. */
export class FakeDesktop {
  /** Notifications on screen (Chrome: and in the notification centre), by id. */
  readonly screen = new Map<string, Options>();
  /** Everything that appeared, in order. */
  readonly log: Appearance[] = [];
  readonly alarms = new Map<string, { name: string; scheduledTime: number }>();
  /** Tabs opened (by a click on a notification). */
  readonly tabs: string[] = [];
  /** Worker deaths inside a call (`kill`: nothing happened; `kill-after`: it happened), in order. */
  readonly kills: Array<{ method: string; detail: string; after: boolean }> = [];
  /** Firefox forgets a notification as soon as it is shown (no notification server). */
  firefoxForgets = true;

  constructor(
    readonly kind: 'chrome' | 'firefox',
    readonly now: () => number,
  ) {}

  /** The user closes a notification. */
  dismiss(id: string) {
    this.screen.delete(id);
  }

  /** The user closes everything on screen. */
  dismissAll() {
    this.screen.clear();
  }

  /** Appearances whose title is `title` (e.g. an intent's final words). */
  seen(title: string): Appearance[] {
    return this.log.filter((a) => a.title === title);
  }

  /** A facade for one worker life. */
  worker(): WorkerBrowser {
    return new WorkerBrowser(this);
  }
}

/** The browser as one worker life sees it: `notifications`, `alarms`, `tabs`, `runtime.getURL`; faults per method. */
export class WorkerBrowser {
  dead = false;
  readonly #faults = new Map<Method, Fault[]>();
  /** Calls made, in order (`method id`). */
  readonly calls: string[] = [];
  /** Decides a fault for a call, beside those armed with `fail` (the campaign's counter of awaits). */
  hook?: (method: Method, detail: string) => Fault | undefined;

  readonly desktop: FakeDesktop;
  constructor(desktop: FakeDesktop) {
    this.desktop = desktop;
    this.notifications = makeNotifications(this);
  }

  /** Arms `fault` for the next call of `method` (queued: one per call). */
  fail(method: Method, fault: Fault = 'reject') {
    const q = this.#faults.get(method) ?? [];
    q.push(fault);
    this.#faults.set(method, q);
    return this;
  }

  /** Runs `effect` under the armed fault of `method`. */
  call<T>(method: Method, detail: string, effect: () => T): Promise<T> {
    this.calls.push(`${method} ${detail}`);
    if (this.dead) return new Promise<T>(() => {});
    const fault = this.#faults.get(method)?.shift() ?? this.hook?.(method, detail);
    if (fault === 'reject') return Promise.reject(new Error(`${method} failed (injected)`));
    if (fault === 'kill') {
      this.dead = true;
      this.desktop.kills.push({ method, detail, after: false });
      return new Promise<T>(() => {});
    }
    const result = effect();
    if (fault === 'kill-after') {
      this.dead = true;
      this.desktop.kills.push({ method, detail, after: true });
      return new Promise<T>(() => {});
    }
    return Promise.resolve(result);
  }

  get firefox() {
    return this.desktop.kind === 'firefox';
  }

  show(how: 'create' | 'update', id: string, o: Options) {
    const d = this.desktop;
    const stored = this.firefox ? { ...o, buttons: undefined } : o;
    const before = d.screen.get(id);
    d.screen.set(id, stored);
    // A change in place that changes nothing is not news to the user.
    const same = how === 'update' && before !== undefined && before.title === o.title && before.message === o.message;
    if (!same)
      d.log.push({
        how,
        id,
        title: String(o.title ?? ''),
        message: String(o.message ?? ''),
        buttons: (stored.buttons ?? []).map((b) => b.title),
        at: d.now(),
      });
    if (this.firefox && d.firefoxForgets) d.screen.delete(id);
  }

  readonly notifications: ReturnType<typeof makeNotifications>;

  readonly alarms = {
    create: (name: string, o: { when: number }) =>
      this.call('alarms.create', name, () => {
        this.desktop.alarms.set(name, { name, scheduledTime: o.when });
      }),
    clear: (name: string) => this.call('alarms.clear', name, () => this.desktop.alarms.delete(name)),
    get: async (name: string) => this.desktop.alarms.get(name),
    getAll: async () => [...this.desktop.alarms.values()],
  };

  readonly tabs = {
    create: (o: { url: string }) => this.call('tabs.create', o.url, () => this.desktop.tabs.push(o.url)),
  };

  readonly runtime = { getURL: (path: string) => `chrome-extension://svc${path}`, id: 'svc' };
}

function makeNotifications(self: WorkerBrowser) {
  const api = {
    create: (id: string, o: Options) =>
      self.call('create', id, () => {
        // Chrome: "If it matches an existing notification, this method first clears that notification before
        // proceeding with the create operation" (chrome.notifications.create): a new toast, seen again.
        self.show('create', id, o);
        return id;
      }),
    clear: (id: string) =>
      self.call('clear', id, () => {
        const had = self.desktop.screen.has(id);
        self.desktop.screen.delete(id);
        return had;
      }),
    getAll: () =>
      self.call('getAll', '', () => Object.fromEntries([...self.desktop.screen.keys()].map((k) => [k, true])) as Record<string, boolean>),
    update: (id: string, o: Options) =>
      self.call('update', id, () => {
        const current = self.desktop.screen.get(id);
        if (!current) return false;
        self.show('update', id, { ...current, ...o });
        return true;
      }),
    onClicked: { addListener() {}, removeListener() {}, hasListener: () => false },
    onButtonClicked: { addListener() {}, removeListener() {}, hasListener: () => false },
    onClosed: { addListener() {}, removeListener() {}, hasListener: () => false },
  };
  if (self.desktop.kind === 'firefox') {
    const { update: _none, ...firefox } = api;
    return firefox as typeof api;
  }
  return api;
}
