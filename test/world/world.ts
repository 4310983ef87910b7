/**
 * The simulated world: one browser profile (IndexedDB, storage, desktop, alarms), the network to the fake service,
 * and virtual time — and the worker running in it, built by the production wiring (`wireBackground` of
 * lib/wire.ts, which calls `createBackground`) on a {@link Platform} made of the world's parts. The world kills
 * the worker at any await (any IndexedDB transaction, request or browser call), stops it for being idle, restarts the
 * browser; a dead worker's instance is dropped and the next event (an alarm, a user's message, the browser's start)
 * runs the wiring again on the same persisted profile.
 */
import { entries } from 'idb-keyval';
import type { BackgroundServices } from '@/lib/background';
import type { Platform } from '@/lib/platform';
import { createSettingsStore, DB_NAMES, type Settings, type TrackedIntent } from '@/lib/store';
import { storesOn } from '@/lib/store/idb';
import { OUTBOX_DB, storedJobs } from '@/lib/store/outbox';
import { wireBackground } from '@/lib/wire';
import type { FakeService } from '../tracker/fake-service';
import { type LifeBrowser, lifeBrowser, Profile } from './browser';
import { type Touch, WorldIDB } from './idb';
import { type NetFaults, prng, WorldNetwork } from './network';
import { type Life, NOTHING_DONE, WorldTime } from './time';

let alive = 0;
const collected = new FinalizationRegistry<undefined>(() => void alive--);

/**
 * Worlds built in this process and not collected yet: a finished run's world is garbage, so this stays small unless
 * something keeps finished runs (`npm run campaign` prints it with `CAMPAIGN_MEM=1`; counted as the collector gets to them).
 */
export const worldsAlive = (): number => alive;

/** How a worker life ended. */
export interface Death {
  at: number;
  kind: 'kill' | 'idle' | 'browser-restart' | 'end';
  /** The await it died in (kills). */
  what?: string;
  /** When the next worker started (undefined: none did before the end). */
  restartAt?: number;
  /** The user's wall clock minus the true time (ms) at the death, and as the next worker started. */
  skew?: number;
  restartSkew?: number;
  /** The intents whose notification job was `showing` in the outbox as the worker died (read after the death). */
  showing?: string[];
}

/** What the world is made of, drawn from the seed. */
export interface WorldConfig {
  seed: number;
  kind: 'chrome' | 'firefox';
  T0: number;
  service: FakeService;
  net: NetFaults;
  /** The n-th await of the worker (counted over every life) kills it before (`kill`) or right after its effect. */
  killAt: Map<number, 'kill' | 'kill-after'>;
  /** The n-th notifications call is rejected. */
  rejectNotificationAt: Set<number>;
  settings: Settings;
  /**
   * Spans of true time in which each browser API call and each `fetch` of the worker takes `ms` (a loaded machine: the
   * slowCalls family; IndexedDB's transactions have their own, `WorldIDB.slow`).
   */
  slowCalls?: Array<{ from: number; to: number; ms: number }>;
}

/** The simulated world with the worker in it. */
export class World {
  readonly time: WorldTime;
  readonly profile: Profile;
  readonly idb: WorldIDB;
  readonly net: WorldNetwork;
  readonly deaths: Death[] = [];
  readonly lives: Life[] = [];
  current: { life: Life; bg: BackgroundServices; lb: LifeBrowser } | undefined;
  /** Awaits of the worker so far (every life). */
  touches = 0;
  #notificationCalls = 0;
  /** The browser is closed (between a browser restart's stop and start): nothing runs, no event arrives. */
  closed = false;

  constructor(readonly config: WorldConfig) {
    this.time = new WorldTime(config.T0);
    this.profile = new Profile(
      config.kind,
      () => this.time.trueNow(),
      () => this.time.wall(),
      () => this.time.t,
    );
    this.idb = new WorldIDB(() => this.time.t, DB_NAMES.intents);
    this.net = new WorldNetwork(config.service, config.net, prng(config.seed ^ 0x5eed), () => this.time.trueNow());
    this.time.busy = () => this.idb.pending > 0;
    this.idb.pass = (ms) => this.time.pass(ms);
    alive++;
    collected.register(this, undefined);
  }

  /** Every record of the intents database as it is now (read past the worker, without faults). */
  async records(): Promise<TrackedIntent[]> {
    const all = await entries<string, TrackedIntent>(storesOn(this.idb.real)(DB_NAMES.intents, 'intents'));
    return all.map(([, v]) => v);
  }

  /** Saves the settings as the options page does (before the first start). */
  async configure(): Promise<void> {
    const db = storesOn(this.idb.real)(DB_NAMES.settings, 'settings');
    await createSettingsStore(db).set(this.config.settings);
  }

  #lastKill = '';

