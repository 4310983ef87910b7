/**
 * Test doubles for the tracker: a virtual clock, a scripted transport and a recording notifier.
 */
import { createStore } from 'idb-keyval';
import type { IntentReceipt, WaitIntentReceiptRequest, WaitIntentReceiptResponse } from '@/lib/api/schemas/receipt';
import type { TrackedIntent } from '@/lib/store';
import { createIntentStore } from '@/lib/store';
import type { MemoryStore } from '@/lib/store/memory';
import type { Clock } from '@/lib/time/clock';
import type { Notifier, ReceiptTransport } from '@/lib/tracker/types';

let dbCounter = 0;
/** A fresh IndexedDB-backed (fake-indexeddb) intent store. */
export function freshStore() {
  dbCounter++;
  return createIntentStore(createStore(`test-intents-${dbCounter}-${Math.random()}`, 'intents'));
}

/**
 * Virtual time: `sleep` resolves only when `advance` passes its deadline. `t` is the monotonic time; the wall clock
 * (`now`) is `t` plus what {@link VirtualClock.jumpWall} added.
 */
export class VirtualClock implements Clock {
  t = 1_000_000;
  /** The wall clock minus the monotonic one (ms): moved by `jumpWall` only. */
  wallOffset = 0;
  readonly timers: Array<{ at: number; resolve: () => void }> = [];
  now() {
    return this.t + this.wallOffset;
  }
  monotonic() {
    return this.t;
  }
  /** The user's wall clock jumps by `ms` (negative: back), as an NTP correction does; monotonic time and timers do not. */
  jumpWall(ms: number) {
    this.wallOffset += ms;
  }
  sleep(ms: number, signal?: AbortSignal) {
    return new Promise<void>((resolve) => {
      const timer = { at: this.t + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        const i = this.timers.indexOf(timer);
        if (i >= 0) this.timers.splice(i, 1);
        resolve();
      });
    });
  }
  /** Moves time forward by `ms`, firing due sleeps in order and letting the engine run between them. */
  async advance(ms: number) {
    const target = this.t + ms;
    for (;;) {
      await settle();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.t = next.at;
      next.resolve();
    }
    this.t = target;
    await settle();
  }
}

/** Lets pending promise chains and fake-indexeddb's macrotasks run. */
export async function settle(rounds = 20) {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

/** A tracked record in phase `tracking`, nothing notified, with `extra` on top. */
export const trackedRecord = (intentId: string, extra: Partial<TrackedIntent> = {}): TrackedIntent => ({
  intentId,
  addedAt: 1,
  lastStates: [],
  phase: 'tracking',
  notification: 'none',
  ...extra,
});

/** A minimal receipt in the given status with [deposit, origin, destination] leg states. */
export function receipt(intentId: string, status: string, reason?: string): IntentReceipt {
  return {
    intentId,
    status,
    originChainId: 42161,
    destinationChainId: 8453,
    originTransaction: {
      chainId: 42161,
      status: status === 'FAILED' ? 'FAILED' : 'SUCCEEDED',
      ...(reason ? { statusReason: reason } : {}),
    },
    summary: {
      originTokenAmount: '250000000',
      originTokenMetadata: { symbol: 'USDC', decimals: 6 },
    },
  };
}

type Handler = (req: WaitIntentReceiptRequest, signal?: AbortSignal) => Promise<WaitIntentReceiptResponse>;

/**
 * A transport whose answers are scripted per intentId: each call takes the next handler queued for its intent, or
 * hangs until aborted when none is queued. Counts calls and the most requests in flight at once.
 */
export class ScriptedTransport implements ReceiptTransport {
  readonly calls: WaitIntentReceiptRequest[] = [];
  readonly queues = new Map<string, Handler[]>();
  inFlight = 0;
  maxInFlight = 0;

  /** Queues answers for an intent: a response object, an error to throw, or a custom handler. */
  script(intentId: string, ...steps: Array<WaitIntentReceiptResponse | Error | Handler>) {
    const q = this.queues.get(intentId) ?? [];
    for (const step of steps) {
      q.push(typeof step === 'function' ? step : step instanceof Error ? () => Promise.reject(step) : () => Promise.resolve(step));
    }
    this.queues.set(intentId, q);
  }

  callsFor(intentId: string) {
    return this.calls.filter((c) => c.intentId === intentId);
  }

  async waitIntentReceipt(req: WaitIntentReceiptRequest, options?: { signal?: AbortSignal }) {
    this.calls.push(req);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const handler = this.queues.get(req.intentId)?.shift();
      if (handler) return await handler(req, options?.signal);
      return await new Promise<never>((_, reject) => {
        options?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      });
    } finally {
      this.inFlight--;
    }
  }

  async getIntentReceipt(req: { intentId: string }) {
    const r = await this.waitIntentReceipt({ intentId: req.intentId, lastReceiptStates: [] });
    return { intentReceipt: r.intentReceipt };
  }
}

