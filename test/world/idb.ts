/**
 * The IndexedDB of one simulated browser profile: a fake-indexeddb `IDBFactory` that outlives every worker, seen by
 * each worker life through a facade that (1) makes a dead life's operations never settle, (2) refuses reads or writes
 * of chosen databases and object stores for spans of true time (`UnknownError`, or `QuotaExceededError` for writes),
 * spans that may outlive a worker, (3) counts every transaction as one of the worker's awaits (where the schedule may
 * kill it), (4) reports every write to the intents database, for the oracle, and (5) makes each transaction opened
 * inside a slow span take that span's time (true time passes as it opens: the slowDisk family).
 */
import { IDBFactory } from 'fake-indexeddb';
import type { Life } from './time';

/** A span during which IndexedDB refuses `mode` operations on `db` (and `store`, when given). */
export interface IdbRefusal {
  db: string;
  store?: string;
  /** Only this key (e.g. `calm-state` in the settings database): its reads (`get`) or writes (`put`, `delete`). */
  key?: string;
  mode: 'read' | 'write';
  from: number;
  to: number;
  error: 'UnknownError' | 'QuotaExceededError';
}

/** A span of true time during which each transaction takes `ms` (a busy disk, a loaded machine). */
export interface IdbSlowness {
  from: number;
  to: number;
  ms: number;
}

/** What the world decides at each await of a worker: nothing, die before the call has effect, or right after it. */
export type Touch = 'kill' | 'kill-after' | undefined;

/** A request that never fires (a dead worker's). */
const inert = (): object =>
  new Proxy(
    {},
    {
      get: (_t, p) => (p === 'then' ? undefined : p === 'transaction' ? inert() : () => inert()),
      set: () => true,
    },
  );

const bindAll = <T extends object>(target: T, get: (p: PropertyKey) => unknown | undefined): T =>
  new Proxy(target, {
    get(t, p) {
      const own = get(p);
      if (own !== undefined) return own;
      const v = Reflect.get(t, p, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
    set(t, p, v) {
      return Reflect.set(t, p, v, t);
    },
  });

/** One profile's IndexedDB. */
export class WorldIDB {
  readonly real = new IDBFactory();
  /** Transactions and opens not finished yet (the world waits for them before moving time). */
  pending = 0;
  refusals: IdbRefusal[] = [];
  slow: IdbSlowness[] = [];
  /** Makes true time pass (the world's `WorldTime.pass`); set by the world. */
  pass: (ms: number) => void = () => {};
  /** Operations refused, with when and what. */
  readonly refused: Array<{ at: number; db: string; store: string; mode: 'read' | 'write' }> = [];
  /** Told of every record written (`value`) or deleted (undefined) in the intents database, at write time. */
  onIntentWrite?: (key: string, value: unknown) => void;
  /** True times (ms since the world's start) of every write of the tracker state (the settings database's key). */
  readonly trackerStateWrites: number[] = [];

  constructor(
    readonly now: () => number,
    readonly intentsDb: string,
  ) {}

  #refusal(db: string, stores: string[], mode: 'read' | 'write'): IdbRefusal | undefined {
    const t = this.now();
    return this.refusals.find(
      (r) => r.key === undefined && r.db === db && r.mode === mode && r.from <= t && t < r.to && (!r.store || stores.includes(r.store)),
    );
  }

  /** Throws the refusal of `key` of `db` for `mode`, when one is running. */
  #refuseKey(db: string, key: IDBValidKey, mode: 'read' | 'write'): void {
    const t = this.now();
    const r = this.refusals.find(
      (x) => x.key !== undefined && x.key === String(key) && x.db === db && x.mode === mode && x.from <= t && t < x.to,
    );
    if (!r) return;
    this.refused.push({ at: t, db, store: String(key), mode });
    throw new DOMException(`${db}/${String(key)}: ${mode} refused (simulated)`, r.error);
  }

  #track(target: { addEventListener(type: string, fn: () => void): void }, events: string[]) {
    this.pending++;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      this.pending--;
    };
    for (const e of events) target.addEventListener(e, end);
  }

  /**
   * The factory a worker life opens its databases with; `touch` decides at each transaction whether it dies there:
   * before the transaction (it never runs) or once it has finished (its effect stays, the worker never learns it).
   */
  factoryFor(life: Life, touch: (what: string) => Touch, kill: () => void): IDBFactory {
    const wrapStore = (db: string, store: IDBObjectStore): IDBObjectStore =>
      bindAll(store, (p) => {
        if (p === 'get')
          return (key: IDBValidKey) => {
            this.#refuseKey(db, key, 'read');
            return store.get(key);
          };
        if (p === 'put')
          return (value: unknown, key: IDBValidKey) => {
            this.#refuseKey(db, key, 'write');
            if (db === this.intentsDb) this.onIntentWrite?.(String(key), value);
            if (key === 'tracker-state') this.trackerStateWrites.push(this.now());
            return store.put(value, key);
          };
        if (p === 'delete')
          return (key: IDBValidKey) => {
            this.#refuseKey(db, key, 'write');
            if (db === this.intentsDb) this.onIntentWrite?.(String(key), undefined);
            return store.delete(key);
          };
        return undefined;
      });
    const wrapDb = (name: string, db: IDBDatabase): IDBDatabase =>
      bindAll(db, (p) =>
        p !== 'transaction'
          ? undefined
          : (stores: string | string[], mode: IDBTransactionMode = 'readonly') => {
              if (life.dead) return inert();
              const list = typeof stores === 'string' ? [stores] : stores;
              const m = mode === 'readonly' ? 'read' : 'write';
              const refusal = this.#refusal(name, list, m);
              if (refusal) {
                this.refused.push({ at: this.now(), db: name, store: list.join(','), mode: m });
                throw new DOMException(`${name}/${list.join(',')}: ${m} refused (simulated)`, refusal.error);
              }
              const decision = touch(`idb ${m} ${name}/${list.join(',')}`);
              if (decision === 'kill') {
                kill();
                return inert();
              }
              const t = this.now();
              const slow = this.slow.find((x) => x.from <= t && t < x.to);
              if (slow) this.pass(slow.ms);
              const tx = db.transaction(stores, mode);
              this.#track(tx, ['complete', 'abort']);
              if (decision === 'kill-after') {
                tx.addEventListener('complete', kill);
                tx.addEventListener('abort', kill);
              }
              return bindAll(tx, (q) => (q === 'objectStore' ? (s: string) => wrapStore(name, tx.objectStore(s)) : undefined));
            },
      );
    const open = (name: string, version?: number): IDBOpenDBRequest => {
      if (life.dead) return inert() as IDBOpenDBRequest;
      const req = this.real.open(name, version);
      this.#track(req, ['success', 'error']);
      let wrapped: IDBDatabase | undefined;
      return bindAll(req, (p) => {
        if (p !== 'result' || req.readyState !== 'done' || !req.result) return undefined;
        wrapped ??= wrapDb(name, req.result);
        return wrapped;
      });
    };
    return bindAll(this.real, (p) => (p === 'open' ? open : undefined));
  }
}