  /** One await of the worker: decides whether it dies there. */
  #touch(what: string): Touch {
    const n = ++this.touches;
    const d = this.config.killAt.get(n);
    if (d) this.#lastKill = `${d} ${what}`;
    else if (!what.startsWith('idb ')) {
      const t = this.time.t;
      const slow = this.config.slowCalls?.find((x) => x.from <= t && t < x.to);
      if (slow) this.time.pass(slow.ms);
    }
    return d;
  }

  /** The platform of one worker life. */
  #platform(life: Life, lb: LifeBrowser, kill: () => void): Platform {
    const rand = prng(this.config.seed * 31 + life.n);
    return {
      clock: this.time.clockFor(life),
      timers: this.time.timersFor(life),
      fetch: this.net.fetchFor(life, (w) => this.#touch(w), kill),
      indexedDB: this.idb.factoryFor(life, (w) => this.#touch(w), kill),
      browser: lb.browser as never,
      random: rand,
    };
  }

  /** Starts a worker (the wiring runs); `reason`: install, a browser start, or an event that woke it. */
  start(reason: 'install' | 'startup' | 'wake'): void {
    if (this.current || this.closed) return;
    const life: Life = { n: this.lives.length, bornAt: this.time.t, dead: false };
    this.lives.push(life);
    const last = this.deaths.at(-1);
    if (last && last.restartAt === undefined) Object.assign(last, { restartAt: this.time.t, restartSkew: this.time.skew() });
    const kill = () => this.kill(life, 'kill');
    const lb = lifeBrowser(
      this.profile,
      life,
      (w) => this.#touch(w),
      kill,
      () => {
        const n = ++this.#notificationCalls;
        return this.config.rejectNotificationAt.has(n) ? 'reject' : undefined;
      },
    );
    const current: NonNullable<World['current']> = { life, lb, bg: undefined as unknown as BackgroundServices };
    // Current before the wiring runs: the worker may die inside it (an await of its first calls).
    this.current = current;
    current.bg = wireBackground(this.#platform(life, lb, kill), { firefox: this.config.kind === 'firefox' });
    if (life.dead) return;
    if (reason === 'install') lb.events.onInstalled.fire({ reason: 'install' });
    if (reason === 'startup') lb.events.onStartup.fire();
  }

  /** The worker ends: killed in an await, stopped for being idle, or the browser closes. Its instance is dropped. */
  kill(life: Life, kind: Death['kind']): void {
    if (life.dead) return;
    life.dead = true;
    this.net.cut(life);
    if (this.current?.life === life) {
      this.current.lb.desktop.dead = true;
      this.current = undefined;
    }
    const death: Death = { at: this.time.t, kind, skew: this.time.skew(), ...(kind === 'kill' ? { what: this.#lastKill } : {}) };
    this.deaths.push(death);
    // What the outbox says was being shown as it died: the stated windows of a death are about those intents only.
    void storedJobs(storesOn(this.idb.real)(OUTBOX_DB, 'jobs')).then((jobs) => {
      death.showing = Object.values(jobs)
        .filter((j) => j.state === 'showing')
        .flatMap((j) => j.intentIds);
    });
  }

  /** Chrome stops a worker that has nothing in flight (no request, so no keep-alive beat) for being idle. */
  idleStop(): boolean {
    if (!this.current || this.net.inFlight > 0) return false;
    this.kill(this.current.life, 'idle');
    return true;
  }

  /** The browser closes now and starts again after `closedMs` (alarms are not kept: Chrome may clear them). */
  browserRestart(closedMs: number): void {
    if (this.current) this.kill(this.current.life, 'browser-restart');
    else this.deaths.push({ at: this.time.t, kind: 'browser-restart', skew: this.time.skew() });
    this.closed = true;
    this.profile.alarms.clear();
    this.time.at(this.time.t + closedMs, () => {
      this.closed = false;
      this.start('startup');
    });
  }

  /** A message from an extension page (the popup): wakes the worker; resolves with its reply (never, if it dies). */
  send(message: unknown): Promise<unknown> {
    if (this.closed) return Promise.resolve(undefined);
    this.start('wake');
    if (!this.current) return new Promise(() => {});
    const replies = this.current.lb.events.onMessage.fire(message, { id: 'svc' });
    // The messaging system hands a rejection to the page as an error: the page sees no reply.
    return Promise.resolve(replies.find((r) => r !== undefined)).catch(() => undefined);
  }

  /** Fires the alarms that are due (waking the worker for them); runs every `everyMs` of true time until `end`. */
  pumpAlarms(everyMs: number, end: number): void {
    // A tick with no alarm due does nothing: it tells the world so (no settling after it).
    const tick = (): typeof NOTHING_DONE | undefined => {
      let woke = false;
      if (!this.closed) {
        const due = this.profile.dueAlarms();
        if (due.length > 0) {
          woke = true;
          this.start('wake');
          for (const a of due) this.current?.lb.events.onAlarm.fire(a);
        }
      }
      if (this.time.t + everyMs <= end) this.time.at(this.time.t + everyMs, tick);
      return woke ? undefined : NOTHING_DONE;
    };
    this.time.at(this.time.t + everyMs, tick);
  }
}