/** A notifier that records what it shows; `onScreen` mimics the browser's list of notifications. */
export class RecordingNotifier implements Notifier {
  readonly shown: TrackedIntent[] = [];
  readonly onScreen = new Set<string>();
  async show(intent: TrackedIntent) {
    this.shown.push(intent);
    this.onScreen.add(intent.intentId);
    return { title: `shown ${intent.status}`, message: intent.intentId };
  }
  async exists(intentId: string) {
    return this.onScreen.has(intentId);
  }
}

/**
 * Virtual time with an event queue: timers fire in order, events run at their time between them. `t` is the monotonic
 * time (and `runUntil`'s); the wall clock (`now`) is `t` plus what {@link EventClock.jumpWall} added.
 */
export class EventClock implements Clock {
  t = 1_800_000_000_000;
  /** The wall clock minus the monotonic one (ms): moved by `jumpWall` only. */
  wallOffset = 0;
  timers: Array<{ at: number; resolve: () => void }> = [];
  now() {
    return this.t + this.wallOffset;
  }
  monotonic() {
    return this.t;
  }
  /** The user's wall clock jumps by `ms` (negative: back), as an NTP correction does; monotonic time and timers do not. */
  jumpWall(ms: number) {
    this.wallOffset += ms;
  }
  sleep(ms: number, signal?: AbortSignal) {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = { at: this.t + Math.max(0, ms), resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((x) => x !== timer);
        resolve();
      });
    });
  }
  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number) {
    return this.runUntil(this.t + ms, []);
  }
  /** Timers fired in a row without time moving on; a busy loop in the code under test shows here as a failure. */
  static readonly MAX_FIRINGS_AT_ONE_INSTANT = 10_000;
  /** Runs to `end`, firing timers in order; `events` (kept sorted by the caller) run at their time. Throws when
   * more than MAX_FIRINGS_AT_ONE_INSTANT timers fire at one virtual instant (a wake-up loop that never lets time
   * pass would otherwise hang the campaign). */
  async runUntil(end: number, events: Array<{ at: number; run: () => Promise<void> }>) {
    let sameInstant = 0;
    let instant = this.t;
    for (;;) {
      await flush();
      let next: { at: number; resolve: () => void } | undefined;
      for (const x of this.timers) if (!next || x.at < next.at) next = x;
      const event = events[0];
      if (event && event.at <= Math.min(end, next?.at ?? end)) {
        events.shift();
        this.t = Math.max(this.t, event.at);
        await event.run();
        continue;
      }
      if (!next || next.at > end) break;
      this.timers = this.timers.filter((x) => x !== next);
      this.t = Math.max(this.t, next.at);
      if (this.t !== instant) {
        instant = this.t;
        sameInstant = 0;
      } else if (++sameInstant > EventClock.MAX_FIRINGS_AT_ONE_INSTANT) {
        throw new Error(`busy loop: over ${EventClock.MAX_FIRINGS_AT_ONE_INSTANT} timers fired at virtual time ${this.t}`);
      }
      next.resolve();
    }
    this.t = Math.max(this.t, end);
    await flush();
  }
}

async function flush() {
  for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
}

/** A promise and the function that resolves it, for a store call a test releases when it chooses. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What `p` has come to so far: `pending`, or `resolved` with its value, or `rejected` with its error. */
export function outcome<T>(p: Promise<T>) {
  const out: { state: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = { state: 'pending' };
  p.then(
    (value) => Object.assign(out, { state: 'resolved', value }),
    (error) => Object.assign(out, { state: 'rejected', error }),
  );
  return out;
}

/**
 * `memory` with its first `update` (an IndexedDB transaction: the load's rebase write, in the load tests) held until
 * `release()`; that transaction then runs on the store's copy as it is at the release. Later updates run at once.
 */
export function hungFirstUpdate(memory: MemoryStore) {
  const realUpdate = memory.update.bind(memory);
  const stuck = deferred<void>();
  let updates = 0;
  const store = Object.assign(memory, {
    update: async (id: string, fn: (c: TrackedIntent | undefined) => TrackedIntent | undefined) => {
      if (updates++ === 0) await stuck.promise;
      return realUpdate(id, fn);
    },
  });
  return { store, release: () => stuck.resolve() };
}
